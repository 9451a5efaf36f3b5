// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// ONNX 1.12's shape inference for one node at a time. It runs on a model that holds just that
// node, its inputs with the shapes the importer found and the values of its constant inputs, so
// that (a) nodes inside inlined subgraphs and symbolic dims need no special handling and (b) no
// other part of an untrusted file reaches the library: its inference functions crash on some
// malformed nodes (fuzzing found a null dereference in STFT's), so the node is first checked
// against its schema, input element types included.
#include "engine/import/onnx_passes.h"

#include <onnx/checker.h>
#include <onnx/defs/data_type_utils.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>

namespace elk::import::onnx_detail {

namespace {

    // The node's inputs must have element types its schema allows.
    bool typesFit(const Context& ctx, const NodeRec& node, const onnx::OpSchema& schema, std::string& error)
    {
        const auto& formals = schema.inputs();
        for (std::size_t i = 0; i < node.inputs.size(); ++i) {
            if (node.inputs[i] < 0 || formals.empty())
                continue;
            const bool variadic = formals.back().GetOption() == onnx::OpSchema::Variadic;
            if (i >= formals.size() && !variadic)
                break;
            const auto& formal = formals[std::min(i, formals.size() - 1)];
            const Value& v = ctx.value(node.inputs[i]);
            onnx::TypeProto type;
            type.mutable_tensor_type()->set_elem_type(v.elemType);
            try {
                const auto allowed = formal.GetTypes();
                if (!allowed.empty() && !allowed.count(onnx::Utils::DataTypeUtils::ToType(type))) {
                    error = "input " + std::to_string(i) + " ('" + v.name + "') has element type "
                        + elemTypeName(v.elemType) + ", which the op does not take";
                    return false;
                }
            } catch (const std::exception& e) {
                error = e.what();
                return false;
            }
        }
        return true;
    }

    // A constant input as an initializer, so that data propagation sees its values.
    bool encodeConstant(const Value& v, onnx::TensorProto& t)
    {
        if (!v.constant)
            return false;
        t.set_name(v.name);
        t.set_data_type(v.elemType);
        for (std::int64_t d : v.shape)
            t.add_dims(d);
        const ConstTensor& c = *v.constant;
        switch (v.elemType) {
        case onnx::TensorProto::FLOAT:
            for (std::size_t i = 0; i < c.size(); ++i)
                t.add_float_data(float(c.real(i)));
            return true;
        case onnx::TensorProto::DOUBLE:
            for (std::size_t i = 0; i < c.size(); ++i)
                t.add_double_data(c.real(i));
            return true;
        case onnx::TensorProto::INT64:
            for (std::size_t i = 0; i < c.size(); ++i)
                t.add_int64_data(c.integer(i));
            return true;
        case onnx::TensorProto::INT32:
        case onnx::TensorProto::INT16:
        case onnx::TensorProto::INT8:
        case onnx::TensorProto::UINT8:
        case onnx::TensorProto::BOOL:
            for (std::size_t i = 0; i < c.size(); ++i)
                t.add_int32_data(std::int32_t(c.integer(i)));
            return true;
        default:
            return false;
        }
    }

} // namespace

std::vector<std::optional<std::pair<int, std::vector<std::int64_t>>>> libraryNodeShapes(
    const Context& ctx, const NodeRec& node, std::string& error)
{
    std::vector<std::optional<std::pair<int, std::vector<std::int64_t>>>> results(node.outputs.size());
    const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(node.opType, node.opset, node.domain);
    if (!schema || !node.proto) {
        error = "the op has no schema in ONNX 1.12";
        return results;
    }
    if (!typesFit(ctx, node, *schema, error))
        return results;
    onnx::ModelProto model;
    model.set_ir_version(8);
    for (const auto& [domain, version] : ctx.opsets) {
        auto* opset = model.add_opset_import();
        opset->set_domain(domain);
        opset->set_version(version);
    }
    onnx::GraphProto* graph = model.mutable_graph();
    onnx::NodeProto* copy = graph->add_node();
    *copy = *node.proto;
    copy->clear_input();
    copy->clear_output();
    std::vector<int> added;
    for (int id : node.inputs) {
        copy->add_input(id < 0 ? std::string() : ctx.value(id).name);
        if (id < 0 || std::find(added.begin(), added.end(), id) != added.end())
            continue;
        added.push_back(id);
        const Value& v = ctx.value(id);
        onnx::TensorProto constant;
        if (encodeConstant(v, constant)) {
            *graph->add_initializer() = std::move(constant);
            continue;
        }
        auto* input = graph->add_input();
        input->set_name(v.name);
        auto* tensor = input->mutable_type()->mutable_tensor_type();
        tensor->set_elem_type(v.elemType);
        auto* shape = tensor->mutable_shape();
        for (std::int64_t d : v.shape)
            shape->add_dim()->set_dim_value(d);
    }
    for (int id : node.outputs)
        copy->add_output(id < 0 ? std::string() : ctx.value(id).name);
    try {
        onnx::ShapeInferenceOptions options(false, 1, true);
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const onnx::InferenceError& e) {
        error = e.what();
        return results;
    } catch (const onnx::checker::ValidationError& e) {
        error = e.what();
        return results;
    } catch (const std::exception& e) {
        error = e.what();
        return results;
    }
    for (const auto& info : graph->value_info()) {
        for (std::size_t o = 0; o < node.outputs.size(); ++o) {
            if (node.outputs[o] < 0 || info.name() != ctx.value(node.outputs[o]).name)
                continue;
            const auto& type = info.type();
            if (!type.has_tensor_type() || !type.tensor_type().has_shape())
                continue;
            std::vector<std::int64_t> dims;
            bool complete = true;
            for (const auto& d : type.tensor_type().shape().dim()) {
                complete = complete && d.has_dim_value();
                dims.push_back(d.dim_value());
            }
            if (complete)
                results[o] = std::make_pair(type.tensor_type().elem_type(), std::move(dims));
        }
    }
    return results;
}

} // namespace elk::import::onnx_detail
