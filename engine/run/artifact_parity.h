// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/run_control.h"
#include "engine/run/run_spec.h"
#include "engine/schedule/artifact_metrics.h"
#include "engine/schedule/artifact_schedulers.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// `--parity artifact`: a run as the published Elk artifact computes it (elk-reference.md §1–§5) —
// its front end, plan search, per-design constants and backward list schedules, from the artifact's
// own einstein_v2 model files. Elk Studio's equal-terms pipeline (run_compile.h) is the default; this
// exists to reproduce the paper's numbers and to measure, quirk by quirk, where they come from.

namespace elk::run {

/// Every artifact behaviour that changes a latency, each a switch (true = as the artifact does it).
struct ParityQuirks {
    bool scrambledTemporal = true; ///< rotation candidate lists sorted before use (§2.4, §7 item 16)
    bool hbmGBpsAsMiBPerMs = true; ///< the HBM "GB/s" is used as MiB per ms (§7 item 24)
    /// Front end (§1.2 step 3): activations not produced (or read) by the op just before are reloaded
    /// from HBM. false: every activation an earlier op produced stays on chip.
    bool reloadEarlierActivations = true;
    /// Front end (§1.2 step 5): the embedding lookup (GatherV2) is dropped. false: it is scheduled.
    bool dropGatherV2 = true;
    /// Front end (§1.2 step 8): ops larger than num_cores // split_factor MB are halved until they fit.
    /// false: no capacity split (an op too large for the SRAM then fails its plan search).
    bool capacitySplit = true;
    schedule::artifact::SchedulerQuirks scheduler;
};

/// The switchable quirks by name, in the order the ablation turns them off.
const std::vector<std::string>& parityQuirkNames();
/// Sets one by name; false for an unknown name.
bool setParityQuirk(ParityQuirks& quirks, std::string_view name, bool on);
/// Whether one is on; nothing for an unknown name.
std::optional<bool> parityQuirk(const ParityQuirks& quirks, std::string_view name);

struct ParityOptions {
    int layers = 0; ///< --layers of launch.py; 0: the paper's value for the model file (elk-reference.md §6)
    int splitFactor = 0; ///< capacity = cores // splitFactor MB; 0: the paper's value
    double meshRatio = 0; ///< the artifact's scalar --mesh r; 0: all-to-all
    double commScale = 1; ///< --comm
    double compScale = 1; ///< --comp
    ParityQuirks quirks;
    int threads = 0; ///< plan searches in parallel; 0: one per hardware thread
};

struct ParityDesign {
    schedule::Design design = schedule::Design::Basic;
    std::optional<schedule::artifact::ParitySchedule> schedule;
    std::string error;
    double latencyMs = 0;
    double executeMs = 0; ///< Σ execution interval lengths (the artifact's *_exe_ms)
    double preloadMs = 0; ///< Σ preload interval lengths (*_load_ms)
    schedule::artifact::ParityMetrics metrics; ///< the figure scripts' derived metrics (§5.4)
    double seconds = 0; ///< scheduling wall time
};

struct ParityRun {
    std::vector<ParityDesign> designs; ///< in spec.designs order
    int ops = 0; ///< after the artifact's front end
    int distinctExpressions = 0; ///< plan searches
    int layers = 0, splitFactor = 0;
    double hbmMiBPerMs = 0;
    double importSeconds = 0, searchSeconds = 0;
    std::vector<std::string> errors; ///< fatal: nothing was scheduled
    RunStatus status = RunStatus::Completed;
    bool ok() const { return errors.empty() && status == RunStatus::Completed; }
};

/// Runs every design of `spec` in artifact parity. The model must be an einstein_v2 file; decode
/// (batch, kvLen) and train (batch, seqLen: the artifact's prefill "training") are supported.
ParityRun runArtifactParity(const RunSpec& spec, const ParityOptions& options, RunControl& control);

/// JSON of a parity run (for `elk run --parity artifact --json`).
std::string parityRunToJson(const RunSpec& spec, const ParityRun& run);

} // namespace elk::run
