// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Inside engine/run: how schedule problems are built from a compiled model and a split choice, and the
// per-design split choice of a run (split_choice.cpp), for the design runner (design_runs.cpp).
#pragma once

#include "engine/run/run_compile.h"

#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace elk::run::detail {

/// Bytes per cycle, whole part, at which a 2D mesh delivers preload data to its cores, as the
/// simulator routes it (XY from each stack's injection router): a preload of P bytes per core keeps
/// the busiest mesh link busy for P × its load; cores × P over that time. 0 on all-to-all.
double meshInjectionBytesPerCycle(const chip::ChipSpec& chip);

/// The problem with every distinct operator i run as compiled.variants[i][variantOfInput[i]].
schedule::ScheduleProblem buildProblem(const CompiledModel& compiled, const RunSpec& spec,
    const std::vector<std::uint32_t>& variantOfInput, double injectionBytesPerCycle);

/// Every design's pipelined splits on its own terms. The candidates are the same for every run of a
/// model and chip, whatever designs it asks for: the greedy choices judged by Basic, Static and Elk-Dyn
/// (chooseSplits()) and no pipelined splits. A design takes the candidate its judge estimates fastest
/// (so none does worse than with another design's choice, and a greedy search stuck early is not held
/// against it); Ideal is scheduled with every distinct candidate and keeps the fastest simulated.
struct RunSplits {
    static constexpr schedule::Design kJudges[] { schedule::Design::Basic, schedule::Design::Static,
        schedule::Design::ElkDyn };
    struct Candidate {
        std::vector<std::uint32_t> variantOfInput;
        std::string whose; ///< "basic's", … or "no pipelined splits"
        std::shared_ptr<const schedule::ScheduleProblem> problem;
    };
    std::vector<Candidate> candidates; ///< distinct, in kJudges order then none
    std::vector<SplitChoice> ofJudge; ///< by kJudges slot: the judge's pick among the candidates
    std::vector<std::size_t> candidateOfJudge; ///< by kJudges slot

    static std::size_t slotOf(schedule::Design judge)
    {
        return std::size_t(std::find(std::begin(kJudges), std::end(kJudges), judge) - std::begin(kJudges));
    }
    std::size_t noneCandidate = 0; ///< the candidate without pipelined splits
};

/// The candidates and every judge's pick (parallel on up to `threads` threads; deterministic).
RunSplits chooseRunSplits(const CompiledModel& compiled, const RunSpec& spec, int threads, RunControl& control);

} // namespace elk::run::detail
