// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/schedule/allocator.h"
#include "engine/schedule/schedule.h"

#include <cstdint>
#include <vector>

namespace elk::schedule::detail {

/// How an op picks k (1 + the number of later preloads that run during its execution) and its entry.
enum class CandidatePolicy {
    LatestStart, ///< Elk: every feasible k, allocator entry, latest start wins (ties: smallest k)
    Basic, ///< preload up to the first later op that loads anything; largest remaining execute space
    Static, ///< fixed execute space X; preloads while they fit into M − X
};

struct BackwardOptions {
    CandidatePolicy policy = CandidatePolicy::LatestStart;
    int maxOverlap = 1; ///< K
    const std::vector<int>* preloadOrder = nullptr; ///< step indices; nullptr = execution order
    std::int64_t staticExecuteBytes = 0; ///< Static: X
    bool largestPreload = false; ///< Basic/Static: the largest-preload variant of fixed_pair
    /// LatestStart: per plan set, the most preload-state bytes its entry may hold (the joint
    /// allocation's memory-saving preload plans); nullptr or a negative cap: no cap.
    const std::vector<std::int64_t>* preloadCap = nullptr;
};

/// Backward times (the last execution ends at 0, everything else is negative).
struct StepTimes {
    int entry = -1;
    std::int64_t preloadBytes = 0; ///< of the chosen entry
    double executeStartCycles = 0, executeEndCycles = 0, preloadStartCycles = 0, preloadEndCycles = 0;
    double stallCycles = 0, nocIdleCycles = 0; ///< execute stall; NoC time the preloads leave idle
    int k = 1;
};

/// The backward inductive scheduler of elk-reference.md §4.3, generalised to any preload order
/// (§4.4) and to the baselines' candidate rules (§4.5). Buffers are reused between runs so Elk-Full
/// can schedule hundreds of orders without allocating.
///
/// SRAM rule (why every schedule fits at every instant): preloads run serialised in preload order
/// and op m's preload ends before m executes, so while op i executes the resident preloaded data is
/// exactly (a) the preloads already placed that start before op i's deadline — candidate k makes the
/// first k − 1 of them overlap and ends op i before the k-th starts — and (b) ops executed later whose
/// preload is not placed yet: they precede, in preload order, the preload of some op <= i, so they
/// are resident during all of op i. Both have fixed entries (they execute later, already chosen), so
/// a candidate is feasible iff executeBytes(i) + reserved(i) + Σ their preloadBytes <= SRAM; the
/// allocator picks op i's entry within that budget. Before an execution starts only data of later
/// executions is resident, which the next execution's check already covers (preloadBytes <=
/// executeBytes). Feasibility only shrinks as k grows, and k = 1 with no (b) always fits an op that
/// fits at all.
class BackwardScheduler {
public:
    BackwardScheduler(const ScheduleProblem& problem, const Allocator& allocator);

    /// false when some op has no feasible candidate (see failedStep()).
    bool run(const BackwardOptions& options);
    int failedStep() const { return m_failedStep; }
    const std::vector<StepTimes>& times() const { return m_times; }
    double latencyCycles() const { return m_latencyCycles; }
    /// Forward timeline (time 0 = the earliest start) of the last run.
    Schedule toSchedule(Design design) const;
    /// Whether `step`'s preload comes before that of an earlier-executing op in the last run's order;
    /// such ops are held to their smallest preload state (what the order generator's exact SRAM check
    /// assumes).
    bool inverted(int step) const { return m_inverted[static_cast<std::size_t>(step)] != 0; }

private:
    struct Candidate {
        double deadline;
        std::int64_t residentBytes;
    };
    int fixedPair(std::uint32_t planSet, std::int64_t executeBytes, bool largestPreload) const;
    int preloadOp(std::size_t q) const
    {
        return m_loaded[m_loaded.size() - 1 - q];
    } ///< q-th placed preload from the front
    double nocFit(double deadline, double commCycles, int k) const;
    void pushPreloads(double start, double deadline, double commCycles, int k);
    void materialize(int step);

    const ScheduleProblem& m_problem;
    const Allocator& m_allocator;
    std::vector<std::int64_t> m_hbmBytes; ///< per step
    std::vector<int> m_identity;
    std::vector<int> m_order, m_position;
    std::vector<char> m_inverted;
    std::vector<StepTimes> m_times;
    std::vector<int> m_loaded; ///< placed preloads, latest in time first (front = back of vector)
    std::vector<Candidate> m_candidates;
    std::int64_t m_pendingBytes = 0;
    int m_pendingCount = 0;
    int m_failedStep = -1;
    double m_latencyCycles = 0;
};

/// Peak of execute + resident preload + reserved bytes over time (shared with checkSchedule).
std::int64_t sramPeakBytesPerCore(const ScheduleProblem& problem, const Schedule& schedule);

} // namespace elk::schedule::detail
