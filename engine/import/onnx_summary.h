// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elk::import {

/// Structure of a serialized ModelProto, for tests and tools that must not include ONNX headers.
/// Never throws; bytes that are not a ModelProto give parsed = false and an error.
struct OnnxModelSummary {
    bool parsed = false;
    std::string error; ///< why it did not parse
    std::int64_t irVersion = 0;
    std::int64_t opset = 0; ///< default domain
    std::int64_t nodes = 0;
    std::int64_t initializers = 0;
    std::int64_t externalInitializers = 0;
    std::int64_t externalElements = 0;
    std::int64_t externalBytes = 0; ///< sum of external "length" entries
    bool externalOffsetsConsistent = false; ///< offsets run 0, len0, len0+len1, ... and lengths match dims
    std::vector<std::string> externalLocations; ///< distinct
    std::int64_t inlineDataBytes = 0; ///< bytes of data stored in the file (small constants only)
    std::int64_t largestInlineElements = 0;
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
    std::vector<std::string> dimParams; ///< distinct, sorted, over graph inputs and outputs
    std::vector<std::pair<std::string, std::int64_t>> opCounts; ///< op type → nodes, sorted by op type
    std::vector<std::pair<std::string, std::string>> metadata; ///< metadata_props in file order
    /// Shape of a graph input or output: dims as text ("batch", "128"); empty when not found.
    std::vector<std::pair<std::string, std::vector<std::string>>> ioShapes;
};
OnnxModelSummary summarizeOnnx(std::string_view bytes);

} // namespace elk::import
