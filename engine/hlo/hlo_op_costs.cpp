// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The per-op cost table (import.md §5.2). Deliberately unlike hespas (hlo-reference.md §3.3): conv
// FLOPs follow the real dimension numbers and groups, scatter counts its updates, variadic reduces
// count every operand, power counts both inputs, and an op outside the table is costed as memory
// traffic instead of aborting the run.
#include "engine/hlo/hlo_op_costs.h"

#include "engine/hlo/hlo_attrs.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace elk::hlo {

namespace {

    enum class Rule {
        Free,
        Structural,
        Elementwise,
        Clamp,
        Transcendental,
        Move, ///< 0 FLOPs, Σ b(in) + b(out): convert, transpose, broadcast, concatenate, pad, reverse
        Slice,
        DynamicUpdateSlice,
        Iota,
        Gather,
        Scatter,
        Reduce,
        ReduceWindow,
        SelectAndScatter,
        Sort,
        Dot,
        Conv,
        RaggedDot,
        TopK,
        Rng,
        RngBitGenerator,
        Map,
        CustomCall,
        Collective,
    };

    const std::unordered_map<std::string_view, Rule>& ruleTable()
    {
        static const std::unordered_map<std::string_view, Rule> table = [] {
            std::unordered_map<std::string_view, Rule> t;
            auto add = [&t](Rule rule, std::initializer_list<std::string_view> names) {
                for (std::string_view name : names)
                    t.emplace(name, rule);
            };
            add(Rule::Free,
                { "constant", "arith.constant", "sdy.constant", "constant_like", "reshape", "bitcast_convert",
                    "bitcast", "optimization_barrier", "tuple", "get_tuple_element", "partition_id", "replica_id",
                    "after_all", "create_token", "get_dimension_size", "add_dependency", "sdy.sharding_constraint",
                    "sdy.reshard", "sdy.propagation_barrier", "return", "func.return", "sdy.return", "all_reduce_done",
                    "all_gather_done", "collective_permute_done", "reduce_scatter_done", "all_to_all_done" });
            add(Rule::Structural,
                { "func.call", "call", "while", "case", "if", "composite", "sdy.manual_computation",
                    "sdy.named_computation", "fusion" });
            add(Rule::Elementwise,
                { "add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "negate", "abs", "sign",
                    "compare", "select", "and", "or", "xor", "not", "shift_left", "shift_right_arithmetic",
                    "shift_right_logical", "floor", "ceil", "round_nearest_afz", "round_nearest_even", "is_finite",
                    "popcnt", "count_leading_zeros", "reduce_precision", "is_inf", "is_neg_inf", "is_pos_inf",
                    "next_after", "conj", "square", "mulhi" });
            add(Rule::Clamp, { "clamp" });
            add(Rule::Transcendental,
                { "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "tanh", "sqrt", "rsqrt",
                    "cbrt", "power", "sine", "cosine", "tan", "atan2", "erf", "erfc", "erf_inv", "lgamma", "digamma",
                    "polygamma", "zeta", "acos", "acosh", "asin", "asinh", "atan", "atanh", "cosh", "sinh",
                    "bessel_i1e" });
            add(Rule::Move,
                { "convert", "real", "imag", "complex", "copy", "transpose", "broadcast_in_dim", "broadcast",
                    "concatenate", "pad", "reverse" });
            add(Rule::Slice, { "slice", "dynamic_slice" });
            add(Rule::DynamicUpdateSlice, { "dynamic_update_slice" });
            add(Rule::Iota, { "iota" });
            add(Rule::Gather, { "gather" });
            add(Rule::Scatter, { "scatter" });
            add(Rule::Reduce, { "reduce" });
            add(Rule::ReduceWindow, { "reduce_window" });
            add(Rule::SelectAndScatter, { "select_and_scatter" });
            add(Rule::Sort, { "sort" });
            add(Rule::Dot, { "dot_general", "dot" });
            add(Rule::Conv, { "convolution" });
            add(Rule::RaggedDot, { "ragged_dot" });
            add(Rule::TopK, { "top_k", "topk" });
            add(Rule::Rng, { "rng" });
            add(Rule::RngBitGenerator, { "rng_bit_generator" });
            add(Rule::Map, { "map" });
            add(Rule::CustomCall, { "custom_call" });
            add(Rule::Collective,
                { "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "collective_permute",
                    "collective_broadcast", "all_reduce_start", "all_gather_start", "collective_permute_start",
                    "reduce_scatter_start", "all_to_all_start" });
            return t;
        }();
        return table;
    }

    std::optional<Rule> ruleOf(std::string_view name)
    {
        const auto& table = ruleTable();
        const auto found = table.find(detail::baseOpName(name));
        if (found == table.end())
            return name.starts_with("check.") ? std::optional<Rule>(Rule::Free) : std::nullopt; // test expectations
        return found->second;
    }

    // Custom calls that only annotate (sharding, placement, test expectations): no run-time cost.
    bool isMarkerTarget(std::string_view target)
    {
        return target == "Sharding" || target == "SPMDFullToShardShape" || target == "SPMDShardToFullShape"
            || target == "annotate_device_placement" || target.starts_with("check.") || target.starts_with("xla.sdy.");
    }

    bool isTopKTarget(std::string_view target)
    {
        return target == "TopK" || target == "topk" || target == "top_k" || target == "mhlo.topk";
    }

    double elements(const Type& type)
    {
        if (type.kind == TypeKind::Tuple) {
            double sum = 0;
            for (const Type& element : type.elements)
                sum += elements(element);
            return sum;
        }
        if (type.kind != TypeKind::Tensor)
            return 0;
        return double(elementCount(type));
    }

    double bytesOf(const std::vector<Type>& types, std::size_t index)
    {
        return index < types.size() ? typeBytes(types[index]) : 0;
    }

    double elementsOf(const std::vector<Type>& types, std::size_t index)
    {
        return index < types.size() ? elements(types[index]) : 0;
    }

    // The type a peak is looked up by: complex<T> → T, quantized → its storage type.
    std::string_view storageType(std::string_view elementType)
    {
        if (elementType.starts_with("complex<") && elementType.back() == '>')
            return elementType.substr(8, elementType.size() - 9);
        if (elementType.starts_with("!quant.uniform<")) {
            const std::string_view rest = elementType.substr(15);
            return rest.substr(0, rest.find_first_of(":<"));
        }
        return elementType;
    }

    bool isFloatType(std::string_view type)
    {
        return type.starts_with("f") || type.starts_with("bf") || type.starts_with("tf");
    }
    bool isIntType(std::string_view type)
    {
        return type.starts_with("i") || type.starts_with("ui") || type.starts_with("si");
    }

    struct WidestTypes {
        std::string_view bestFloat, bestInt;
        double floatBytes = -1, intBytes = -1;

        void consider(const Type& type)
        {
            if (type.kind == TypeKind::Tuple) {
                for (const Type& element : type.elements)
                    consider(element);
                return;
            }
            if (type.kind != TypeKind::Tensor || type.elementType.empty())
                return;
            const std::string_view storage = storageType(type.elementType);
            const double bytes = elementBytes(storage);
            if (isFloatType(storage) && bytes > floatBytes) {
                bestFloat = storage;
                floatBytes = bytes;
            } else if (isIntType(storage) && bytes > intBytes) {
                bestInt = storage;
                intBytes = bytes;
            }
        }
    };

    std::string widestType(const Op& op)
    {
        WidestTypes widest;
        for (const Type& type : op.operandTypes)
            widest.consider(type);
        for (const Type& type : op.resultTypes)
            widest.consider(type);
        return std::string(!widest.bestFloat.empty() ? widest.bestFloat : widest.bestInt);
    }

    double product(const std::vector<std::int64_t>& values)
    {
        double p = 1;
        for (std::int64_t v : values)
            p *= double(v);
        return p;
    }

    double dimOf(const std::vector<Type>& types, std::size_t operand, std::int64_t dim)
    {
        if (operand >= types.size() || dim < 0 || std::size_t(dim) >= types[operand].dims.size())
            return 1;
        const std::int64_t size = types[operand].dims[std::size_t(dim)];
        return size == kDynamicDim ? 1 : double(size);
    }

    // 2·N(out)·K, K = ∏ lhs contracting dims (batch and free dims are in N(out)).
    double dotFlops(const Op& op)
    {
        double k = 1;
        if (const auto dims = dotDimensions(op)) {
            for (std::int64_t d : dims->lhsContracting)
                k *= dimOf(op.operandTypes, 0, d);
        } else if (!op.operandTypes.empty() && !op.operandTypes[0].dims.empty()) {
            k = dimOf(op.operandTypes, 0, std::int64_t(op.operandTypes[0].dims.size()) - 1);
        }
        return 2 * elementsOf(op.resultTypes, 0) * k;
    }

    std::int64_t at(const std::vector<std::int64_t>& values, std::size_t i, std::int64_t fallback)
    {
        return i < values.size() ? values[i] : fallback;
    }

    // (output, kernel) position pairs of one spatial dim whose input position is a real element: not
    // padding, not a hole of the lhs dilation (XLA's HloCostAnalysis counts the same way). Without
    // padding and dilation this is O·K.
    double validTaps(std::int64_t in, std::int64_t kernel, std::int64_t out, std::int64_t stride, std::int64_t padLow,
        std::int64_t lhsDilation, std::int64_t rhsDilation)
    {
        if (in <= 0 || kernel <= 0 || out <= 0 || stride <= 0 || lhsDilation <= 0 || rhsDilation <= 0)
            return double(std::max<std::int64_t>(out, 1)) * double(std::max<std::int64_t>(kernel, 1));
        if (double(out) * double(kernel) > 4e6) // huge 1-D windows: holes only
            return double(out) * double(kernel) / double(lhsDilation);
        const std::int64_t dilatedIn = (in - 1) * lhsDilation + 1;
        std::int64_t count = 0;
        for (std::int64_t o = 0; o < out; ++o)
            for (std::int64_t k = 0; k < kernel; ++k) {
                const std::int64_t p = o * stride + k * rhsDilation - padLow;
                count += (p >= 0 && p < dilatedIn && p % lhsDilation == 0) ? 1 : 0;
            }
        return double(count);
    }

    // 2 · (N(out) / ∏ output spatial) · kernel input features · ∏ valid taps per spatial dim. The real
    // layout (forward, input-gradient, weight-gradient) decides which kernel dim is the output feature;
    // the kernel's input-feature dim already is C_in / feature_group_count (grouped, depthwise exact).
    // Taps on padding or on the holes of an lhs dilation (the input gradient of a strided conv) are
    // not multiplications, so they are not counted: that matches the forward conv's work.
    double convFlops(const Op& op)
    {
        if (op.operandTypes.size() < 2 || op.resultTypes.empty())
            return 0;
        const Type& kernel = op.operandTypes[1];
        const auto dims = convDimensions(op);
        if (!dims || isDynamic(op.operandTypes[0]) || isDynamic(kernel) || isDynamic(op.resultTypes[0])
            || dims->kernelSpatial.size() != dims->outputSpatial.size()
            || dims->inputSpatial.size() != dims->outputSpatial.size()) {
            const std::int64_t outputFeature = dims ? dims->kernelOutputFeature : std::int64_t(kernel.dims.size()) - 1;
            double taps = 1;
            for (std::size_t d = 0; d < kernel.dims.size(); ++d)
                if (std::int64_t(d) != outputFeature)
                    taps *= dimOf(op.operandTypes, 1, std::int64_t(d));
            return 2 * elementsOf(op.resultTypes, 0) * taps;
        }
        double perOutputPosition = elementsOf(op.resultTypes, 0); // batch × output features
        double taps = 1;
        for (std::size_t s = 0; s < dims->outputSpatial.size(); ++s) {
            const double out = dimOf(op.resultTypes, 0, dims->outputSpatial[s]);
            perOutputPosition /= std::max(out, 1.0);
            const std::int64_t padLow = s < dims->padding.size() ? dims->padding[s].first : 0;
            taps *= validTaps(std::int64_t(dimOf(op.operandTypes, 0, dims->inputSpatial[s])),
                std::int64_t(dimOf(op.operandTypes, 1, dims->kernelSpatial[s])), std::int64_t(out),
                at(dims->strides, s, 1), padLow, at(dims->lhsDilation, s, 1), at(dims->rhsDilation, s, 1));
        }
        for (std::size_t d = 0; d < kernel.dims.size(); ++d) {
            const bool spatial = std::find(dims->kernelSpatial.begin(), dims->kernelSpatial.end(), std::int64_t(d))
                != dims->kernelSpatial.end();
            if (!spatial && std::int64_t(d) != dims->kernelOutputFeature)
                taps *= dimOf(op.operandTypes, 1, std::int64_t(d));
        }
        return 2 * perOutputPosition * taps;
    }

    double log2Ceil(double n)
    {
        return n <= 1 ? 0 : std::ceil(std::log2(n));
    }

    void readAll(const Op& op, detail::OpCostDetail& d)
    {
        for (std::size_t i = 0; i < op.operandTypes.size(); ++i)
            d.operandReads[i] = bytesOf(op.operandTypes, i);
    }

    void writeAll(const Op& op, detail::OpCostDetail& d)
    {
        for (std::size_t i = 0; i < op.resultTypes.size(); ++i)
            d.resultWrites[i] = bytesOf(op.resultTypes, i);
    }

    void costCollective(const Op& op, std::int64_t groupSize, detail::OpCostDetail& d)
    {
        d.opClass = OpClass::Collective;
        d.role = detail::FusionRole::Collective;
        readAll(op, d);
        writeAll(op, d);
        const auto kind = collectiveKindFromOpName(op.name);
        if (kind == CollectiveKind::AllReduce || kind == CollectiveKind::ReduceScatter) {
            // Each device reduces (n−1)/n of the elements (ring); unknown n: all of them.
            const double share = groupSize > 0 ? double(groupSize - 1) / double(groupSize) : 1.0;
            double n = 0;
            for (const Type& type : op.operandTypes)
                n += elements(type);
            d.cost.flops = share * n * detail::regionOpCount(op, 0);
        }
    }

    void costCustomCall(const Op& op, std::int64_t groupSize, detail::OpCostDetail& d);

    void costByRule(const Op& op, Rule rule, std::int64_t groupSize, detail::OpCostDetail& d)
    {
        using detail::FusionRole;
        const double nOut = elementsOf(op.resultTypes, 0);
        switch (rule) {
        case Rule::Free:
        case Rule::Structural:
            d.opClass = OpClass::Free;
            d.role = FusionRole::None;
            return;
        case Rule::Elementwise:
        case Rule::Clamp:
        case Rule::Transcendental:
            readAll(op, d);
            writeAll(op, d);
            if (rule == Rule::Transcendental)
                d.cost.transcendentals = nOut;
            else
                d.cost.flops = (rule == Rule::Clamp ? 2 : 1) * nOut;
            d.role = FusionRole::Loop;
            return;
        case Rule::Move:
            readAll(op, d);
            writeAll(op, d);
            d.role = FusionRole::Loop;
            return;
        case Rule::Slice: // reads the slice it returns: 2·b(out)
            if (!d.operandReads.empty())
                d.operandReads[0] = bytesOf(op.resultTypes, 0);
            writeAll(op, d);
            d.role = FusionRole::Loop;
            return;
        case Rule::DynamicUpdateSlice: // in place: 2·b(update)
            if (d.operandReads.size() >= 2)
                d.operandReads[1] = bytesOf(op.operandTypes, 1);
            if (!d.resultWrites.empty())
                d.resultWrites[0] = bytesOf(op.operandTypes, 1);
            return;
        case Rule::Iota:
            writeAll(op, d);
            d.role = FusionRole::Loop;
            return;
        case Rule::Gather: // b(indices) + 2·b(out): reads N(out) elements of the operand
            if (!d.operandReads.empty())
                d.operandReads[0] = bytesOf(op.resultTypes, 0);
            for (std::size_t i = 1; i < d.operandReads.size(); ++i)
                d.operandReads[i] = bytesOf(op.operandTypes, i);
            writeAll(op, d);
            return;
        case Rule::Scatter: { // in place: b(indices) + b(updates) + 2·b(touched operand)
            const std::size_t k = op.operandTypes.size() / 2; // inputs..., indices, updates...
            for (std::size_t i = 0; i < k && k + 1 + i < op.operandTypes.size(); ++i) {
                const double updates = bytesOf(op.operandTypes, k + 1 + i);
                d.operandReads[i] = updates;
                d.operandReads[k + 1 + i] = updates;
                if (i < d.resultWrites.size())
                    d.resultWrites[i] = updates;
            }
            if (k < d.operandReads.size())
                d.operandReads[k] = bytesOf(op.operandTypes, k);
            d.cost.flops = elementsOf(op.operandTypes, k + 1) * detail::regionOpCount(op, 0);
            return;
        }
        case Rule::Reduce:
        case Rule::ReduceWindow: { // inputs..., init values...: the scalar inits are not traffic
            const std::size_t k = op.operandTypes.size() / 2;
            for (std::size_t i = 0; i < k; ++i)
                d.operandReads[i] = bytesOf(op.operandTypes, i);
            writeAll(op, d);
            const double body = detail::regionOpCount(op, 0);
            if (rule == Rule::Reduce) {
                d.cost.flops = std::max(0.0, elementsOf(op.operandTypes, 0) - nOut) * body;
            } else {
                const auto window = intList(op, "window_dimensions");
                d.cost.flops = nOut * (window ? product(*window) : 1) * body;
            }
            d.role = FusionRole::Reduction;
            return;
        }
        case Rule::SelectAndScatter: { // operand, source, init
            for (std::size_t i = 0; i < 2 && i < d.operandReads.size(); ++i)
                d.operandReads[i] = bytesOf(op.operandTypes, i);
            writeAll(op, d);
            const auto window = intList(op, "window_dimensions");
            const double source = elementsOf(op.operandTypes, 1);
            d.cost.flops = source * (window ? product(*window) : 1) * detail::regionOpCount(op, 0)
                + source * detail::regionOpCount(op, 1);
            return;
        }
        case Rule::Sort:
        case Rule::TopK: {
            readAll(op, d);
            writeAll(op, d);
            std::int64_t dim = -1;
            if (rule == Rule::Sort)
                dim = intValue(op, "dimension").value_or(-1);
            const auto& dims = op.operandTypes.empty() ? std::vector<std::int64_t> {} : op.operandTypes[0].dims;
            if (dim < 0)
                dim += std::int64_t(dims.size());
            const double n = dimOf(op.operandTypes, 0, dim);
            const double m = n > 0 ? elementsOf(op.operandTypes, 0) / n : 0;
            d.cost.flops = m * n * log2Ceil(n) * (rule == Rule::Sort ? detail::regionOpCount(op, 0) : 1);
            return;
        }
        case Rule::Dot:
        case Rule::Conv:
        case Rule::RaggedDot:
            readAll(op, d);
            writeAll(op, d);
            d.cost.flops = rule == Rule::Conv ? convFlops(op) : dotFlops(op);
            d.cost.matrixUnit = true;
            if (!op.operandTypes.empty() && !op.operandTypes[0].elementType.empty())
                d.cost.peakType = std::string(storageType(op.operandTypes[0].elementType));
            d.role = FusionRole::Matrix;
            return;
        case Rule::Rng:
            readAll(op, d);
            writeAll(op, d);
            d.cost.flops = nOut;
            return;
        case Rule::RngBitGenerator:
            readAll(op, d);
            writeAll(op, d);
            d.cost.flops = elementsOf(op.resultTypes, op.resultTypes.empty() ? 0 : op.resultTypes.size() - 1);
            return;
        case Rule::Map:
            readAll(op, d);
            writeAll(op, d);
            d.cost.flops = nOut * detail::regionOpCount(op, 0);
            d.role = FusionRole::Loop;
            return;
        case Rule::CustomCall:
            costCustomCall(op, groupSize, d);
            return;
        case Rule::Collective:
            costCollective(op, groupSize, d);
            return;
        }
    }

    /// A custom call: a marker target (isMarkerTarget) is free; a TopK target costs as TopK; any other is
    /// read and written, its compute unknown.
    void costCustomCall(const Op& op, std::int64_t groupSize, detail::OpCostDetail& d)
    {
        const std::string target = customCallTarget(op).value_or("");
        if (isMarkerTarget(target)) {
            d.opClass = OpClass::Free;
            d.role = detail::FusionRole::None;
            return;
        }
        if (isTopKTarget(target)) {
            costByRule(op, Rule::TopK, groupSize, d);
            return;
        }
        readAll(op, d);
        writeAll(op, d);
        d.known = false;
    }

} // namespace

namespace detail {

    std::string_view baseOpName(std::string_view name)
    {
        for (std::string_view prefix : { std::string_view("stablehlo."), std::string_view("mhlo.") })
            if (name.starts_with(prefix))
                return name.substr(prefix.size());
        if (name.starts_with("chlo.")) {
            std::string_view rest = name.substr(5);
            if (rest.starts_with("broadcast_"))
                rest = rest.substr(10); // chlo.broadcast_add → add
            return rest;
        }
        return name;
    }

    OpCostDetail costOpDetail(const Op& op, std::int64_t groupSize)
    {
        OpCostDetail d;
        d.operandReads.assign(op.operandTypes.size(), 0);
        d.resultWrites.assign(op.resultTypes.size(), 0);
        const auto rule = ruleOf(op.name);
        if (rule) {
            costByRule(op, *rule, groupSize, d);
        } else { // outside the table: memory traffic of its declared types
            readAll(op, d);
            writeAll(op, d);
            d.known = false;
        }
        if (d.opClass == OpClass::Free) {
            std::fill(d.operandReads.begin(), d.operandReads.end(), 0.0);
            std::fill(d.resultWrites.begin(), d.resultWrites.end(), 0.0);
        }
        for (double b : d.operandReads)
            d.cost.bytesRead += b;
        for (double b : d.resultWrites)
            d.cost.bytesWritten += b;
        if (d.cost.peakType.empty())
            d.cost.peakType = widestType(op);
        return d;
    }

    bool isStructuralOp(std::string_view name)
    {
        const auto rule = ruleOf(name);
        return rule == Rule::Structural;
    }

    bool isTerminator(std::string_view name)
    {
        return name == "func.return" || name == "stablehlo.return" || name == "mhlo.return" || name == "sdy.return"
            || name == "return";
    }

    bool isViewOp(const Op& op)
    {
        if (op.operands.empty() || op.results.empty())
            return false;
        const std::string_view base = baseOpName(op.name);
        if (base == "reshape" || base == "bitcast" || base == "bitcast_convert" || base == "add_dependency"
            || base == "sdy.sharding_constraint" || base == "sdy.reshard" || base == "sdy.propagation_barrier")
            return true;
        if (base == "custom_call")
            return isMarkerTarget(customCallTarget(op).value_or(""));
        return false;
    }

    bool isLayoutOrConversion(const Op& op)
    {
        const std::string_view base = baseOpName(op.name);
        return base == "convert" || base == "transpose" || base == "reverse" || base == "pad" || base == "copy";
    }

    double regionOpCount(const Op& op, std::size_t regionIndex)
    {
        if (regionIndex >= op.regions.size())
            return 1;
        double count = 0;
        for (const Block& block : op.regions[regionIndex].blocks)
            for (const Op& inner : block.ops) {
                if (isTerminator(inner.name))
                    continue;
                const auto rule = ruleOf(inner.name);
                if (rule == Rule::Free)
                    continue;
                count += rule == Rule::Clamp ? 2 : 1;
            }
        return std::max(count, 1.0);
    }

} // namespace detail

const char* toString(CollectiveKind kind)
{
    switch (kind) {
    case CollectiveKind::AllReduce:
        return "all_reduce";
    case CollectiveKind::AllGather:
        return "all_gather";
    case CollectiveKind::ReduceScatter:
        return "reduce_scatter";
    case CollectiveKind::AllToAll:
        return "all_to_all";
    case CollectiveKind::CollectivePermute:
        return "collective_permute";
    case CollectiveKind::CollectiveBroadcast:
        return "collective_broadcast";
    }
    return "all_reduce";
}

std::optional<CollectiveKind> collectiveKindFromOpName(std::string_view opName)
{
    if (!opName.starts_with("stablehlo.") && !opName.starts_with("mhlo."))
        return std::nullopt;
    std::string_view base = detail::baseOpName(opName);
    if (base.size() > 6 && base.substr(base.size() - 6) == "_start")
        base = base.substr(0, base.size() - 6);
    for (CollectiveKind kind : { CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter,
             CollectiveKind::AllToAll, CollectiveKind::CollectivePermute, CollectiveKind::CollectiveBroadcast })
        if (base == toString(kind))
            return kind;
    return std::nullopt;
}

OpCost costOfOp(const Op& op, bool& known)
{
    std::int64_t groupSize = 0; // unknown without the module: the reduction counts all elements
    if (collectiveKindFromOpName(op.name)) {
        const Module none;
        if (const auto groups = replicaGroups(op, none); groups && !groups->empty())
            groupSize = std::int64_t(groups->front().size());
    }
    detail::OpCostDetail d = detail::costOpDetail(op, groupSize);
    known = d.known;
    return d.cost;
}

} // namespace elk::hlo
