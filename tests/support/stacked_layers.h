// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Test builder: a multi-layer graph made by repeating a one-layer graph (such as
// sample_models/llama2-13b-layer-decode.elk.json), independent of the model front ends.
#pragma once

#include "engine/model/graph.h"

#include <string>
#include <vector>

namespace elk::test {

/// `count` copies of `layer`, in program order. Layer l > 0 reads layer l - 1's output where `layer`
/// reads its first declared input; every other tensor is copied per layer with ".l" appended to its
/// name. The result's inputs are the layer's inputs (once); its outputs are every layer's outputs
/// except the chained one, which only the last layer hands back.
/// Contract: `layer` is valid and its first output is the one chained to the next layer's first input.
inline model::Graph stackLayers(const model::Graph& layer, int count, const std::string& name)
{
    model::Graph graph;
    graph.setName(name);
    const model::TensorId chainIn = layer.inputs().at(0);
    const model::TensorId chainOut = layer.outputs().back();
    model::TensorId previousOut = 0;
    for (int l = 0; l < count; ++l) {
        std::vector<model::TensorId> map(layer.tensors().size());
        for (model::TensorId t = 0; t < layer.tensors().size(); ++t) {
            const model::Tensor& tensor = layer.tensor(t);
            if (t == chainIn && l > 0) {
                map[t] = previousOut;
                continue;
            }
            map[t] = graph.addTensor(tensor.name + "." + std::to_string(l), tensor.shape, tensor.dtype, tensor.role);
            if (t == chainIn)
                graph.addInput(map[t]);
        }
        for (const model::Op& op : layer.ops()) {
            std::vector<model::TensorId> tensors;
            for (model::TensorId t : op.tensors)
                tensors.push_back(map[t]);
            graph.addOp(op.name + "." + std::to_string(l), layer.expressions().at(op.expr), tensors, op.dimNames);
        }
        for (model::TensorId out : layer.outputs()) {
            if (out != chainOut || l + 1 == count)
                graph.addOutput(map[out]);
        }
        previousOut = map[chainOut];
    }
    return graph;
}

} // namespace elk::test
