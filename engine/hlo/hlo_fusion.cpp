// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Greedy XLA-like fusion in one pass over the program (hlo-design §3).
//
// Rules, in program order:
// - A loop op (elementwise, convert, broadcast, iota, transpose, slice, pad, concatenate, reverse)
//   joins the kernel of one of its producers: a loop kernel; a reduce kernel, as a sibling, when it
//   does not read that kernel's reduction results (no consumer of a reduce joins its kernel); or a
//   dot/convolution kernel (output fusion) when every value it reads there has no other user.
// - A reduction (reduce, reduce_window) joins a producing loop kernel as its root (input fusion),
//   or starts a kernel; the kernel is then a reduce kernel.
// - A dot/convolution starts its own kernel and absorbs producing kernels made only of layout or
//   conversion ops (convert, transpose, reverse, pad) that nothing else reads.
// - Gather, scatter, sort, dynamic_update_slice, custom calls and unknown ops stay alone.
// - Nothing fuses across a collective (in program order) or across different execution counts.
// Kernels are numbered in creation order and every kernel edge goes from a lower to a higher
// number; a join or absorption that would break that is refused, so the kernel graph stays acyclic.
// A fused kernel charges the bytes of values read from outside it (each once, with the op's own
// read rule, so a slice reads only its slice) and of results used outside it or by nothing.
#include "engine/hlo/hlo_fusion.h"

#include "engine/hlo/hlo_op_costs.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace elk::hlo {

namespace {

    using detail::FusionRole;

    struct Value {
        std::int32_t op = -1;
        std::uint32_t result = 0;
        bool operator<(const Value& other) const { return op != other.op ? op < other.op : result < other.result; }
    };

    struct WorkKernel {
        std::vector<std::uint32_t> ops;
        FusionRole kind = FusionRole::Loop; ///< Loop, Reduction (a reduce kernel), Matrix, Opaque, Collective
        bool layoutOnly = true; ///< every op is a pure layout or conversion op
        std::int64_t epoch = 0;
        double executions = 1;
        std::set<std::uint32_t> inputs, consumers;
        bool alive = true;
    };

    class Fuser {
    public:
        Fuser(const HloProgram& program, const FusionOptions& options)
            : m_program(program)
            , m_options(options)
            , m_kernelOf(program.ops.size(), -1)
        {
        }

        FusionResult run()
        {
            prepare();
            m_mode = resolvedMode();
            std::int64_t epoch = 0;
            std::unordered_map<std::int32_t, std::uint32_t> kernelOfFusion; // XLA fusion instance -> kernel
            for (std::uint32_t i = 0; i < m_program.ops.size(); ++i) {
                const FlatOp& flat = m_program.ops[i];
                if (flat.opClass == OpClass::Free)
                    continue;
                if (flat.opClass == OpClass::Collective) {
                    ++epoch;
                    const std::uint32_t k = newKernel(i, FusionRole::Collective, epoch);
                    linkProducers(i, k);
                    ++epoch;
                    continue;
                }
                if (m_mode == FusionMode::Xla) {
                    // The export's kernels as XLA made them; an op outside any fusion runs alone.
                    const FusionRole role
                        = m_detailOf[i]->role == FusionRole::None ? FusionRole::Opaque : m_detailOf[i]->role;
                    const auto found = flat.xlaFusion >= 0 ? kernelOfFusion.find(flat.xlaFusion) : kernelOfFusion.end();
                    if (found != kernelOfFusion.end() && m_kernels[found->second].executions == flat.executions) {
                        addOp(i, found->second);
                        linkProducers(i, found->second);
                        continue;
                    }
                    const std::uint32_t k = newKernel(i, role, epoch);
                    linkProducers(i, k);
                    if (flat.xlaFusion >= 0)
                        kernelOfFusion[flat.xlaFusion] = k;
                    continue;
                }
                place(i, epoch);
            }
            FusionResult result = finish();
            result.mode = m_mode;
            return result;
        }

        FusionMode resolvedMode() const
        {
            if (!m_options.enabled || m_options.mode == FusionMode::None)
                return FusionMode::None;
            if (m_options.mode != FusionMode::Auto)
                return m_options.mode;
            const bool hasFusions = std::any_of(
                m_program.ops.begin(), m_program.ops.end(), [](const FlatOp& op) { return op.xlaFusion >= 0; });
            return hasFusions ? FusionMode::Xla : FusionMode::Elk;
        }

    private:
        const HloProgram& m_program;
        FusionMode m_mode = FusionMode::Elk;
        const FusionOptions& m_options;
        std::vector<std::int32_t> m_kernelOf; // by FlatOp
        std::vector<WorkKernel> m_kernels; // creation order
        std::map<std::pair<const Op*, double>, detail::OpCostDetail> m_details; ///< by op and sharded share
        std::vector<const detail::OpCostDetail*> m_detailOf; // by FlatOp
        std::vector<std::vector<std::uint32_t>> m_upstream; // by Free FlatOp: costed ops it passes on
        std::vector<std::uint32_t> m_useCount; // by FlatOp: distinct ops reading one of its results
        std::vector<std::uint32_t> m_producers, m_producerStart; // by costed FlatOp: costed producers (CSR)
        std::vector<std::uint32_t> m_resultStart; // by FlatOp: its first slot in per-result arrays

        bool costed(std::uint32_t i) const { return m_program.ops[i].opClass != OpClass::Free; }

        bool isView(std::int32_t i) const
        {
            return i >= 0 && !costed(std::uint32_t(i)) && detail::isViewOp(*m_program.ops[std::size_t(i)].op);
        }

        // The value an operand really is: through reshapes, bitcasts and sharding markers.
        Value resolve(std::uint32_t consumer, std::size_t operand) const
        {
            const FlatOp& flat = m_program.ops[consumer];
            Value v { flat.operandSources[operand], flat.operandResultIndex[operand] };
            while (isView(v.op)) {
                const FlatOp& view = m_program.ops[std::size_t(v.op)];
                if (view.operandSources.empty())
                    break;
                v = Value { view.operandSources[0], view.operandResultIndex[0] };
            }
            return v;
        }

        void prepare()
        {
            const std::size_t n = m_program.ops.size();
            m_detailOf.resize(n);
            m_upstream.resize(n);
            m_useCount.assign(n, 0);
            m_producerStart.assign(n + 1, 0);
            std::vector<std::uint32_t> scratch;
            for (std::uint32_t i = 0; i < n; ++i) {
                const FlatOp& flat = m_program.ops[i];
                auto found = m_details.find({ flat.op, flat.shardShare });
                if (found == m_details.end()) {
                    detail::OpCostDetail costing = detail::costOpDetail(*flat.op, 0);
                    // A sharded op moves its local piece (as its cost already says).
                    for (double& read : costing.operandReads)
                        read *= flat.shardShare;
                    for (double& write : costing.resultWrites)
                        write *= flat.shardShare;
                    found = m_details.emplace(std::pair { flat.op, flat.shardShare }, std::move(costing)).first;
                }
                m_detailOf[i] = &found->second;
                if (!costed(i)) {
                    std::vector<std::uint32_t>& up = m_upstream[i];
                    for (std::uint32_t p : flat.inputs) {
                        if (costed(p))
                            up.push_back(p);
                        else
                            up.insert(up.end(), m_upstream[p].begin(), m_upstream[p].end());
                    }
                    std::sort(up.begin(), up.end());
                    up.erase(std::unique(up.begin(), up.end()), up.end());
                } else {
                    scratch.clear();
                    for (std::uint32_t p : flat.inputs) {
                        if (costed(p))
                            scratch.push_back(p);
                        else
                            scratch.insert(scratch.end(), m_upstream[p].begin(), m_upstream[p].end());
                    }
                    std::sort(scratch.begin(), scratch.end());
                    scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
                    m_producers.insert(m_producers.end(), scratch.begin(), scratch.end());
                }
                m_producerStart[i + 1] = std::uint32_t(m_producers.size());
                if (isView(std::int32_t(i)))
                    continue;
                std::vector<std::int32_t> producers;
                for (std::size_t o = 0; o < flat.operandSources.size(); ++o)
                    if (const Value v = resolve(i, o); v.op >= 0)
                        producers.push_back(v.op);
                std::sort(producers.begin(), producers.end());
                producers.erase(std::unique(producers.begin(), producers.end()), producers.end());
                for (std::int32_t p : producers)
                    ++m_useCount[std::size_t(p)];
            }
        }

        // Costed ops producing op i's operands, directly or through Free ops (computed in prepare).
        std::pair<const std::uint32_t*, const std::uint32_t*> costedProducers(std::uint32_t i) const
        {
            return { m_producers.data() + m_producerStart[i], m_producers.data() + m_producerStart[i + 1] };
        }

        std::vector<std::uint32_t> producerKernels(std::uint32_t i) const
        {
            std::vector<std::uint32_t> out;
            const auto [begin, end] = costedProducers(i);
            for (const std::uint32_t* it = begin; it != end; ++it)
                if (const std::uint32_t p = *it; m_kernelOf[p] >= 0)
                    out.push_back(std::uint32_t(m_kernelOf[p]));
            std::sort(out.begin(), out.end());
            out.erase(std::unique(out.begin(), out.end()), out.end());
            return out;
        }

        std::uint32_t newKernel(std::uint32_t op, FusionRole kind, std::int64_t epoch)
        {
            WorkKernel k;
            k.kind = kind;
            k.epoch = epoch;
            k.executions = m_program.ops[op].executions;
            m_kernels.push_back(std::move(k));
            const auto id = std::uint32_t(m_kernels.size() - 1);
            addOp(op, id);
            return id;
        }

        void addOp(std::uint32_t op, std::uint32_t k)
        {
            m_kernels[k].ops.push_back(op);
            m_kernels[k].layoutOnly = m_kernels[k].layoutOnly && detail::isLayoutOrConversion(*m_program.ops[op].op);
            m_kernelOf[op] = std::int32_t(k);
        }

        void linkProducers(std::uint32_t op, std::uint32_t k)
        {
            for (std::uint32_t p : producerKernels(op))
                if (p != k) {
                    m_kernels[p].consumers.insert(k);
                    m_kernels[k].inputs.insert(p);
                }
        }

        // Whether op i reads, from kernel k, a value that a reduction of k produced.
        bool readsReductionOf(std::uint32_t i, std::uint32_t k) const
        {
            for (std::size_t o = 0; o < m_program.ops[i].operandSources.size(); ++o) {
                const Value v = resolve(i, o);
                if (v.op >= 0 && m_kernelOf[std::size_t(v.op)] == std::int32_t(k)
                    && m_detailOf[std::size_t(v.op)]->role == FusionRole::Reduction)
                    return true;
            }
            return false;
        }

        // Output fusion: every value op i reads from kernel k is read by op i alone.
        bool readsOnlySingleUseValuesOf(std::uint32_t i, std::uint32_t k) const
        {
            for (std::size_t o = 0; o < m_program.ops[i].operandSources.size(); ++o) {
                const Value v = resolve(i, o);
                if (v.op >= 0 && m_kernelOf[std::size_t(v.op)] == std::int32_t(k) && m_useCount[std::size_t(v.op)] != 1)
                    return false;
            }
            return true;
        }

        bool joinable(std::uint32_t i, FusionRole role, std::uint32_t k, std::int64_t epoch) const
        {
            const WorkKernel& kernel = m_kernels[k];
            if (kernel.epoch != epoch || kernel.executions != m_program.ops[i].executions)
                return false;
            switch (kernel.kind) {
            case FusionRole::Loop:
                return role == FusionRole::Loop || role == FusionRole::Reduction;
            case FusionRole::Reduction:
                return (role == FusionRole::Loop || role == FusionRole::Reduction) && !readsReductionOf(i, k);
            case FusionRole::Matrix:
                return role == FusionRole::Loop && readsOnlySingleUseValuesOf(i, k);
            default:
                return false;
            }
        }

        // Whether loop kernel q can merge into kernel t without breaking the low→high edge order;
        // kernels in `together` merge into t as well. Reading t itself is fine for a loop kernel only
        // (a reduce kernel's results must not be consumed inside it, a dot's only by output fusion).
        bool absorbable(
            std::uint32_t q, std::uint32_t t, bool layoutOnly, const std::vector<std::uint32_t>& together) const
        {
            const WorkKernel& kq = m_kernels[q];
            const WorkKernel& kt = m_kernels[t];
            if (q == t || !kq.alive || kq.kind != FusionRole::Loop || kq.epoch != kt.epoch
                || kq.executions != kt.executions || (layoutOnly && !kq.layoutOnly))
                return false;
            auto inTogether = [&together](std::uint32_t k) {
                return std::find(together.begin(), together.end(), k) != together.end();
            };
            for (std::uint32_t in : kq.inputs)
                if (in > t ? !inTogether(in) : (in == t && kt.kind != FusionRole::Loop))
                    return false;
            for (std::uint32_t c : kq.consumers)
                if (c < t && !inTogether(c))
                    return false;
            return true;
        }

        void merge(std::uint32_t q, std::uint32_t t)
        {
            WorkKernel& kq = m_kernels[q];
            WorkKernel& kt = m_kernels[t];
            for (std::uint32_t in : kq.inputs) {
                m_kernels[in].consumers.erase(q);
                if (in != t) {
                    m_kernels[in].consumers.insert(t);
                    kt.inputs.insert(in);
                }
            }
            for (std::uint32_t c : kq.consumers) {
                m_kernels[c].inputs.erase(q);
                if (c != t) {
                    m_kernels[c].inputs.insert(t);
                    kt.consumers.insert(c);
                }
            }
            kt.inputs.erase(q);
            kt.consumers.erase(q);
            for (std::uint32_t op : kq.ops) {
                kt.ops.push_back(op);
                m_kernelOf[op] = std::int32_t(t);
            }
            kt.layoutOnly = kt.layoutOnly && kq.layoutOnly;
            kq.ops.clear();
            kq.inputs.clear();
            kq.consumers.clear();
            kq.alive = false;
        }

        void place(std::uint32_t i, std::int64_t epoch)
        {
            const FusionRole role = m_detailOf[i]->role;
            const std::vector<std::uint32_t> producers = producerKernels(i);
            if (m_mode == FusionMode::None || role == FusionRole::Opaque || role == FusionRole::None) {
                const std::uint32_t k = newKernel(i, role == FusionRole::None ? FusionRole::Opaque : role, epoch);
                linkProducers(i, k);
                return;
            }
            // Candidates: dot/conv kernels first (output fusion), then the latest producer first.
            std::vector<std::uint32_t> candidates;
            for (auto it = producers.rbegin(); it != producers.rend(); ++it)
                if (m_kernels[*it].kind == FusionRole::Matrix && joinable(i, role, *it, epoch))
                    candidates.push_back(*it);
            for (auto it = producers.rbegin(); it != producers.rend(); ++it)
                if (m_kernels[*it].kind != FusionRole::Matrix && joinable(i, role, *it, epoch))
                    candidates.push_back(*it);
            std::optional<std::uint32_t> target;
            std::vector<std::uint32_t> later; // producer kernels after the target: must merge into it
            for (std::uint32_t t : candidates) {
                later.clear();
                for (std::uint32_t q : producers)
                    if (q > t)
                        later.push_back(q);
                bool feasible = true;
                for (std::uint32_t q : later)
                    feasible = feasible && absorbable(q, t, false, later);
                if (feasible) {
                    target = t;
                    break;
                }
            }
            std::uint32_t k = 0;
            if (target) {
                k = *target;
                for (auto it = later.rbegin(); it != later.rend(); ++it)
                    merge(*it, k);
                addOp(i, k);
                if (role == FusionRole::Reduction)
                    m_kernels[k].kind = FusionRole::Reduction;
            } else {
                k = newKernel(i, role, epoch);
            }
            // Producer kernels nothing else reads fold in (broadcasts of parameters, converts of weights).
            const bool layoutOnly = m_kernels[k].kind == FusionRole::Matrix && !target;
            for (auto it = producers.rbegin(); it != producers.rend(); ++it)
                if (*it < k && absorbable(*it, k, layoutOnly, {}))
                    merge(*it, k);
            linkProducers(i, k);
        }

        FusionResult finish()
        {
            FusionResult result;
            std::vector<std::uint32_t> order;
            for (std::uint32_t k = 0; k < m_kernels.size(); ++k)
                if (m_kernels[k].alive && !m_kernels[k].ops.empty()) {
                    std::sort(m_kernels[k].ops.begin(), m_kernels[k].ops.end());
                    order.push_back(k);
                }
            // Creation order: the program order of the op that started each kernel, and a topological
            // order (every edge goes from an earlier to a later kernel).
            std::vector<std::int32_t> finalIndex(m_kernels.size(), -1);
            for (std::size_t n = 0; n < order.size(); ++n)
                finalIndex[order[n]] = std::int32_t(n);
            std::vector<std::int32_t> kernelOfOp(m_program.ops.size(), -1);
            for (std::size_t i = 0; i < m_program.ops.size(); ++i)
                if (m_kernelOf[i] >= 0)
                    kernelOfOp[i] = finalIndex[std::size_t(m_kernelOf[i])];
            const std::vector<char> escapes = escapingResults(kernelOfOp);

            for (std::size_t n = 0; n < order.size(); ++n) {
                const WorkKernel& work = m_kernels[order[n]];
                Kernel kernel;
                kernel.ops = work.ops;
                kernel.opClass = work.kind == FusionRole::Collective ? OpClass::Collective : OpClass::Compute;
                kernel.executions = work.executions;
                double heaviest = -1;
                std::set<std::uint32_t> inputs;
                std::size_t signatureLength = 0;
                for (std::uint32_t op : work.ops)
                    signatureLength += m_program.ops[op].signature.size() + 3;
                kernel.signature.reserve(signatureLength);
                for (std::uint32_t op : work.ops) {
                    const FlatOp& flat = m_program.ops[op];
                    kernel.flops += flat.cost.flops;
                    kernel.transcendentals += flat.cost.transcendentals;
                    kernel.matrixUnit = kernel.matrixUnit || flat.cost.matrixUnit;
                    if (flat.cost.flops > heaviest) {
                        heaviest = flat.cost.flops;
                        kernel.peakType = flat.cost.peakType;
                    }
                    if (!kernel.signature.empty())
                        kernel.signature += " | "; // one line: table CSVs key on it
                    kernel.signature += flat.signature;
                    const auto [begin, end] = costedProducers(op);
                    for (const std::uint32_t* p = begin; p != end; ++p)
                        if (kernelOfOp[*p] >= 0 && kernelOfOp[*p] != std::int32_t(n))
                            inputs.insert(std::uint32_t(kernelOfOp[*p]));
                }
                kernel.inputs.assign(inputs.begin(), inputs.end());
                const bool fused = m_mode != FusionMode::None && kernel.opClass == OpClass::Compute;
                kernel.bytes = fused ? boundaryBytes(work.ops, std::int32_t(n), kernelOfOp, escapes)
                                     : m_program.ops[work.ops.front()].cost.bytes();
                if (kernel.opClass == OpClass::Compute) {
                    result.fusedBytes += kernel.bytes * kernel.executions;
                    if (kernel.ops.size() > 1)
                        result.fusedOpCount += std::int64_t(kernel.ops.size());
                }
                result.kernels.push_back(std::move(kernel));
            }
            for (const FlatOp& flat : m_program.ops)
                if (flat.opClass == OpClass::Compute)
                    result.unfusedBytes += flat.cost.bytes() * flat.executions;
            return result;
        }

        // By FlatOp and result (m_resultStart offsets): written to memory, i.e. used outside its kernel
        // or by nothing at all.
        std::vector<char> escapingResults(const std::vector<std::int32_t>& kernelOfOp)
        {
            m_resultStart.assign(m_program.ops.size() + 1, 0);
            for (std::size_t i = 0; i < m_program.ops.size(); ++i)
                m_resultStart[i + 1] = m_resultStart[i] + std::uint32_t(m_program.ops[i].op->results.size());
            std::vector<char> used(m_resultStart.back(), 0), external(m_resultStart.back(), 0);
            for (std::uint32_t c = 0; c < m_program.ops.size(); ++c) {
                if (isView(std::int32_t(c)))
                    continue;
                for (std::size_t o = 0; o < m_program.ops[c].operandSources.size(); ++o) {
                    const Value v = resolve(c, o);
                    if (v.op < 0)
                        continue;
                    const std::size_t slot = m_resultStart[std::size_t(v.op)] + v.result;
                    if (slot >= m_resultStart[std::size_t(v.op) + 1])
                        continue;
                    used[slot] = 1;
                    if (kernelOfOp[c] < 0 || kernelOfOp[c] != kernelOfOp[std::size_t(v.op)])
                        external[slot] = 1;
                }
            }
            for (std::size_t slot = 0; slot < used.size(); ++slot)
                external[slot] = char(external[slot] || !used[slot]);
            return external;
        }

        double boundaryBytes(const std::vector<std::uint32_t>& ops, std::int32_t k,
            const std::vector<std::int32_t>& kernelOfOp, const std::vector<char>& escapes) const
        {
            std::vector<std::pair<Value, double>> reads; // each outside value once, at its largest read
            double written = 0;
            for (std::uint32_t op : ops) {
                const detail::OpCostDetail& d = *m_detailOf[op];
                for (std::size_t o = 0; o < m_program.ops[op].operandSources.size() && o < d.operandReads.size(); ++o) {
                    const Value v = resolve(op, o);
                    if (v.op < 0 || kernelOfOp[std::size_t(v.op)] != k)
                        reads.emplace_back(v, d.operandReads[o]);
                }
                const std::uint32_t first = m_resultStart[op];
                for (std::size_t r = 0; r < d.resultWrites.size() && first + r < m_resultStart[op + 1]; ++r)
                    if (escapes[first + r])
                        written += d.resultWrites[r];
            }
            std::sort(reads.begin(), reads.end(), [](const auto& a, const auto& b) {
                return a.first < b.first || (!(b.first < a.first) && a.second > b.second);
            });
            double read = 0;
            for (std::size_t i = 0; i < reads.size(); ++i)
                if (i == 0 || reads[i - 1].first < reads[i].first)
                    read += reads[i].second;
            return read + written;
        }
    };

} // namespace

const char* toString(FusionMode mode)
{
    switch (mode) {
    case FusionMode::Auto:
        return "auto";
    case FusionMode::Xla:
        return "xla";
    case FusionMode::Elk:
        return "elk";
    case FusionMode::None:
        return "none";
    }
    return "auto";
}

std::optional<FusionMode> fusionModeFromString(std::string_view text)
{
    for (FusionMode mode : { FusionMode::Auto, FusionMode::Xla, FusionMode::Elk, FusionMode::None })
        if (text == toString(mode))
            return mode;
    return std::nullopt;
}

FusionResult fuseProgram(const HloProgram& program, const FusionOptions& options)
{
    return Fuser(program, options).run();
}

} // namespace elk::hlo
