// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/run/run_spec.h"

#include <string>
#include <string_view>
#include <vector>

namespace elk::run {

/// An "elk.workspace/1" file: the model, the chip and the run parameters that elk-studio and
/// `elk workspace` open together. Relative paths are resolved against the workspace file's folder,
/// so a workspace can be moved together with its model.
struct Workspace {
    static constexpr const char* kSchema = "elk.workspace/1";

    std::string filePath;  ///< the workspace file itself, as given
    std::string modelPath; ///< resolved against the workspace folder
    std::string chip;      ///< a built-in preset name, or a chip file path resolved against the workspace folder
    RunRequest run;        ///< modelPath and chip filled in from the two fields above
};

struct WorkspaceParseResult {
    Workspace workspace;
    std::vector<FieldError> errors; ///< "line L, column C" for syntax errors, else a JSON pointer
    bool ok() const { return errors.empty(); }
};

/// Parses workspace JSON. `filePath` is used to resolve relative paths (its folder) and is kept in
/// the result. Keys: schema, model, chip, and an optional "run" object with phase, batch, seqLen,
/// kvLen, designs. Unknown keys and wrong types are errors. Files are not opened here.
WorkspaceParseResult workspaceFromJson(std::string_view jsonText, const std::string& filePath);

/// Reads and parses a workspace file; I/O errors have `field` "/".
WorkspaceParseResult loadWorkspaceFile(const std::string& filePath);

} // namespace elk::run
