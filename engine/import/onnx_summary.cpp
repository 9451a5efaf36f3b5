// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/onnx_summary.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <climits>
#include <map>
#include <set>

namespace elk::import {

namespace {

    std::int64_t elementSize(int dataType)
    {
        switch (dataType) {
        case onnx::TensorProto_DataType_FLOAT16:
        case onnx::TensorProto_DataType_BFLOAT16:
        case onnx::TensorProto_DataType_INT16:
        case onnx::TensorProto_DataType_UINT16:
            return 2;
        case onnx::TensorProto_DataType_FLOAT:
        case onnx::TensorProto_DataType_INT32:
        case onnx::TensorProto_DataType_UINT32:
            return 4;
        case onnx::TensorProto_DataType_DOUBLE:
        case onnx::TensorProto_DataType_INT64:
        case onnx::TensorProto_DataType_UINT64:
            return 8;
        default:
            return 1;
        }
    }

    std::int64_t inlineBytes(const onnx::TensorProto& t)
    {
        return std::int64_t(t.raw_data().size()) + 4 * (t.float_data_size() + t.int32_data_size())
            + 8 * (t.int64_data_size() + t.double_data_size() + t.uint64_data_size())
            + std::int64_t(t.string_data_size());
    }

    // -1 for anything but a plain non-negative decimal number.
    std::int64_t toInt(const std::string& text)
    {
        if (text.empty() || text.size() > 18
            || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return -1;
        return std::stoll(text);
    }

    void addShape(OnnxModelSummary& s, std::set<std::string>& params, const onnx::ValueInfoProto& info)
    {
        std::vector<std::string> dims;
        if (info.type().has_tensor_type() && info.type().tensor_type().has_shape()) {
            for (const auto& d : info.type().tensor_type().shape().dim()) {
                if (d.has_dim_param()) {
                    dims.push_back(d.dim_param());
                    params.insert(d.dim_param());
                } else if (d.has_dim_value()) {
                    dims.push_back(std::to_string(d.dim_value()));
                } else {
                    dims.push_back("?");
                }
            }
        }
        s.ioShapes.emplace_back(info.name(), std::move(dims));
    }

} // namespace

OnnxModelSummary summarizeOnnx(std::string_view bytes)
{
    OnnxModelSummary s;
    onnx::ModelProto model;
    if (bytes.size() > std::size_t(INT_MAX) || !model.ParseFromArray(bytes.data(), int(bytes.size()))) {
        s.error = "not a binary ONNX ModelProto";
        return s;
    }
    if (model.ir_version() <= 0 || !model.has_graph()) {
        s.error = "no ir_version or no graph";
        return s;
    }
    s.parsed = true;
    s.irVersion = model.ir_version();
    for (const auto& o : model.opset_import())
        if (o.domain().empty() || o.domain() == "ai.onnx")
            s.opset = o.version();
    for (const auto& p : model.metadata_props())
        s.metadata.emplace_back(p.key(), p.value());

    const auto& g = model.graph();
    s.nodes = g.node_size();
    std::map<std::string, std::int64_t> ops;
    for (const auto& n : g.node())
        ++ops[n.domain().empty() ? n.op_type() : n.domain() + "::" + n.op_type()];
    s.opCounts.assign(ops.begin(), ops.end());

    std::set<std::string> locations;
    std::int64_t expectedOffset = 0;
    bool consistent = true;
    for (const auto& t : g.initializer()) {
        ++s.initializers;
        std::int64_t elements = 1;
        for (auto d : t.dims())
            elements *= d;
        if (t.data_location() == onnx::TensorProto_DataLocation_EXTERNAL) {
            ++s.externalInitializers;
            s.externalElements += elements;
            std::int64_t offset = -1;
            std::int64_t length = -1;
            for (const auto& e : t.external_data()) {
                if (e.key() == "location")
                    locations.insert(e.value());
                else if (e.key() == "offset")
                    offset = toInt(e.value());
                else if (e.key() == "length")
                    length = toInt(e.value());
            }
            s.externalBytes += std::max<std::int64_t>(length, 0);
            consistent = consistent && offset == expectedOffset && length == elements * elementSize(t.data_type());
            expectedOffset += std::max<std::int64_t>(length, 0);
            s.inlineDataBytes += inlineBytes(t); // must stay 0 for external tensors
        } else {
            s.inlineDataBytes += inlineBytes(t);
            s.largestInlineElements = std::max(s.largestInlineElements, elements);
        }
    }
    s.externalOffsetsConsistent = consistent && s.externalInitializers > 0;
    s.externalLocations.assign(locations.begin(), locations.end());

    std::set<std::string> initializerNames;
    for (const auto& t : g.initializer())
        initializerNames.insert(t.name());
    std::set<std::string> params;
    for (const auto& i : g.input()) {
        if (initializerNames.count(i.name()))
            continue;
        s.inputs.push_back(i.name());
        addShape(s, params, i);
    }
    for (const auto& o : g.output()) {
        s.outputs.push_back(o.name());
        addShape(s, params, o);
    }
    s.dimParams.assign(params.begin(), params.end());
    return s;
}

} // namespace elk::import
