// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/chip/chip_spec.h"
#include "engine/run/run_spec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elk::run {

/// What the app had open: the view kinds (the app names them, e.g. "designs", "gantt"), the one in
/// front, and what was selected in them.
struct WorkspaceViews {
    std::vector<std::string> open; ///< in tab order, no duplicates
    std::string current; ///< one of `open`, or empty
    std::string selectedDesign; ///< a design name, or empty
    std::optional<std::int64_t> selectedStep; ///< an execution step (>= 0), or none
    bool operator==(const WorkspaceViews&) const = default;
};

/// A workspace file (".elkproj"): the model, the chip and the run settings that elk-studio and
/// `elk workspace` open together. Relative paths are resolved against the workspace file's folder,
/// so a workspace can be moved together with its model.
///
/// Schema "elk.workspace/2" (written by workspaceToJson):
///   model:       {"path": FILE, "sha256": HEX?} or {"bundled": NAME}
///   chip:        {"preset": NAME} or {"path": FILE} or {"spec": {elk.chip/1 object}}, plus "overrides":
///   ["field=value", ...] compareChip: {"preset": NAME} or {"path": FILE} (optional) run:         {"phase", "batch",
///   "seqLen", "kvLen", "designs", "dims": {NAME: size}, "inputShapes": {INPUT: [d0, ...]}, "options":
///   {"preloadNocThreshold",
///                 "preloadIngressGBpsPerCore", "delayCompute", "seed"}} (every key optional)
///   views:       {"open": [KIND...], "current": KIND, "selectedDesign": NAME, "selectedStep": N} (optional)
/// "elk.workspace/1" files (model and chip as strings, run without options) are still read.
struct Workspace {
    static constexpr const char* kSchema = "elk.workspace/2";
    static constexpr const char* kSchemaV1 = "elk.workspace/1";

    int schemaVersion = 2; ///< of the file read (1 or 2); workspaceToJson always writes 2
    std::string filePath; ///< the workspace file itself, as given
    /// Resolved against the workspace folder, or "bundled:NAME" for a bundled model.
    std::string modelPath;
    /// SHA-256 (lower-case hex) of the model file when the workspace was saved; empty = not recorded.
    std::string modelSha256;
    /// A built-in preset name, or a chip file path resolved against the workspace folder; empty when
    /// the chip is embedded.
    std::string chip;
    /// The chip itself, as edited in the app (takes the place of `chip`).
    std::optional<chip::ChipSpec> embeddedChip;
    /// Second chip to compare against: a preset name or a resolved chip file path; empty = none.
    std::string compareChip;
    WorkspaceViews views;
    /// Run settings; its modelPath and chip are copies of the fields above (workspaceToJson reads
    /// those), its chipOverrides are the chip's overrides.
    RunRequest run;
};

struct WorkspaceParseResult {
    Workspace workspace;
    std::vector<FieldError> errors; ///< "line L, column C" for syntax errors, else a JSON pointer
    /// Not errors: e.g. the model file changed since the workspace was saved (loadWorkspaceFile only).
    std::vector<std::string> warnings;
    bool ok() const { return errors.empty(); }
};

/// Parses workspace JSON (version 1 or 2). `filePath` is used to resolve relative paths (its folder)
/// and is kept in the result. Unknown keys and wrong types are errors, each naming its JSON pointer.
/// Files are not opened here.
WorkspaceParseResult workspaceFromJson(std::string_view jsonText, const std::string& filePath);

/// Reads and parses a workspace file; I/O errors have `field` "/". When the workspace records the
/// model's sha256 and the file's bytes no longer match, a warning says so.
WorkspaceParseResult loadWorkspaceFile(const std::string& filePath);

/// "elk.workspace/2" JSON text (sorted keys, 2-space indent, trailing newline) for a workspace to be
/// saved as `filePath`: model and chip files are written relative to its folder (absolute when they
/// share no root with it). Deterministic, so saved workspaces diff cleanly.
std::string workspaceToJson(const Workspace& workspace, const std::string& filePath);

/// resolveRunSpec(workspace.run), with an embedded chip taking the place of a preset or chip file.
RunSpecResult resolveWorkspaceRun(const Workspace& workspace);

} // namespace elk::run
