// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The five designs (elk-design.md §4, elk-reference.md §4.3–4.5) on equal terms: all of them use the
// problem's θ, κ and delayCompute; they differ only in decisions.
#include "engine/core/parallel_for.h"
#include "engine/schedule/backward_scheduler.h"
#include "engine/schedule/preload_orders.h"
#include "engine/schedule/schedule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace elk::schedule {

const char* toString(Design design)
{
    switch (design) {
    case Design::Basic:
        return "basic";
    case Design::Static:
        return "static";
    case Design::ElkDyn:
        return "elk-dyn";
    case Design::ElkFull:
        return "elk-full";
    case Design::Ideal:
        return "ideal";
    }
    return "?";
}

std::optional<Design> designFromString(std::string_view text)
{
    for (Design d : kAllDesigns)
        if (text == toString(d))
            return d;
    return std::nullopt;
}

namespace {

    ScheduleResult failure(std::string message)
    {
        ScheduleResult result;
        result.error = std::move(message);
        return result;
    }

    std::string fitError(const ScheduleProblem& problem, const Allocator& allocator, int step)
    {
        const Step& s = problem.steps[static_cast<std::size_t>(step)];
        const std::int64_t need = allocator.minExecuteBytes(s.planSet, false) + s.reservedBytesPerCore;
        return "op '" + s.name + "' (step " + std::to_string(step) + ") needs at least " + std::to_string(need)
            + " bytes per core (smallest execute state + " + std::to_string(s.reservedBytesPerCore)
            + " reserved); the chip has " + std::to_string(problem.sramBytesPerCore);
    }

    /// K: most preloads that may overlap one execution = ops per layer (a graph without repetition is
    /// one layer of every op).
    int overlapBound(const ScheduleProblem& problem)
    {
        const int ops = problem.layers.opsPerLayer;
        return std::max(1, ops > 0 ? ops : static_cast<int>(problem.steps.size()));
    }

    std::string problemError(const ScheduleProblem& problem)
    {
        if (problem.steps.empty())
            return "nothing to schedule: the model has no ops";
        if (!(problem.hbmBytesPerCycle > 0) || !(problem.preloadIngressBytesPerCycle > 0))
            return "hbmBytesPerCycle and preloadIngressBytesPerCycle must be positive";
        if (!(problem.preloadNocThreshold > 0) || problem.preloadNocThreshold > 1)
            return "preloadNocThreshold (θ) must be in (0, 1]";
        if (problem.sramBytesPerCore <= 0)
            return "sramBytesPerCore must be positive";
        for (std::size_t i = 0; i < problem.steps.size(); ++i) {
            const Step& s = problem.steps[i];
            if (s.planSet >= problem.planSets.size() || !problem.planSets[s.planSet]
                || problem.planSets[s.planSet]->table.empty())
                return "op '" + s.name + "' (step " + std::to_string(i) + ") has no plan table";
        }
        return {};
    }

    ScheduleResult runBackward(const ScheduleProblem& problem, const Allocator& allocator,
        detail::BackwardScheduler& scheduler, const detail::BackwardOptions& options, Design design)
    {
        if (!scheduler.run(options))
            return failure(fitError(problem, allocator, scheduler.failedStep()));
        ScheduleResult result;
        result.schedule = scheduler.toSchedule(design);
        return result;
    }

    ScheduleResult scheduleBasic(
        const ScheduleProblem& problem, const Allocator& allocator, detail::BackwardScheduler& scheduler)
    {
        detail::BackwardOptions options;
        options.policy = detail::CandidatePolicy::Basic;
        options.maxOverlap = overlapBound(problem);
        // Both variants are kept as finalists (the faster analytic one first) so that a caller confirms
        // the choice on the simulator, as for every design (one selection rule).
        std::vector<Schedule> variants;
        for (bool largest : { false, true }) {
            options.largestPreload = largest;
            if (!scheduler.run(options))
                continue;
            Schedule variant = scheduler.toSchedule(Design::Basic);
            variant.note = largest ? "largest-preload variant" : "smallest-preload variant";
            const bool faster = !variants.empty() && variant.latencyCycles < variants.front().latencyCycles;
            variants.insert(faster ? variants.begin() : variants.end(), std::move(variant));
        }
        if (variants.empty())
            return failure(fitError(problem, allocator, scheduler.failedStep()));
        ScheduleResult result;
        result.schedule = variants.front();
        if (variants.size() > 1)
            result.finalists = std::move(variants);
        return result;
    }

    /// The analytic latency of `count` backward runs, options(k) for run k, on up to `threads` threads
    /// (one scheduler each; results by index, so they do not depend on the thread count); NaN where a run
    /// does not schedule. `options` may also take a std::vector<int>& to hold a preload order the
    /// options point to while the run lasts. A non-empty `stage` reports progress.
    template <typename Options>
    std::vector<double> latenciesOf(const ScheduleProblem& problem, const Allocator& allocator, std::size_t count,
        int threads, RunControl& control, Options&& options, std::string_view stage = {})
    {
        std::vector<double> latency(count, std::nan(""));
        std::mutex mutex;
        std::vector<std::unique_ptr<detail::BackwardScheduler>> idle;
        std::int64_t done = 0;
        parallelFor(
            count, threads,
            [&](std::size_t k) {
                std::unique_ptr<detail::BackwardScheduler> own;
                {
                    const std::lock_guard lock(mutex);
                    if (!idle.empty()) {
                        own = std::move(idle.back());
                        idle.pop_back();
                    }
                }
                if (!own)
                    own = std::make_unique<detail::BackwardScheduler>(problem, allocator);
                std::vector<int> order;
                detail::BackwardOptions mine;
                if constexpr (std::is_invocable_v<Options&, std::size_t, std::vector<int>&>)
                    mine = options(k, order);
                else
                    mine = options(k);
                if (own->run(mine))
                    latency[k] = own->latencyCycles();
                const std::lock_guard lock(mutex);
                idle.push_back(std::move(own));
                if (!stage.empty())
                    control.progress(++done, static_cast<std::int64_t>(count), stage);
            },
            [&] { return control.stopRequested(); });
        return latency;
    }

    ScheduleResult scheduleStatic(const ScheduleProblem& problem, const Allocator& allocator,
        detail::BackwardScheduler& scheduler, RunControl& control, int threads)
    {
        // X from the smallest space every op fits in up to the whole SRAM, in 10 KiB steps (reference §4.5).
        constexpr std::int64_t kStepBytes = 10 * 1024;
        std::int64_t smallest = 0;
        for (const Step& s : problem.steps)
            smallest = std::max(smallest, allocator.minExecuteBytes(s.planSet, false) + s.reservedBytesPerCore);
        if (smallest > problem.sramBytesPerCore) {
            for (std::size_t i = 0; i < problem.steps.size(); ++i) {
                const Step& s = problem.steps[i];
                if (allocator.minExecuteBytes(s.planSet, false) + s.reservedBytesPerCore > problem.sramBytesPerCore)
                    return failure(fitError(problem, allocator, static_cast<int>(i)));
            }
        }
        std::vector<std::int64_t> sizes;
        for (std::int64_t x = smallest; x < problem.sramBytesPerCore; x += kStepBytes)
            sizes.push_back(x);
        sizes.push_back(problem.sramBytesPerCore);
        detail::BackwardOptions options;
        options.policy = detail::CandidatePolicy::Static;
        options.maxOverlap = overlapBound(problem);
        // The few analytically fastest (execute space, variant) pairs are kept as finalists, as Elk-Full
        // keeps its best orders, so that a caller confirms the choice on the simulator (one selection
        // rule for every design). Ties keep the earlier pair.
        constexpr std::size_t kFinalists = 3;
        // Every (variant, size) pair's analytic latency; NaN: some op has no entry of the variant within X.
        struct Pair {
            bool largest = false;
            std::int64_t executeBytes = 0;
        };
        std::vector<Pair> pairs;
        for (bool largest : { false, true })
            for (std::int64_t x : sizes)
                pairs.push_back({ largest, x });
        const auto optionsOf = [&](const Pair& pair) {
            detail::BackwardOptions mine = options;
            mine.staticExecuteBytes = pair.executeBytes;
            mine.largestPreload = pair.largest;
            return mine;
        };
        const std::vector<double> pairLatency = latenciesOf(
            problem, allocator, pairs.size(), threads, control, [&](std::size_t k) { return optionsOf(pairs[k]); });
        if (control.stopRequested())
            return failure("stopped");
        // The few analytically fastest pairs, ties to the earlier pair.
        std::vector<std::size_t> ranked; // pair indices, ascending latency
        for (std::size_t k = 0; k < pairs.size(); ++k) {
            if (std::isnan(pairLatency[k]))
                continue;
            std::size_t at = 0;
            while (at < ranked.size() && pairLatency[ranked[at]] <= pairLatency[k])
                ++at;
            if (at >= kFinalists)
                continue;
            ranked.insert(ranked.begin() + static_cast<std::ptrdiff_t>(at), k);
            if (ranked.size() > kFinalists)
                ranked.pop_back();
        }
        const auto swept = static_cast<std::int64_t>(pairs.size());
        std::vector<Schedule> kept; // ascending latency
        for (std::size_t k : ranked) {
            scheduler.run(optionsOf(pairs[k])); // deterministic: the latency found above
            Schedule candidate = scheduler.toSchedule(Design::Static);
            candidate.note = "execute space " + std::to_string(pairs[k].executeBytes) + " bytes/core ("
                + (pairs[k].largest ? "largest" : "smallest") + "-preload variant)";
            candidate.earlyPreloadRoomBytesPerCore = problem.sramBytesPerCore - pairs[k].executeBytes;
            kept.push_back(std::move(candidate));
        }
        if (kept.empty())
            return failure("no execute-space size fits every op (static)");
        for (Schedule& s : kept)
            s.ordersTried = swept;
        ScheduleResult result;
        result.schedule = kept.front();
        if (kept.size() > 1)
            result.finalists = std::move(kept);
        return result;
    }

    /// The paper's joint allocation (elk-design.md §4, reference §4.2 "Δ-greedy") on top of the inductive
    /// scheduler. In the backward induction the resident preloaded ops of op i are already placed, so
    /// the executing op's plan is chosen within what they leave; the joint step is a refinement over the
    /// whole schedule. Each plan set whose ops hold a preload state with a smaller one available is a
    /// candidate memory-saving move (the next smaller preload state, its extra distribution time
    /// counted where its ops execute); candidates are tried in the Δ-greedy order — least time added
    /// per byte freed first — and a move is kept only when the rescheduled model is faster (the freed
    /// SRAM lets executions take faster plans or overlap more preloads). Caps apply per plan set, so
    /// identical layers keep identical plans. Returns the caps (-1: none).
    struct JointAllocation {
        std::vector<std::int64_t> caps;
        int accepted = 0;
        int evaluated = 0;
        double beforeCycles = 0, afterCycles = 0;
    };

    JointAllocation jointAllocation(const ScheduleProblem& problem, const Allocator& allocator,
        detail::BackwardScheduler& scheduler, detail::BackwardOptions options, RunControl& control)
    {
        constexpr int kMaxTrials = 24;
        JointAllocation out;
        out.caps.assign(problem.planSets.size(), -1);
        options.preloadCap = &out.caps;
        if (!scheduler.run(options))
            return out;
        out.beforeCycles = out.afterCycles = scheduler.latencyCycles();
        std::vector<std::pair<std::uint32_t, std::int64_t>> rejected;
        const std::size_t n = problem.steps.size();
        while (out.evaluated < kMaxTrials && !control.stopRequested()) {
            const std::vector<detail::StepTimes>& t = scheduler.times();
            // Each plan set's largest chosen preload state, the next smaller one, and what holding its
            // ops to it costs (their fastest entries within the same execute space).
            const std::size_t sets = problem.planSets.size();
            std::vector<std::int64_t> chosen(sets, -1);
            for (std::size_t m = 0; m < n; ++m)
                chosen[problem.steps[m].planSet] = std::max(chosen[problem.steps[m].planSet], t[m].preloadBytes);
            std::vector<std::int64_t> nextCap(sets, -1);
            for (std::size_t j = 0; j < sets; ++j) {
                if (chosen[j] <= 0)
                    continue;
                for (const auto& pe : problem.planSets[j]->table)
                    if (pe.preloadBytes < chosen[j])
                        nextCap[j] = std::max(nextCap[j], pe.preloadBytes);
            }
            std::vector<double> addedCycles(sets, 0.0), freedBytes(sets, 0.0);
            std::vector<char> possible(sets, 1);
            for (std::size_t m = 0; m < n; ++m) {
                const std::uint32_t j = problem.steps[m].planSet;
                if (nextCap[j] < 0 || t[m].preloadBytes <= nextCap[j])
                    continue;
                const auto& pe = problem.planSets[j]->table[static_cast<std::size_t>(t[m].entry)];
                const int capped = allocator.bestEntryCapped(j, pe.executeBytes, false, nextCap[j]);
                if (capped < 0) {
                    possible[j] = 0;
                    continue;
                }
                addedCycles[j] += std::max(0.0,
                    allocator.entryCost(j, static_cast<std::uint32_t>(capped))
                        - allocator.entryCost(j, static_cast<std::uint32_t>(t[m].entry)));
                freedBytes[j] += static_cast<double>(t[m].preloadBytes - nextCap[j]);
            }
            int pick = -1;
            double bestRatio = 0;
            for (std::size_t j = 0; j < sets; ++j) {
                if (!possible[j] || !(freedBytes[j] > 0))
                    continue;
                if (std::find(rejected.begin(), rejected.end(), std::pair { std::uint32_t(j), nextCap[j] })
                    != rejected.end())
                    continue;
                const double ratio = addedCycles[j] / freedBytes[j];
                if (pick < 0 || ratio < bestRatio) {
                    pick = static_cast<int>(j);
                    bestRatio = ratio;
                }
            }
            if (pick < 0)
                break;
            const auto j = static_cast<std::size_t>(pick);
            const std::int64_t previous = out.caps[j];
            out.caps[j] = nextCap[j];
            ++out.evaluated;
            if (scheduler.run(options) && scheduler.latencyCycles() < out.afterCycles * (1 - 1e-6)) {
                out.afterCycles = scheduler.latencyCycles();
                ++out.accepted;
                continue;
            }
            rejected.push_back({ static_cast<std::uint32_t>(j), nextCap[j] });
            out.caps[j] = previous;
            scheduler.run(options); // back to the accepted state
        }
        return out;
    }

    std::string jointNote(const JointAllocation& joint, double clockHz)
    {
        char note[200];
        std::snprintf(note, sizeof note,
            "joint allocation: %d memory-saving preload plans kept of %d tried (%.4f -> %.4f ms)", joint.accepted,
            joint.evaluated, joint.beforeCycles / clockHz * 1e3, joint.afterCycles / clockHz * 1e3);
        return note;
    }

    /// Ops per layer − the longest increasing run of the order: the fewest take-out-and-reinsert moves
    /// that turn the identity into `order`.
    int movesFromIdentity(const std::vector<int>& order)
    {
        std::vector<int> tails; // patience sorting
        for (int v : order) {
            const auto it = std::lower_bound(tails.begin(), tails.end(), v);
            if (it == tails.end())
                tails.push_back(v);
            else
                *it = v;
        }
        return static_cast<int>(order.size() - tails.size());
    }

    ScheduleResult scheduleFull(const ScheduleProblem& problem, const Allocator& allocator,
        detail::BackwardScheduler& scheduler, RunControl& control, int threads)
    {
        const LayerOrders orders = generateLayerOrders(problem, allocator, PreloadOrderOptions {}, control);
        if (orders.stopped)
            return failure("stopped");
        detail::BackwardOptions options;
        options.maxOverlap = overlapBound(problem);
        // Elk-Dyn's joint allocation (on the identity order) holds for every order tried.
        const JointAllocation joint = jointAllocation(problem, allocator, scheduler, options, control);
        if (control.stopRequested())
            return failure("stopped");
        options.preloadCap = &joint.caps;
        // The few best orders (analytically), and the identity's schedule, kept as finalists.
        constexpr std::size_t kFinalists = 3;
        std::vector<std::pair<double, std::size_t>> ranked; // (latency, order index), ascending
        std::vector<Schedule> kept;
        std::optional<Schedule> identity;
        // Every order's analytic latency; NaN where an order does not schedule.
        const std::size_t count = orders.orders.size();
        const std::vector<double> orderLatency = latenciesOf(
            problem, allocator, count, threads, control,
            [&](std::size_t o, std::vector<int>& order) {
                order = expandLayerOrder(problem, orders.orders[o]);
                detail::BackwardOptions mine = options;
                mine.preloadOrder = &order;
                return mine;
            },
            "elk-full orders");
        if (control.stopRequested())
            return failure("stopped");
        std::vector<int> order;
        const auto scheduleOrder = [&](std::size_t o) {
            order = expandLayerOrder(problem, orders.orders[o]);
            options.preloadOrder = &order;
            return scheduler.run(options);
        };
        if (std::isnan(orderLatency[0])) { // the identity order is Elk-Dyn: an op that does not fit at all
            scheduleOrder(0);
            return failure(fitError(problem, allocator, scheduler.failedStep()));
        }
        std::vector<double> latencies;
        std::vector<int> validBefore(count, 0); ///< by order: its index in `latencies`
        for (std::size_t o = 0; o < count; ++o) {
            const double latency = orderLatency[o];
            if (std::isnan(latency))
                continue;
            validBefore[o] = int(latencies.size());
            latencies.push_back(latency);
            // Strictly better only: ties keep the earlier order (the identity first).
            std::size_t at = 0;
            while (at < ranked.size() && ranked[at].first <= latency)
                ++at;
            if (at < kFinalists) {
                ranked.insert(ranked.begin() + static_cast<std::ptrdiff_t>(at), { latency, o });
                if (ranked.size() > kFinalists)
                    ranked.pop_back();
            }
        }
        // The kept orders' schedules (the scheduler is deterministic: the same latencies again).
        for (const auto& r : ranked) {
            scheduleOrder(r.second);
            kept.push_back(scheduler.toSchedule(Design::ElkFull));
        }
        scheduleOrder(0);
        identity = scheduler.toSchedule(Design::ElkFull);
        OrderSearch search;
        search.prefixesVisited = orders.nodesVisited;
        search.validOrders = static_cast<std::int64_t>(latencies.size());
        search.movableOps = static_cast<int>(orders.movable.size());
        search.truncated = orders.truncated;
        std::vector<double> sorted = latencies;
        std::sort(sorted.begin(), sorted.end());
        search.minCycles = sorted.front();
        search.maxCycles = sorted.back();
        search.medianCycles = sorted.size() % 2 ? sorted[sorted.size() / 2]
                                                : 0.5 * (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]);
        search.orderLatencyCycles = latencies;
        ScheduleResult result;
        for (std::size_t k = 0; k < kept.size(); ++k) {
            Schedule& s = kept[k];
            const std::size_t o = ranked[k].second;
            s.ordersTried = static_cast<std::int64_t>(orders.orders.size());
            s.orders = search;
            s.orders.movesFromIdentity = movesFromIdentity(orders.orders[o]);
            // Orders that did not schedule are not in the latencies: count the ones before o that did.
            s.orders.chosenOrder = validBefore[o];
            char note[200];
            std::snprintf(note, sizeof note, "order %zu of %zu valid%s; %zu reordered ops per layer, %d moved", o,
                orders.orders.size(), orders.truncated ? " (search budget reached)" : "", orders.movable.size(),
                s.orders.movesFromIdentity);
            s.note = std::string(note) + "; " + jointNote(joint, problem.clockHz);
        }
        if (joint.accepted > 0) {
            detail::BackwardOptions plain = options;
            plain.preloadCap = nullptr;
            std::vector<int> identityOrder = expandLayerOrder(problem, orders.orders.front());
            plain.preloadOrder = &identityOrder;
            if (scheduler.run(plain)) {
                kept.push_back(scheduler.toSchedule(Design::ElkFull));
                kept.back().orders = search;
                kept.back().ordersTried = static_cast<std::int64_t>(orders.orders.size());
                kept.back().note = "identity order without the joint allocation's memory-saving preload plans";
            }
        }
        if (ranked.front().second != 0) {
            identity->ordersTried = static_cast<std::int64_t>(orders.orders.size());
            identity->orders = search;
            identity->note = "identity order (elk-dyn's) of " + std::to_string(orders.orders.size()) + " valid";
            bool identityKept = false;
            for (const auto& r : ranked)
                identityKept = identityKept || r.second == 0;
            if (!identityKept)
                kept.push_back(*identity);
        }
        result.schedule = kept.front();
        result.finalists = std::move(kept);
        return result;
    }

    // Ideal — a true lower bound. Full SRAM for every op, unlimited preload space, preloads serialised
    // in execution order at L(e) = max(Lh, preload bytes of entry e ÷ κ) (θ = 1), nothing contends, and
    // everything starts as early as possible: with entry e_i for op i, preload i ends at
    // P_i = P_{i−1} + L(e_i) and execution i at E_i = max(E_{i−1}, P_i) + T(e_i).
    // Why it is a bound: any other schedule, with its own entries d_i, runs its preloads one at a time
    // from time >= 0, each at least L(d_i) (θ <= 1, its preloads may only be slowed), in any order; all
    // preloads of ops 0..i end before execution i starts, so execution i ends no earlier than the chain
    // above with the same entries d_i. The chain's entries are chosen to minimise E_n exactly: a
    // dynamic programme over (P, E) states, keeping only states no other state beats in both. The
    // program then uses exactly those entries, i.e. the layouts the bound assumed.
    ScheduleResult scheduleIdeal(const ScheduleProblem& problem, RunControl& control)
    {
        struct State {
            double preloadEnd = 0, executeEnd = 0;
            std::uint32_t previous = 0; ///< state of the step before
            std::uint32_t entry = 0;
        };
        // Work bound: far above what the tables give on the bundled workloads; beyond it the front is
        // thinned evenly (its two ends kept) and the note says the search was not exact.
        constexpr std::size_t kMaxStates = 2048;
        const std::size_t n = problem.steps.size();
        // Per plan set, the entries no other entry beats in both preload time and execution time (a
        // dominated entry never gives a shorter chain).
        struct Choice {
            double load = 0, execute = 0;
            std::uint32_t entry = 0;
        };
        std::vector<std::vector<Choice>> choicesOf(problem.planSets.size());
        std::vector<char> built(problem.planSets.size(), 0);
        const auto choices = [&](std::uint32_t set) -> const std::vector<Choice>& {
            if (built[set])
                return choicesOf[set];
            built[set] = 1;
            const partition::OpPlans& plans = *problem.planSets[set];
            std::vector<Choice> all;
            for (std::size_t e = 0; e < plans.table.size(); ++e) {
                const auto& pe = plans.table[e];
                if (pe.executeBytes > problem.sramBytesPerCore)
                    continue;
                double load = 0;
                if (plans.hbmBytes > 0) {
                    const double noc = preloadTime(problem, plans.hbmBytes, pe.preloadBytes).nocCycles;
                    load = std::max(static_cast<double>(plans.hbmBytes) / problem.hbmBytesPerCycle, noc);
                }
                all.push_back({ load, pe.totalCycles, static_cast<std::uint32_t>(e) });
            }
            std::stable_sort(all.begin(), all.end(), [](const Choice& a, const Choice& b) {
                return a.load != b.load ? a.load < b.load : a.execute < b.execute;
            });
            for (const Choice& c : all) {
                if (choicesOf[set].empty() || c.execute < choicesOf[set].back().execute)
                    choicesOf[set].push_back(c);
            }
            return choicesOf[set];
        };
        std::vector<std::vector<State>> fronts(n);
        std::vector<State> candidates;
        bool truncated = false;
        std::vector<State> front { State {} };
        for (std::size_t i = 0; i < n; ++i) {
            if ((i & 63) == 0 && control.stopRequested())
                return failure("stopped");
            const Step& step = problem.steps[i];
            const std::vector<Choice>& options = choices(step.planSet);
            if (options.empty())
                return failure("op '" + step.name + "' (step " + std::to_string(i) + ") does not fit the SRAM ("
                    + std::to_string(problem.sramBytesPerCore) + " bytes per core) even alone");
            candidates.clear();
            for (const Choice& c : options) {
                for (std::size_t k = 0; k < front.size(); ++k) {
                    const double preloadEnd = front[k].preloadEnd + c.load;
                    const double executeEnd = std::max(front[k].executeEnd, preloadEnd) + c.execute;
                    candidates.push_back({ preloadEnd, executeEnd, static_cast<std::uint32_t>(k), c.entry });
                }
            }
            // Non-dominated states: ascending preload end, strictly descending execute end.
            std::stable_sort(candidates.begin(), candidates.end(), [](const State& a, const State& b) {
                return a.preloadEnd != b.preloadEnd ? a.preloadEnd < b.preloadEnd : a.executeEnd < b.executeEnd;
            });
            front.clear();
            for (const State& c : candidates) {
                if (front.empty() || c.executeEnd < front.back().executeEnd)
                    front.push_back(c);
            }
            if (front.size() > kMaxStates) {
                truncated = true;
                std::vector<State> thinned;
                thinned.reserve(kMaxStates);
                for (std::size_t k = 0; k < kMaxStates; ++k)
                    thinned.push_back(front[k * (front.size() - 1) / (kMaxStates - 1)]);
                front = std::move(thinned);
            }
            fronts[i] = front;
        }
        // The best final state, then back through the steps.
        std::size_t best = 0;
        for (std::size_t k = 1; k < front.size(); ++k) {
            if (front[k].executeEnd < front[best].executeEnd)
                best = k;
        }
        std::vector<std::uint32_t> entries(n);
        for (std::size_t i = n; i-- > 0;) {
            entries[i] = fronts[i][best].entry;
            best = fronts[i][best].previous;
        }

        Schedule schedule;
        schedule.design = Design::Ideal;
        schedule.steps.resize(n);
        schedule.preloadOrder.resize(n);
        double preloadCursor = 0;
        double executeCursor = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const partition::OpPlans& plans = *problem.planSets[problem.steps[i].planSet];
            const auto& pe = plans.table[entries[i]];
            double load = 0, noc = 0;
            if (plans.hbmBytes > 0) {
                noc = preloadTime(problem, plans.hbmBytes, pe.preloadBytes).nocCycles;
                load = std::max(static_cast<double>(plans.hbmBytes) / problem.hbmBytesPerCycle, noc);
            }
            StepSchedule& s = schedule.steps[i];
            s.tableEntry = entries[i];
            s.preloadBytes = pe.preloadBytes;
            s.executeBytes = pe.executeBytes;
            s.preload = { preloadCursor, preloadCursor + load };
            preloadCursor += load;
            const double start = std::max(executeCursor, s.preload.endCycles);
            s.execute = { start, start + pe.totalCycles };
            executeCursor = s.execute.endCycles;
            const auto& cost = plans.costs[pe.executePlan];
            s.computeCycles = cost.computeCycles;
            s.commCycles = cost.commCycles();
            s.warmupCycles = pe.warmupCycles;
            s.nocIdleCycles = load - noc;
            s.preloadPosition = static_cast<int>(i);
            schedule.preloadOrder[i] = static_cast<int>(i);
        }
        schedule.latencyCycles = executeCursor;
        schedule.sramPeakBytesPerCore = detail::sramPeakBytesPerCore(problem, schedule);
        schedule.note = truncated ? "unlimited preload space; no contention; entry search bounded (not exact)"
                                  : "unlimited preload space; no contention";
        ScheduleResult result;
        result.schedule = std::move(schedule);
        return result;
    }

    ScheduleResult scheduleDyn(const ScheduleProblem& problem, const Allocator& allocator,
        detail::BackwardScheduler& scheduler, RunControl& control)
    {
        detail::BackwardOptions options;
        options.maxOverlap = overlapBound(problem);
        const JointAllocation joint = jointAllocation(problem, allocator, scheduler, options, control);
        if (control.stopRequested())
            return failure("stopped");
        options.preloadCap = &joint.caps;
        ScheduleResult result = runBackward(problem, allocator, scheduler, options, Design::ElkDyn);
        if (result.schedule)
            result.schedule->note = jointNote(joint, problem.clockHz);
        if (result.schedule && joint.accepted > 0) {
            // The schedule without the memory-saving moves, for a caller that confirms them on the
            // simulator (their distribution traffic is where the analytic model is least exact).
            options.preloadCap = nullptr;
            if (scheduler.run(options)) {
                result.finalists = { *result.schedule, scheduler.toSchedule(Design::ElkDyn) };
                result.finalists.back().note = "without the joint allocation's memory-saving preload plans";
            }
        }
        return result;
    }

} // namespace

ScheduleResult scheduleDesign(const ScheduleProblem& problem, Design design, RunControl& control, int threads)
{
    if (const std::string error = problemError(problem); !error.empty())
        return failure(error);
    if (control.stopRequested())
        return failure("stopped");
    if (design == Design::Ideal)
        return scheduleIdeal(problem, control);
    const Allocator allocator(problem);
    detail::BackwardScheduler scheduler(problem, allocator);
    switch (design) {
    case Design::Basic:
        return scheduleBasic(problem, allocator, scheduler);
    case Design::Static:
        return scheduleStatic(problem, allocator, scheduler, control, threads);
    case Design::ElkDyn:
    case Design::ElkFull: {
        ScheduleResult result = design == Design::ElkDyn
            ? scheduleDyn(problem, allocator, scheduler, control)
            : scheduleFull(problem, allocator, scheduler, control, threads);
        // Their preload space is whatever the executing op leaves (elk-design.md §4).
        if (result.schedule)
            result.schedule->earlyPreloadRoomBytesPerCore = problem.sramBytesPerCore;
        for (Schedule& finalist : result.finalists)
            finalist.earlyPreloadRoomBytesPerCore = problem.sramBytesPerCore;
        return result;
    }
    case Design::Ideal:
        break;
    }
    return failure("unknown design");
}

} // namespace elk::schedule
