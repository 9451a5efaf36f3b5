// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/run_control.h"
#include "engine/run/artifact_parity.h"
#include "engine/run/paper_figures.h"

#include <optional>
#include <string>
#include <vector>

namespace elk::store {

class ResultStore;

struct ParityPointOutcome {
    std::vector<run::PaperDesignResult> designs; ///< in spec.designs order
    std::string error; ///< fatal for the point (a model the parity front end refuses, …)
    bool fromCache = false;
    RunStatus status = RunStatus::Completed;
};

/// One artifact-parity run through the store's parity table (store may be null): keyed by the
/// canonical JSON of the spec, the parity options and every quirk; completed runs are stored.
ParityPointOutcome runParityCached(
    const run::RunSpec& spec, const run::ParityOptions& options, ResultStore* store, RunControl& control);

/// The key JSON of a parity run (its SHA-256 is the parity_runs row's key).
std::string parityKey(const run::RunSpec& spec, const run::ParityOptions& options);
/// A stored parity payload read back (fromCache set), or nothing when it is not one.
std::optional<ParityPointOutcome> parityOutcomeFromPayload(const std::string& payloadJson);

} // namespace elk::store
