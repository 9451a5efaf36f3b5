// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hlo/hlo_icca_lowering.h"

#include "engine/hlo/hlo_attrs.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace elk::hlo {

using model::Axis;
using model::LoopDim;
using model::OperandRef;
using model::OpKind;

std::optional<model::DType> graphDType(std::string_view type)
{
    if (type == "f64")
        return model::DType::F64;
    if (type == "f32" || type == "tf32")
        return model::DType::F32;
    if (type == "f16")
        return model::DType::F16;
    if (type == "bf16")
        return model::DType::BF16;
    if (type.rfind("f8E4M3", 0) == 0)
        return model::DType::F8E4M3;
    if (type.rfind("f8E5M2", 0) == 0)
        return model::DType::F8E5M2;
    if (type == "i64" || type == "ui64")
        return model::DType::I64;
    if (type == "i32" || type == "ui32")
        return model::DType::I32;
    if (type == "i16" || type == "ui16")
        return model::DType::I16;
    if (type == "i8")
        return model::DType::I8;
    if (type == "ui8")
        return model::DType::U8;
    if (type == "i1")
        return model::DType::Bool;
    return std::nullopt;
}

namespace {

    const std::set<std::string, std::less<>> kUnary = { "stablehlo.negate", "stablehlo.exponential", "stablehlo.log",
        "stablehlo.tanh", "stablehlo.logistic", "stablehlo.sqrt", "stablehlo.rsqrt", "stablehlo.abs",
        "stablehlo.convert", "stablehlo.not", "stablehlo.sine", "stablehlo.cosine", "stablehlo.floor", "stablehlo.ceil",
        "stablehlo.sign", "stablehlo.exponential_minus_one", "stablehlo.log_plus_one", "stablehlo.cbrt",
        "stablehlo.round_nearest_even", "stablehlo.round_nearest_afz", "stablehlo.is_finite", "chlo.erf" };
    const std::set<std::string, std::less<>> kElementwise
        = { "stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.divide", "stablehlo.maximum",
              "stablehlo.minimum", "stablehlo.power", "stablehlo.and", "stablehlo.or", "stablehlo.xor",
              "stablehlo.compare", "stablehlo.select", "stablehlo.clamp", "stablehlo.atan2", "stablehlo.remainder" };

    bool isTensor(const Type& type)
    {
        return type.kind == TypeKind::Tensor && !isDynamic(type) && graphDType(type.elementType).has_value();
    }

    class Lowerer {
    public:
        Lowerer(const HloProgram& program, LoweredRegion& out)
            : m_program(program)
            , m_out(out)
        {
        }

        bool lower(std::uint32_t flatIndex)
        {
            const FlatOp& flat = m_program.ops[flatIndex];
            const Op& op = *flat.op;
            if (op.resultTypes.size() != 1 || !isTensor(op.resultTypes[0]) || op.resultTypes[0].dims.empty())
                return false;
            for (const Type& type : op.operandTypes)
                if (!isTensor(type))
                    return false;
            std::optional<model::OpId> id;
            if (op.name == "stablehlo.dot_general" || op.name == "stablehlo.dot")
                id = lowerDot(flatIndex);
            else if (op.name == "stablehlo.convolution")
                id = lowerConv(flatIndex);
            else if (op.name == "stablehlo.reduce")
                id = lowerReduce(flatIndex);
            else if (op.name == "stablehlo.transpose")
                id = lowerTranspose(flatIndex);
            else if (op.name == "stablehlo.broadcast_in_dim")
                id = lowerBroadcast(flatIndex);
            else if (kUnary.count(op.name) != 0)
                id = lowerPointwise(flatIndex, OpKind::Unary);
            else if (kElementwise.count(op.name) != 0)
                id = lowerPointwise(flatIndex, OpKind::Elementwise);
            if (!id)
                return false;
            m_out.flatOpOfGraphOp.push_back(flatIndex);
            return true;
        }

        void finish()
        {
            model::Graph& graph = m_out.graph;
            for (const auto& [key, tensor] : m_produced)
                if (graph.tensor(tensor).consumers.empty())
                    graph.addOutput(tensor);
        }

    private:
        // The tensor holding operand `i` of the flat op, shaped `shape` (the expression's view of it).
        model::TensorId operandTensor(std::uint32_t flatIndex, std::size_t i, const std::vector<std::int64_t>& shape)
        {
            const FlatOp& flat = m_program.ops[flatIndex];
            const Type& type = flat.op->operandTypes[i];
            if (i < flat.operandSources.size() && flat.operandSources[i] >= 0) {
                const auto key = std::make_pair(std::uint32_t(flat.operandSources[i]),
                    i < flat.operandResultIndex.size() ? flat.operandResultIndex[i] : 0u);
                if (const auto found = m_produced.find(key);
                    found != m_produced.end() && m_out.graph.tensor(found->second).shape == shape)
                    return found->second;
                // Produced outside the region, or seen through a view: read from HBM in this shape.
                const auto cached = m_external.find({ key, shape });
                if (cached != m_external.end())
                    return cached->second;
                const auto tensor = addExternal(type, shape, model::TensorRole::Activation);
                m_external.emplace(std::make_pair(key, shape), tensor);
                return tensor;
            }
            return addExternal(type, shape, model::TensorRole::Weight);
        }

        model::TensorId addExternal(const Type& type, const std::vector<std::int64_t>& shape, model::TensorRole role)
        {
            const std::string name = "in" + std::to_string(m_out.graph.tensors().size());
            const auto tensor = m_out.graph.addTensor(name, shape, *graphDType(type.elementType), role);
            if (role == model::TensorRole::Activation)
                m_out.graph.addInput(tensor); // computed by an earlier region: read from HBM
            return tensor;
        }

        model::TensorId resultTensor(std::uint32_t flatIndex)
        {
            const Type& type = m_program.ops[flatIndex].op->resultTypes[0];
            const std::string name = "t" + std::to_string(flatIndex);
            const auto tensor
                = m_out.graph.addTensor(name, type.dims, *graphDType(type.elementType), model::TensorRole::Activation);
            m_produced[{ flatIndex, 0u }] = tensor;
            return tensor;
        }

        std::string opName(std::uint32_t flatIndex) const
        {
            std::string name = m_program.ops[flatIndex].op->name;
            if (const auto dot = name.find('.'); dot != std::string::npos)
                name = name.substr(dot + 1);
            return name + "_" + std::to_string(flatIndex);
        }

        static std::vector<Axis> identityAxes(std::size_t rank)
        {
            std::vector<Axis> axes;
            for (std::size_t d = 0; d < rank; ++d)
                axes.push_back(Axis::loop(int(d)));
            return axes;
        }

        static std::vector<LoopDim> loopDims(const std::vector<std::int64_t>& extents)
        {
            std::vector<LoopDim> dims;
            for (std::size_t d = 0; d < extents.size(); ++d)
                dims.push_back(LoopDim { "d" + std::to_string(d), extents[d] });
            return dims;
        }

        std::optional<model::OpId> lowerPointwise(std::uint32_t flatIndex, OpKind kind)
        {
            const Op& op = *m_program.ops[flatIndex].op;
            const auto& shape = op.resultTypes[0].dims;
            std::vector<OperandRef> operands;
            std::vector<std::pair<std::size_t, std::vector<Axis>>> inputs;
            for (std::size_t i = 0; i < op.operandTypes.size(); ++i) {
                const auto& dims = op.operandTypes[i].dims;
                if (dims.empty())
                    continue; // a scalar operand (clamp bounds): part of the instruction, not data
                if (dims != shape)
                    return std::nullopt;
                inputs.emplace_back(i, identityAxes(shape.size()));
            }
            std::vector<OperandRef> refs;
            for (auto& [i, axes] : inputs)
                refs.push_back(OperandRef { operandTensor(flatIndex, i, shape), axes });
            if (refs.empty())
                return std::nullopt;
            const auto out = resultTensor(flatIndex);
            refs.insert(refs.begin(), OperandRef { out, identityAxes(shape.size()) });
            return m_out.graph.addOp(opName(flatIndex), kind, loopDims(shape), refs);
        }

        std::optional<model::OpId> lowerTranspose(std::uint32_t flatIndex)
        {
            const Op& op = *m_program.ops[flatIndex].op;
            const auto permutation = intList(op, "permutation");
            const auto& shape = op.resultTypes[0].dims;
            if (!permutation || permutation->size() != shape.size())
                return std::nullopt;
            std::vector<Axis> inAxes(shape.size());
            std::vector<std::int64_t> inShape(shape.size());
            for (std::size_t i = 0; i < shape.size(); ++i) {
                const auto d = (*permutation)[i];
                if (d < 0 || std::size_t(d) >= shape.size())
                    return std::nullopt;
                inAxes[std::size_t(d)] = Axis::loop(int(i));
                inShape[std::size_t(d)] = shape[i];
            }
            const auto in = operandTensor(flatIndex, 0, inShape);
            const auto out = resultTensor(flatIndex);
            return m_out.graph.addOp(opName(flatIndex), OpKind::Unary, loopDims(shape),
                { OperandRef { out, identityAxes(shape.size()) }, OperandRef { in, inAxes } });
        }

        std::optional<model::OpId> lowerBroadcast(std::uint32_t flatIndex)
        {
            const Op& op = *m_program.ops[flatIndex].op;
            const auto dims = intList(op, "broadcast_dimensions");
            const auto& shape = op.resultTypes[0].dims;
            const auto& inDims = op.operandTypes[0].dims;
            if (!dims || dims->size() != inDims.size())
                return std::nullopt;
            // Extent-1 input dims broadcast: the input is read in its squeezed shape.
            std::vector<Axis> inAxes;
            std::vector<std::int64_t> inShape;
            for (std::size_t j = 0; j < inDims.size(); ++j) {
                const auto d = (*dims)[j];
                if (d < 0 || std::size_t(d) >= shape.size())
                    return std::nullopt;
                if (inDims[j] == shape[std::size_t(d)]) {
                    inAxes.push_back(Axis::loop(int(d)));
                    inShape.push_back(inDims[j]);
                }
            }
            if (inShape.empty())
                return std::nullopt; // a scalar splat: a constant fill, no data to move in
            const auto in = operandTensor(flatIndex, 0, inShape);
            const auto out = resultTensor(flatIndex);
            return m_out.graph.addOp(opName(flatIndex), OpKind::Unary, loopDims(shape),
                { OperandRef { out, identityAxes(shape.size()) }, OperandRef { in, inAxes } });
        }

        std::optional<model::OpId> lowerReduce(std::uint32_t flatIndex)
        {
            const Op& op = *m_program.ops[flatIndex].op;
            const auto dims = intList(op, "dimensions");
            if (op.operandTypes.size() != 2 || !dims)
                return std::nullopt;
            const auto& inShape = op.operandTypes[0].dims;
            std::vector<Axis> outAxes;
            for (std::size_t d = 0; d < inShape.size(); ++d)
                if (std::find(dims->begin(), dims->end(), std::int64_t(d)) == dims->end())
                    outAxes.push_back(Axis::loop(int(d)));
            if (outAxes.empty() || op.resultTypes[0].dims.size() != outAxes.size())
                return std::nullopt;
            const auto in = operandTensor(flatIndex, 0, inShape);
            const auto out = resultTensor(flatIndex);
            return m_out.graph.addOp(opName(flatIndex), OpKind::Reduce, loopDims(inShape),
                { OperandRef { out, outAxes }, OperandRef { in, identityAxes(inShape.size()) } });
        }

        std::optional<model::OpId> lowerDot(std::uint32_t flatIndex)
        {
            const Op& op = *m_program.ops[flatIndex].op;
            const auto numbers = dotDimensions(op);
            if (!numbers || op.operandTypes.size() != 2)
                return std::nullopt;
            const auto& lhs = op.operandTypes[0].dims;
            const auto& rhs = op.operandTypes[1].dims;
            const auto& outShape = op.resultTypes[0].dims;
            const std::size_t batch = numbers->lhsBatch.size();
            const std::size_t lhsFree = lhs.size() - batch - numbers->lhsContracting.size();
            std::vector<std::int64_t> extents = outShape;
            for (auto d : numbers->lhsContracting)
                extents.push_back(lhs.at(std::size_t(d)));
            auto axesOf = [&](const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& batchDims,
                              const std::vector<std::int64_t>& contracting, std::size_t freeStart) {
                std::vector<Axis> axes;
                std::size_t free = freeStart;
                for (std::size_t d = 0; d < shape.size(); ++d) {
                    const auto b = std::find(batchDims.begin(), batchDims.end(), std::int64_t(d));
                    const auto c = std::find(contracting.begin(), contracting.end(), std::int64_t(d));
                    if (b != batchDims.end())
                        axes.push_back(Axis::loop(int(b - batchDims.begin())));
                    else if (c != contracting.end())
                        axes.push_back(Axis::loop(int(outShape.size() + std::size_t(c - contracting.begin()))));
                    else
                        axes.push_back(Axis::loop(int(free++)));
                }
                return axes;
            };
            if (outShape.size() != lhs.size() + rhs.size() - batch - 2 * numbers->lhsContracting.size())
                return std::nullopt;
            const auto lhsAxes = axesOf(lhs, numbers->lhsBatch, numbers->lhsContracting, batch);
            const auto rhsAxes = axesOf(rhs, numbers->rhsBatch, numbers->rhsContracting, batch + lhsFree);
            const auto a = operandTensor(flatIndex, 0, lhs);
            const auto b = operandTensor(flatIndex, 1, rhs);
            const auto out = resultTensor(flatIndex);
            return m_out.graph.addOp(opName(flatIndex), OpKind::MatMul, loopDims(extents),
                { OperandRef { out, identityAxes(outShape.size()) }, OperandRef { a, lhsAxes },
                    OperandRef { b, rhsAxes } });
        }

        std::optional<model::OpId> lowerConv(std::uint32_t flatIndex)
        {
            const Op& op = *m_program.ops[flatIndex].op;
            const auto conv = convDimensions(op);
            if (!conv || conv->featureGroupCount != 1 || conv->batchGroupCount != 1 || op.operandTypes.size() != 2)
                return std::nullopt;
            for (auto d : conv->lhsDilation)
                if (d != 1)
                    return std::nullopt;
            for (auto d : conv->rhsDilation)
                if (d != 1)
                    return std::nullopt;
            const auto& in = op.operandTypes[0].dims;
            const auto& kernel = op.operandTypes[1].dims;
            const auto& outShape = op.resultTypes[0].dims;
            const std::size_t spatial = conv->outputSpatial.size();
            if (conv->inputSpatial.size() != spatial || conv->kernelSpatial.size() != spatial)
                return std::nullopt;
            // Loop dims: the output's dims in its layout, then input feature, then kernel spatial dims.
            std::vector<std::int64_t> extents = outShape;
            const int cin = int(extents.size());
            extents.push_back(kernel.at(std::size_t(conv->kernelInputFeature)));
            std::vector<int> kernelLoop;
            for (std::size_t s = 0; s < spatial; ++s) {
                kernelLoop.push_back(int(extents.size()));
                extents.push_back(kernel.at(std::size_t(conv->kernelSpatial[s])));
            }
            std::vector<Axis> inAxes(in.size());
            std::vector<std::int64_t> inShape(in.size());
            inAxes[std::size_t(conv->inputBatch)] = Axis::loop(int(conv->outputBatch));
            inShape[std::size_t(conv->inputBatch)] = outShape.at(std::size_t(conv->outputBatch));
            inAxes[std::size_t(conv->inputFeature)] = Axis::loop(cin);
            inShape[std::size_t(conv->inputFeature)] = extents[std::size_t(cin)];
            for (std::size_t s = 0; s < spatial; ++s) {
                const std::int64_t stride = s < conv->strides.size() ? conv->strides[s] : 1;
                const int outDim = int(conv->outputSpatial[s]);
                inAxes[std::size_t(conv->inputSpatial[s])] = Axis::window(outDim, kernelLoop[s], stride);
                // The span the windows read: padding becomes part of the (HBM-resident) input.
                inShape[std::size_t(conv->inputSpatial[s])]
                    = (outShape.at(std::size_t(outDim)) - 1) * stride + extents[std::size_t(kernelLoop[s])];
            }
            std::vector<Axis> kernelAxes(kernel.size());
            kernelAxes[std::size_t(conv->kernelInputFeature)] = Axis::loop(cin);
            kernelAxes[std::size_t(conv->kernelOutputFeature)] = Axis::loop(int(conv->outputFeature));
            for (std::size_t s = 0; s < spatial; ++s)
                kernelAxes[std::size_t(conv->kernelSpatial[s])] = Axis::loop(kernelLoop[s]);
            const auto x = operandTensor(flatIndex, 0, inShape);
            const auto w = operandTensor(flatIndex, 1, kernel);
            const auto out = resultTensor(flatIndex);
            return m_out.graph.addOp(opName(flatIndex), OpKind::Conv, loopDims(extents),
                { OperandRef { out, identityAxes(outShape.size()) }, OperandRef { x, inAxes },
                    OperandRef { w, kernelAxes } });
        }

        const HloProgram& m_program;
        LoweredRegion& m_out;
        std::map<std::pair<std::uint32_t, std::uint32_t>, model::TensorId> m_produced;
        std::map<std::pair<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::int64_t>>, model::TensorId>
            m_external;
    };

} // namespace

LoweredRegion lowerToGraph(const HloProgram& program, const std::vector<std::uint32_t>& flatOps)
{
    LoweredRegion out;
    out.graph.setName("hlo-region");
    Lowerer lowerer(program, out);
    for (std::uint32_t index : flatOps) {
        const FlatOp& flat = program.ops.at(index);
        if (flat.opClass != OpClass::Compute)
            continue;
        if (!lowerer.lower(index))
            out.notLowered.push_back(index);
    }
    lowerer.finish();
    return out;
}

} // namespace elk::hlo
