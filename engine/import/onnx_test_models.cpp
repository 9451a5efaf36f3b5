// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/onnx_test_models.h"

#include "engine/import/onnx_context.h"

#include <onnx/onnx_pb.h>

namespace elk::import::onnxtest {

Attribute attrInt(std::string name, std::int64_t value)
{
    Attribute a;
    a.name = std::move(name);
    a.kind = Attribute::Kind::Int;
    a.i = value;
    return a;
}

Attribute attrFloat(std::string name, double value)
{
    Attribute a;
    a.name = std::move(name);
    a.kind = Attribute::Kind::Float;
    a.f = value;
    return a;
}

Attribute attrString(std::string name, std::string value)
{
    Attribute a;
    a.name = std::move(name);
    a.kind = Attribute::Kind::String;
    a.s = std::move(value);
    return a;
}

Attribute attrInts(std::string name, std::vector<std::int64_t> values)
{
    Attribute a;
    a.name = std::move(name);
    a.kind = Attribute::Kind::Ints;
    a.ints = std::move(values);
    return a;
}

Attribute attrTensor(std::string name, TensorData value)
{
    Attribute a;
    a.name = std::move(name);
    a.kind = Attribute::Kind::Tensor;
    a.tensor = std::move(value);
    return a;
}

Attribute attrGraph(std::string name, Graph graph)
{
    Attribute a;
    a.name = std::move(name);
    a.kind = Attribute::Kind::Graph;
    a.graph = std::make_shared<const Graph>(std::move(graph));
    return a;
}

TensorData int64s(std::string name, std::vector<std::int64_t> values)
{
    TensorData t;
    t.name = std::move(name);
    t.elemType = kInt64;
    t.dims = { std::int64_t(values.size()) };
    t.ints = std::move(values);
    return t;
}

TensorData weight(std::string name, std::vector<std::int64_t> dims, int elemType)
{
    TensorData t;
    t.name = std::move(name);
    t.elemType = elemType;
    t.dims = std::move(dims);
    t.external = true;
    return t;
}

namespace {

    void fillTensor(const TensorData& data, onnx::TensorProto& t)
    {
        t.set_name(data.name);
        t.set_data_type(data.elemType);
        for (std::int64_t d : data.dims)
            t.add_dims(d);
        if (data.external) {
            std::int64_t elements = 1;
            for (std::int64_t d : data.dims)
                elements *= d;
            t.set_data_location(onnx::TensorProto::EXTERNAL);
            auto* location = t.add_external_data();
            location->set_key("location");
            location->set_value("__missing_weights__.bin");
            auto* length = t.add_external_data();
            length->set_key("length");
            length->set_value(std::to_string(elements * 2));
            return;
        }
        switch (data.elemType) {
        case kFloat:
            for (double v : data.floats)
                t.add_float_data(float(v));
            break;
        case kDouble:
            for (double v : data.floats)
                t.add_double_data(v);
            break;
        case kInt64:
            for (std::int64_t v : data.ints)
                t.add_int64_data(v);
            break;
        default:
            for (std::int64_t v : data.ints)
                t.add_int32_data(std::int32_t(v));
            break;
        }
    }

    void fillValueInfo(const ValueInfo& info, onnx::ValueInfoProto& v)
    {
        v.set_name(info.name);
        onnx::TypeProto* type = v.mutable_type();
        if (info.kind == ValueInfo::Kind::Sequence)
            type = type->mutable_sequence_type()->mutable_elem_type();
        else if (info.kind == ValueInfo::Kind::Optional)
            type = type->mutable_optional_type()->mutable_elem_type();
        auto* tensor = type->mutable_tensor_type();
        tensor->set_elem_type(info.elemType);
        if (!info.hasShape)
            return;
        auto* shape = tensor->mutable_shape();
        for (const Dim& d : info.dims) {
            auto* dim = shape->add_dim();
            if (d.param.empty())
                dim->set_dim_value(d.value);
            else
                dim->set_dim_param(d.param);
        }
    }

    void fillGraph(const Graph& graph, onnx::GraphProto& g);

    void fillNode(const Node& node, onnx::NodeProto& n)
    {
        n.set_op_type(node.opType);
        n.set_name(node.name);
        if (!node.domain.empty())
            n.set_domain(node.domain);
        for (const auto& i : node.inputs)
            n.add_input(i);
        for (const auto& o : node.outputs)
            n.add_output(o);
        for (const Attribute& a : node.attributes) {
            auto* attribute = n.add_attribute();
            attribute->set_name(a.name);
            switch (a.kind) {
            case Attribute::Kind::Int:
                attribute->set_type(onnx::AttributeProto::INT);
                attribute->set_i(a.i);
                break;
            case Attribute::Kind::Float:
                attribute->set_type(onnx::AttributeProto::FLOAT);
                attribute->set_f(float(a.f));
                break;
            case Attribute::Kind::String:
                attribute->set_type(onnx::AttributeProto::STRING);
                attribute->set_s(a.s);
                break;
            case Attribute::Kind::Ints:
                attribute->set_type(onnx::AttributeProto::INTS);
                for (std::int64_t v : a.ints)
                    attribute->add_ints(v);
                break;
            case Attribute::Kind::Tensor:
                attribute->set_type(onnx::AttributeProto::TENSOR);
                fillTensor(a.tensor, *attribute->mutable_t());
                break;
            case Attribute::Kind::Graph:
                attribute->set_type(onnx::AttributeProto::GRAPH);
                if (a.graph)
                    fillGraph(*a.graph, *attribute->mutable_g());
                break;
            }
        }
    }

    void fillGraph(const Graph& graph, onnx::GraphProto& g)
    {
        g.set_name(graph.name);
        for (const Node& node : graph.nodes)
            fillNode(node, *g.add_node());
        for (const auto& v : graph.inputs)
            fillValueInfo(v, *g.add_input());
        for (const auto& v : graph.outputs)
            fillValueInfo(v, *g.add_output());
        for (const auto& v : graph.valueInfo)
            fillValueInfo(v, *g.add_value_info());
        for (const auto& t : graph.initializers)
            fillTensor(t, *g.add_initializer());
    }

} // namespace

std::optional<std::vector<std::int64_t>> tensorProtoDims(const std::string& bytes)
{
    onnx::TensorProto tensor;
    if (!tensor.ParseFromString(bytes))
        return std::nullopt;
    return std::vector<std::int64_t>(tensor.dims().begin(), tensor.dims().end());
}

std::optional<TensorFile> readTensorFile(const std::string& bytes)
{
    onnx::TensorProto tensor;
    if (!tensor.ParseFromString(bytes))
        return std::nullopt;
    TensorFile file;
    file.name = tensor.name();
    file.dims.assign(tensor.dims().begin(), tensor.dims().end());
    if (!onnx_detail::isFloatType(tensor.data_type())) {
        const auto values = onnx_detail::decodeTensor(tensor);
        if (values && values->size() <= 64)
            file.ints = values->ints;
    }
    return file;
}

std::string serialize(const Model& model)
{
    onnx::ModelProto m;
    m.set_ir_version(model.irVersion);
    m.set_producer_name("elk-test");
    for (const auto& [domain, version] : model.opsets) {
        auto* opset = m.add_opset_import();
        opset->set_domain(domain);
        opset->set_version(version);
    }
    fillGraph(model.graph, *m.mutable_graph());
    return m.SerializeAsString();
}

} // namespace elk::import::onnxtest
