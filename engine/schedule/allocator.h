// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/schedule/schedule.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

namespace elk::schedule {

/// Preload duration of one op (elk-reference.md §4.1 with the shared knobs): Lh = hbm ÷ hbmBytesPerCycle,
/// Ln = preload bytes ÷ κ (on a mesh at least preload bytes × cores ÷ the edge injection bandwidth),
/// L = max(Lh, Ln ÷ θ); the NoC is idle for R = L − Ln of it. An op that reads nothing from HBM takes
/// no time.
struct PreloadTime {
    double totalCycles = 0; ///< L
    double nocCycles = 0; ///< Ln
    double idleCycles() const { return totalCycles - nocCycles; } ///< R
};
PreloadTime preloadTime(const ScheduleProblem& problem, std::int64_t hbmBytes, std::int64_t preloadBytes);

/// The paper's cost-aware SRAM allocator (elk-reference.md §4.2 "Δ-greedy", made to always fit).
///
/// A group is the executing op plus the ops whose preloaded data is resident while it runs. Each
/// *free* member chooses a table entry; its footprint is executeBytes for the executing op and
/// preloadBytes for a preloaded op. Members whose entry is already fixed contribute fixed bytes.
/// Δ-greedy: every free member starts at its fastest entry; while the group does not fit, the member
/// whose next smaller entry adds the least time per byte saved moves down. The loop only stops when the
/// group fits (or nothing can shrink: infeasible), so a returned allocation always fits.
///
/// Entry cost ("time") = totalCycles + the preload time a larger preload state adds
/// (L(preloadBytes) − L(smallest preloadBytes)), so a bigger preload layout is only chosen when it
/// pays for its longer preload.
///
/// In the backward scheduler every resident preloaded op has already been executed (scheduled later in
/// time), so its entry — and with it its preloadBytes — is fixed: changing it would invalidate its
/// placed execution and the SRAM checks of the steps between. The only free member is then the
/// executing op, whose Δ-greedy answer (walk the footprint frontier down from the fastest entry until
/// it fits) is the fastest entry within the budget; `bestEntry` holds that answer for *every* budget
/// (a complete memo, O(log T) per query). `allocateGroup` is the general joint form, memoised per
/// (members, budget).
class Allocator {
public:
    explicit Allocator(const ScheduleProblem& problem);

    /// Fastest entry of `planSet` whose executeBytes <= budgetBytes; -1 if none.
    /// minPreloadOnly: only entries with the op's smallest preloadBytes.
    int bestEntry(std::uint32_t planSet, std::int64_t budgetBytes, bool minPreloadOnly) const;
    /// Smallest executeBytes of any (restricted) entry.
    std::int64_t minExecuteBytes(std::uint32_t planSet, bool minPreloadOnly) const;
    /// The same two with the op's preload state held to at most `preloadCapBytes` (a memory-saving
    /// preload-state plan chosen by the joint allocation); a cap below the smallest preload state acts
    /// as that smallest one.
    int bestEntryCapped(
        std::uint32_t planSet, std::int64_t budgetBytes, bool minPreloadOnly, std::int64_t preloadCapBytes) const;
    std::int64_t minExecuteBytesCapped(std::uint32_t planSet, bool minPreloadOnly, std::int64_t preloadCapBytes) const;
    /// Smallest totalCycles of any entry (a bound on the op's execution time).
    double fastestCycles(std::uint32_t planSet) const { return m_sets[planSet].fastestCycles; }
    /// The allocator's cost of one entry (see class comment).
    double entryCost(std::uint32_t planSet, std::uint32_t entry) const { return m_sets[planSet].cost[entry]; }

    struct Member {
        std::uint32_t planSet = 0;
        bool executing = false; ///< footprint executeBytes (else preloadBytes)
        auto operator<=>(const Member&) const = default;
    };
    /// Joint Δ-greedy over `members` (all free) with `fixedBytes` already resident, capacity
    /// `capacityBytes`. Returns one entry per member, or nothing when even the smallest entries do not fit.
    std::optional<std::vector<std::uint32_t>> allocateGroup(
        std::span<const Member> members, std::int64_t fixedBytes, std::int64_t capacityBytes);
    std::int64_t memoEntries() const { return static_cast<std::int64_t>(m_memo.size()); }

private:
    struct Frontier {
        std::vector<std::int64_t> bytes; ///< ascending
        std::vector<std::uint32_t> entry; ///< best entry with at most bytes[k] (prefix minimum of cost)
    };
    struct SetTables {
        std::vector<double> cost; ///< per table entry
        std::vector<std::uint32_t> byCost; ///< entries by ascending cost, ties by index
        Frontier execAll, execMinPreload, preload;
        double fastestCycles = 0;
    };
    const Frontier& frontier(std::uint32_t planSet, bool executing, bool minPreloadOnly) const;

    const ScheduleProblem& m_problem;
    std::vector<SetTables> m_sets;
    std::map<std::pair<std::vector<Member>, std::int64_t>, std::optional<std::vector<std::uint32_t>>> m_memo;
};

} // namespace elk::schedule
