// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/import/import_result.h"

#include <string>
#include <string_view>

namespace elk::import {

/// Imports an ONNX model (binary ModelProto) into the Graph IR. Shapes only: weight bytes are never
/// read, and external-data initializers may point at files that do not exist.
/// Contract: never throws for bad input; every problem is an ImportIssue naming node, op type and
/// domain (unsupported ops are all listed in one pass).
ImportResult importOnnxFile(const std::string& path, const ImportOptions& options);

/// Same, from bytes already in memory; `displayName` names the model in messages and becomes the
/// graph's name when the model has none.
ImportResult importOnnxBytes(std::string_view bytes, const std::string& displayName, const ImportOptions& options);

} // namespace elk::import
