// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/partition/impl/pareto_front.h"
#include "engine/partition/impl/plan_enumeration.h"
#include "engine/partition/impl/plan_evaluation.h"

#include <cstdint>
#include <vector>

namespace elk::partition::detail {

/// One (preload size, execute size) entry before plans are numbered: the execute plan is a front
/// plan, the preload plan shares its spatial split.
struct TableDraft {
    std::int64_t preloadBytes = 0;
    std::int64_t executeBytes = 0;
    std::size_t executeFront = 0; ///< index into the front's plans
    std::vector<std::int32_t> preloadTemporal; ///< [d * V + v]
    PlanCost preloadCost;
    double warmupCycles = 0;
    double totalCycles = 0;
};

/// The cold → hot table of elk-reference.md §2.7 for an operator with HBM inputs: for every front
/// plan h and every preload size c, the fastest compatible (preload plan, h) pair. A preload plan
/// is compatible with h when it has h's spatial split, each of its rotation factors is a multiple
/// of h's, and its preload bytes do not exceed h's execute bytes. Sorted by (preload, execute).
/// Returns false (and leaves `table` partial) when `control` asks to stop.
bool buildPreloadTable(const ExprFacts& facts, const std::vector<FrontPlan>& front, PlanEvaluator& evaluator,
    TemporalEnumerator& temporal, RunControl& control, std::vector<TableDraft>& table);

} // namespace elk::partition::detail
