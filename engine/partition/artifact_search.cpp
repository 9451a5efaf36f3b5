// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/partition/artifact_search.h"

#include "engine/cost/ipu_mk2_cost.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <set>

namespace elk::partition::artifact {
namespace {

    using i64 = std::int64_t;

    i64 ceilDiv(i64 a, i64 b)
    {
        return (a + b - 1) / b;
    }

    /// Smallest step of the REDUCE output ladder (1, 2, 4, 8, 12, 16, 24, then multiples of 48) that is
    /// >= value; value may be fractional (the artifact divides the output by its replicas).
    double reduceLadder(double value)
    {
        for (double step : { 1.0, 2.0, 4.0, 8.0, 12.0, 16.0, 24.0 }) {
            if (value <= step)
                return step;
        }
        return std::ceil(value / 48.0) * 48.0;
    }

    double reduceFormula(double x)
    {
        return x <= 480 ? std::min(295.25, 1.5 * x + 175.0) : 0.25 * x + 175.0;
    }

    struct PlanEval {
        i64 hotBytes = 0;
        i64 coldBytes = 0;
        double comp = 0, comm = 0;
        double exe() const { return comp + comm; }
    };

    struct ParetoSlot {
        PlanEval eval;
        std::vector<std::int32_t> spatial;
        std::vector<std::int32_t> temporal; ///< [d * V + v]
    };

    class Search {
    public:
        Search(const Expr& expr, const SearchSettings& settings, RunControl& control)
            : m_expr(expr)
            , m_settings(settings)
            , m_control(control)
            , m_dims(int(expr.dims.size()))
            , m_tensors(int(expr.tensors.size()))
        {
        }

        ExprPlans run();

    private:
        bool prepare(std::string& error);
        void spatialLevel(int d, i64 prod);
        /// Builds the per-level rotation candidate lists of the current spatial split (§2.4 steps 1–4).
        void buildTemporalLists();
        void temporalLevel(int d);
        bool evaluate(PlanEval& eval);
        double tileCycles() const;
        void onPlan(const PlanEval& eval);

        const Expr& m_expr;
        const SearchSettings& m_settings;
        RunControl& m_control;
        int m_dims;
        int m_tensors;
        std::vector<char> m_uses; ///< [d * V + v]
        std::vector<char> m_fromHbm; ///< [v]
        double m_utilization = 0, m_padding = 0;
        int m_matmulM = -1, m_matmulK = -1, m_matmulN = -1;
        std::vector<double> m_suffixCores; ///< [d]: product over j > d of min(C, dims[j])

        // Current plan.
        std::vector<std::int32_t> m_spatial;
        std::vector<i64> m_tile;
        std::vector<i64> m_replicas;
        std::vector<std::vector<std::int32_t>> m_levelLists; ///< [level]: vectors of V factors, flattened
        std::vector<std::int32_t> m_temporal; ///< [d * V + v]
        std::vector<i64> m_prod; ///< [(level) * V + v]: running product of T over levels < level
        std::vector<i64> m_iterExtent; ///< [d]
        std::vector<i64> m_elements; ///< [v]: z[v]

        // Results.
        ExprPlans m_result;
        std::map<i64, ParetoSlot> m_bestByHot;
        std::set<i64> m_coldSizes;
        bool m_stopped = false;
        // Pass 2 (table): the hot plan being paired, or null in pass 1.
        const ParetoSlot* m_hot = nullptr;
        std::map<std::pair<i64, i64>, TableEntry>* m_table = nullptr;
    };

    bool Search::prepare(std::string& error)
    {
        const auto D = std::size_t(m_dims);
        const auto V = std::size_t(m_tensors);
        if (D == 0 || V < 2) {
            error = "an operator needs loop dimensions and at least one input";
            return false;
        }
        if (m_expr.onchip.size() + 1 != V) {
            error = "one on-chip flag per input expected";
            return false;
        }
        m_uses.assign(D * V, 0);
        for (std::size_t v = 0; v < V; ++v) {
            for (const auto& axis : m_expr.tensors[v]) {
                if (axis.empty() || axis.size() > 2) {
                    error = "tensor " + std::to_string(v) + " has an axis of " + std::to_string(axis.size())
                        + " loop dims (1, or 2 for a sliding window, expected)";
                    return false;
                }
                for (int d : axis) {
                    if (d < 0 || std::size_t(d) >= D) {
                        error = "tensor " + std::to_string(v) + " names loop dim " + std::to_string(d) + " of "
                            + std::to_string(D);
                        return false;
                    }
                    m_uses[std::size_t(d) * V + v] = 1;
                }
            }
        }
        for (i64 extent : m_expr.dims) {
            if (extent < 1) {
                error = "loop extent " + std::to_string(extent) + " must be >= 1";
                return false;
            }
        }
        m_fromHbm.assign(V, 0);
        for (std::size_t v = 1; v < V; ++v)
            m_fromHbm[v] = m_expr.onchip[v - 1] ? 0 : 1;

        // Thresholds (§2.2).
        const double cores = double(m_settings.cores);
        double iterations = 1;
        i64 largest = 1;
        for (i64 extent : m_expr.dims) {
            iterations *= double(extent);
            largest = std::max(largest, extent);
        }
        const double maxi = double(largest) * double(D) / 220.0;
        const bool gather = m_expr.type == OpType::Gather;
        const double factor = gather ? 0.951 : (m_settings.training ? 0.999 : 0.9);
        m_utilization = factor * std::min(iterations / (iterations + 2 * cores), maxi);
        m_padding = gather ? 0.951 : 0.9 * std::min(iterations / (iterations + cores), maxi);

        if (m_expr.type == OpType::MatMul) {
            // k: shared by both inputs' last two axes, absent from the output's last two; m, n: the others.
            auto lastTwo = [&](std::size_t v) {
                std::vector<int> dims;
                const auto& axes = m_expr.tensors[v];
                for (std::size_t a = axes.size() >= 2 ? axes.size() - 2 : 0; a < axes.size(); ++a)
                    dims.push_back(axes[a][0]);
                return dims;
            };
            if (V < 3) {
                error = "a matmul needs two inputs";
                return false;
            }
            const auto out = lastTwo(0), a = lastTwo(1), b = lastTwo(2);
            for (int d : a) {
                if (std::count(b.begin(), b.end(), d) && !std::count(out.begin(), out.end(), d))
                    m_matmulK = d;
            }
            for (int d : a) {
                if (d != m_matmulK)
                    m_matmulM = d;
            }
            for (int d : b) {
                if (d != m_matmulK)
                    m_matmulN = d;
            }
            if (m_matmulK < 0 || m_matmulM < 0 || m_matmulN < 0) {
                error = "matmul without a reduction index shared by both inputs' last two axes";
                return false;
            }
        }
        m_suffixCores.assign(D, 1.0);
        for (std::size_t d = D; d-- > 1;)
            m_suffixCores[d - 1] = m_suffixCores[d] * double(std::min(m_settings.cores, m_expr.dims[d]));
        m_spatial.assign(D, 1);
        m_tile.assign(D, 1);
        m_replicas.assign(V, 1);
        m_levelLists.assign(D, {});
        m_temporal.assign(D * V, 1);
        m_prod.assign((D + 1) * V, 1);
        m_iterExtent.assign(D, 1);
        m_elements.assign(V, 1);
        return true;
    }

    void Search::spatialLevel(int d, i64 prod)
    {
        if (m_stopped)
            return;
        const auto D = m_dims;
        if (d == D) {
            ++m_result.spatialLeaves;
            if ((m_result.spatialLeaves & 1023) == 0 && m_control.stopRequested()) {
                m_stopped = true;
                return;
            }
            // Valid split (§2.3): enough cores used, little padding.
            if (double(prod) / double(m_settings.cores) < m_utilization)
                return;
            double padding = 1;
            for (int j = 0; j < D; ++j) {
                m_tile[std::size_t(j)] = ceilDiv(m_expr.dims[std::size_t(j)], m_spatial[std::size_t(j)]);
                padding
                    *= double(m_expr.dims[std::size_t(j)]) / double(m_tile[std::size_t(j)] * m_spatial[std::size_t(j)]);
            }
            if (padding < m_padding)
                return;
            buildTemporalLists();
            temporalLevel(0);
            return;
        }
        const i64 hi = std::min(m_settings.cores, m_expr.dims[std::size_t(d)]);
        const double want = double(m_settings.cores) * m_utilization / double(prod) / m_suffixCores[std::size_t(d)];
        const i64 lo = std::clamp<i64>(i64(std::floor(want)), 1, hi);
        for (i64 s = lo; s <= hi; ++s) {
            if (prod * s > m_settings.cores)
                break;
            m_spatial[std::size_t(d)] = std::int32_t(s);
            spatialLevel(d + 1, prod * s);
        }
    }

    void Search::buildTemporalLists()
    {
        const auto D = std::size_t(m_dims);
        const auto V = std::size_t(m_tensors);
        std::vector<std::vector<i64>> divisors(V);
        for (std::size_t v = 0; v < V; ++v) {
            i64 r = 1;
            for (std::size_t d = 0; d < D; ++d) {
                if (!m_uses[d * V + v])
                    r *= m_spatial[d];
            }
            m_replicas[v] = r;
            for (i64 x = 1; x <= r; ++x) {
                if (r % x == 0)
                    divisors[v].push_back(x);
            }
        }
        // Per dimension: the Cartesian product of the divisor lists in order (tensor 0 most significant),
        // kept when factors > 1 sit on tensors using d, form a divisibility chain, fit the tile and pad
        // little (§2.4 steps 2–3). Generated directly in that lexicographic order.
        std::vector<std::vector<std::int32_t>> lists(D);
        std::vector<std::int32_t> work(V, 1);
        for (std::size_t d = 0; d < D; ++d) {
            const i64 tile = m_tile[d];
            auto extend = [&](auto&& self, std::size_t v) -> void {
                if (v == V) {
                    i64 largest = 1;
                    for (std::int32_t f : work)
                        largest = std::max<i64>(largest, f);
                    for (std::size_t a = 0; a < V; ++a) {
                        for (std::size_t b = 0; b < V; ++b) {
                            if (work[a] > 1 && work[b] > 1 && work[b] % work[a] != 0 && work[a] % work[b] != 0)
                                return;
                        }
                    }
                    const double pad = double(tile) / double(largest * ceilDiv(tile, largest));
                    if (pad < m_padding)
                        return;
                    lists[d].insert(lists[d].end(), work.begin(), work.end());
                    return;
                }
                for (i64 x : divisors[v]) {
                    if (x > 1 && (!m_uses[d * V + v] || x > tile))
                        break; // ascending: every later divisor fails too
                    work[v] = std::int32_t(x);
                    self(self, v + 1);
                }
                work[v] = 1;
            };
            extend(extend, 0);
        }
        std::vector<std::size_t> order(D);
        std::iota(order.begin(), order.end(), 0);
        if (m_settings.scrambledTemporal) {
            // The artifact sorts the list of per-dimension lists; equal-width tuples compare like their
            // flattened sequences.
            std::stable_sort(
                order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return lists[a] < lists[b]; });
        }
        for (std::size_t level = 0; level < D; ++level)
            m_levelLists[level] = lists[order[level]];
    }

    void Search::temporalLevel(int d)
    {
        const auto D = std::size_t(m_dims);
        const auto V = std::size_t(m_tensors);
        const auto level = std::size_t(d);
        if (level == D) {
            for (std::size_t v = 0; v < V; ++v) {
                if (m_replicas[v] % m_prod[D * V + v] != 0)
                    return;
            }
            double padding = 1;
            for (std::size_t j = 0; j < D; ++j) {
                std::int32_t largest = 1;
                for (std::size_t v = 0; v < V; ++v)
                    largest = std::max(largest, m_temporal[j * V + v]);
                m_iterExtent[j] = ceilDiv(m_tile[j], largest);
                padding *= double(m_tile[j]) / double(m_iterExtent[j] * largest);
            }
            if (padding < m_padding)
                return;
            PlanEval eval;
            if (evaluate(eval))
                onPlan(eval);
            return;
        }
        const auto& list = m_levelLists[level];
        const i64* prod = m_prod.data() + level * V;
        i64* next = m_prod.data() + (level + 1) * V;
        for (std::size_t j = 0; j < list.size(); j += V) {
            bool fits = true;
            for (std::size_t v = 0; v < V && fits; ++v)
                fits = prod[v] * list[j + v] <= m_replicas[v];
            if (!fits)
                continue;
            for (std::size_t v = 0; v < V; ++v) {
                m_temporal[level * V + v] = list[j + v];
                next[v] = prod[v] * list[j + v];
            }
            temporalLevel(d + 1);
        }
    }

    double Search::tileCycles() const
    {
        const auto D = std::size_t(m_dims);
        double pe = 1;
        for (i64 e : m_iterExtent)
            pe *= double(e);
        auto outputElements = [&] {
            double o = 1;
            for (const auto& axis : m_expr.tensors[0])
                o *= double(m_iterExtent[std::size_t(axis[0])]);
            return o;
        };
        switch (m_expr.type) {
        case OpType::MatMul: {
            i64 batch = 1;
            for (std::size_t d = 0; d + 3 < D; ++d)
                batch *= m_iterExtent[d];
            return cost::ipuMatmulCycles(batch, m_iterExtent[std::size_t(m_matmulM)],
                m_iterExtent[std::size_t(m_matmulK)], m_iterExtent[std::size_t(m_matmulN)],
                int(m_settings.bytesPerElement));
        }
        case OpType::Element:
            return cost::ipuElementCycles(pe);
        case OpType::Unary:
            return cost::ipuUnaryCycles(pe);
        case OpType::Reduce: {
            const double o = outputElements();
            return reduceFormula(reduceLadder(o) * (pe / o));
        }
        case OpType::Gather: {
            double index = 1;
            if (m_expr.tensors.size() > 2) {
                for (const auto& axis : m_expr.tensors[2])
                    index *= double(m_iterExtent[std::size_t(axis[0])]);
            }
            return 300.0 + std::ceil(pe / index / 2.0) * index + index;
        }
        case OpType::Slice:
            return outputElements() * double(m_settings.bytesPerElement) / 2.0 * m_settings.shiftCyclesPerElement
                + m_settings.syncCycles;
        case OpType::Conv: {
            // Departure from the artifact: its conv cost is a linear model tree fitted to 269 IPU samples
            // that are not available to us; it is capped by min(prediction, 0.0495·flops + 2030), and that
            // cap is used here (an upper bound of the artifact's value). Dims [N, F, C, HO, WO, KH, KW].
            if (D != 7)
                return 0.0495 * pe + 2030;
            const double batch = double(m_iterExtent[0]), out = double(m_iterExtent[1]), in = double(m_iterExtent[2]);
            const double window = double(m_iterExtent[3] * m_iterExtent[4] * m_iterExtent[5] * m_iterExtent[6]);
            const double flops = batch * std::ceil(in / 8) * 8 * std::ceil(out / 8) * 8 * window;
            return 0.0495 * flops + 2030;
        }
        case OpType::Pool:
            // Departure: the artifact's pool cost is a regression on 55 samples we do not have; every window
            // element is read once, priced as a unary op.
            return cost::ipuUnaryCycles(pe);
        }
        return 0;
    }

    bool Search::evaluate(PlanEval& eval)
    {
        const auto D = std::size_t(m_dims);
        const auto V = std::size_t(m_tensors);
        const double B = double(m_settings.bytesPerElement);
        auto shift = [&](double elements) { return elements * B / 2.0 * m_settings.shiftCyclesPerElement; };
        const double sync = m_settings.syncCycles;
        for (std::size_t v = 0; v < V; ++v) {
            i64 z = 1;
            for (const auto& axis : m_expr.tensors[v]) {
                // A sliding-window axis (HO·s + KH) spans the sum of its parts less the overlap (§2.5).
                i64 extent = 1 - i64(axis.size());
                for (int d : axis)
                    extent += ceilDiv(m_tile[std::size_t(d)], m_temporal[std::size_t(d) * V + v]);
                z *= std::max<i64>(1, extent);
            }
            m_elements[v] = z;
            bool rotated = false;
            for (std::size_t d = 0; d < D; ++d)
                rotated = rotated || m_temporal[d * V + v] > 1;
            eval.hotBytes += i64(B) * z * (rotated ? 2 : 1);
            if (m_fromHbm[v])
                eval.coldBytes += i64(B) * z;
        }
        // Iterations: the product of each dim's largest rotation factor.
        i64 iterations = 1;
        for (std::size_t d = 0; d < D; ++d) {
            std::int32_t largest = 1;
            for (std::size_t v = 0; v < V; ++v)
                largest = std::max(largest, m_temporal[d * V + v]);
            iterations *= largest;
        }
        eval.comp = double(iterations) * tileCycles();

        // Shift rounds (§2.5): per dim, peel off the gcd of the factors > 1 until none is left.
        struct Round {
            i64 shifts = 0;
            i64 tensors = 0;
            double elements = 0;
        };
        std::vector<Round> rounds;
        std::vector<std::int32_t> row(V);
        for (std::size_t d = 0; d < D; ++d) {
            std::copy(m_temporal.begin() + std::ptrdiff_t(d * V), m_temporal.begin() + std::ptrdiff_t((d + 1) * V),
                row.begin());
            for (;;) {
                std::int32_t g = 0;
                for (std::int32_t f : row) {
                    if (f > 1)
                        g = std::gcd(g, f);
                }
                if (g == 0)
                    break;
                if (g == 1)
                    return false; // no common rotation ring: the artifact rejects the plan
                Round round;
                round.shifts = g - 1;
                for (std::size_t v = 0; v < V; ++v) {
                    if (row[v] > 1) {
                        round.elements += double(m_elements[v]);
                        ++round.tensors;
                        row[v] /= g;
                    }
                }
                rounds.push_back(round);
            }
        }
        std::stable_sort(
            rounds.begin(), rounds.end(), [](const Round& a, const Round& b) { return a.elements > b.elements; });
        double shifted = 0, shiftCount = 0, outer = 1;
        for (const Round& round : rounds) {
            shifted += outer * double(round.shifts) * round.elements;
            shiftCount += outer * double(round.shifts) * double(round.tensors);
            outer *= double(round.shifts + 1);
        }
        double syncShift = sync * 2 * shiftCount + shift(shifted);

        double shuffle = sync;
        const OpType type = m_expr.type;
        if (type != OpType::Element && type != OpType::Unary && type != OpType::Pool) {
            i64 outputRotation = 1;
            for (std::size_t d = 0; d < D; ++d)
                outputRotation *= m_temporal[d * V];
            const double partials = std::round(double(m_replicas[0]) / double(outputRotation));
            double output = 1;
            for (const auto& axis : m_expr.tensors[0])
                output *= double(m_iterExtent[std::size_t(axis[0])]);
            const double perPartial = output / partials;
            double gather = 0, reduce = 0;
            if (partials == 2) {
                gather = 2 * sync + shift(output / 2);
                reduce = cost::ipuElementCycles(perPartial);
            } else if (partials > 2) {
                gather = sync * partials + shift(output);
                reduce = reduceFormula(reduceLadder(perPartial) * partials);
            }
            shuffle = shift(double(m_elements[0])) + 2 * sync + 4 * sync + gather + reduce;
        }
        if (m_settings.cores > m_settings.coresPerChip) {
            syncShift *= m_settings.multiChipFactor;
            shuffle *= m_settings.multiChipFactor;
        }
        eval.comm = syncShift + shuffle;
        return true;
    }

    void Search::onPlan(const PlanEval& eval)
    {
        const i64 memory = m_settings.sramBytesPerCore;
        const auto D = std::size_t(m_dims);
        const auto V = std::size_t(m_tensors);
        if (m_hot == nullptr) {
            ++m_result.plansEvaluated;
            if (eval.coldBytes <= memory)
                m_coldSizes.insert(eval.coldBytes);
            if (eval.hotBytes > memory)
                return;
            auto [it, inserted] = m_bestByHot.try_emplace(eval.hotBytes);
            if (inserted || eval.exe() < it->second.eval.exe())
                it->second = ParetoSlot { eval, m_spatial, m_temporal };
            return;
        }
        // Pass 2: is this plan a compatible preload layout of the hot plan (§2.7)?
        const ParetoSlot& hot = *m_hot;
        if (eval.coldBytes > memory || eval.coldBytes > hot.eval.hotBytes)
            return;
        double moved = 0, syncs = 0;
        for (std::size_t v = 0; v < V; ++v) {
            i64 ratio = 1;
            for (std::size_t d = 0; d < D; ++d) {
                const std::int32_t c = m_temporal[d * V + v], h = hot.temporal[d * V + v];
                if (h > c || c % h != 0)
                    return;
                ratio *= c / h;
            }
            if (ratio == 1)
                continue;
            if (v >= 1)
                moved += double(ratio) * double(m_elements[v]);
            syncs += double(ratio);
        }
        const double warmup = moved * double(m_settings.bytesPerElement) / 2.0 * m_settings.shiftCyclesPerElement
            + m_settings.syncCycles * syncs;
        const double total = hot.eval.exe() + warmup;
        auto [it, inserted] = m_table->try_emplace({ eval.coldBytes, hot.eval.hotBytes });
        if (inserted || total < it->second.totalCycles)
            it->second = TableEntry { eval.coldBytes, hot.eval.hotBytes, total, hot.eval.comp, hot.eval.comm };
    }

    ExprPlans Search::run()
    {
        std::string error;
        if (!prepare(error)) {
            m_result.error = error;
            return m_result;
        }
        spatialLevel(0, 1);
        if (m_stopped) {
            m_result.error = "stopped";
            return m_result;
        }
        // Execute-state Pareto front (§2.6): ascending size, strictly faster.
        std::vector<const ParetoSlot*> pareto;
        for (const auto& [bytes, slot] : m_bestByHot) {
            if (pareto.empty() || slot.eval.exe() < pareto.back()->eval.exe())
                pareto.push_back(&slot);
        }
        m_result.paretoPlans = int(pareto.size());
        m_result.coldSizes = int(m_coldSizes.size());
        if (pareto.empty()) {
            m_result.error
                = "no partition plan fits " + std::to_string(m_settings.sramBytesPerCore) + " bytes per core";
            return m_result;
        }
        // Cold→hot table: compatible pairs share the spatial split, so walk each hot plan's split again.
        std::map<std::pair<i64, i64>, TableEntry> table;
        m_table = &table;
        for (const ParetoSlot* hot : pareto) {
            m_hot = hot;
            m_spatial = hot->spatial;
            for (std::size_t d = 0; d < std::size_t(m_dims); ++d)
                m_tile[d] = ceilDiv(m_expr.dims[d], m_spatial[d]);
            buildTemporalLists();
            temporalLevel(0);
        }
        for (const auto& [key, entry] : table)
            m_result.table.push_back(entry);
        if (m_result.table.empty())
            m_result.error = "no preload layout is compatible with any execute plan";
        return m_result;
    }

} // namespace

ExprPlans searchExpr(const Expr& expr, const SearchSettings& settings, RunControl& control)
{
    return Search(expr, settings, control).run();
}

std::shared_ptr<const ExprPlans> searchExprShared(const Expr& expr, const SearchSettings& settings, RunControl& control)
{
    // Bounded: a reproduction touches a few hundred expressions per chip; past the bound the memo
    // starts over rather than growing with every study of a long session.
    constexpr std::size_t kMaxEntries = 8192;
    static std::mutex mutex;
    static std::map<std::pair<SearchSettings, Expr>, std::shared_ptr<const ExprPlans>> memo;
    auto key = std::make_pair(settings, expr);
    {
        const std::lock_guard lock(mutex);
        if (const auto it = memo.find(key); it != memo.end())
            return it->second;
    }
    auto plans = std::make_shared<const ExprPlans>(searchExpr(expr, settings, control));
    if (control.stopRequested())
        return plans;
    const std::lock_guard lock(mutex);
    if (memo.size() >= kMaxEntries)
        memo.clear();
    return memo.emplace(std::move(key), plans).first->second;
}

} // namespace elk::partition::artifact
