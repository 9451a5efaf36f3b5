// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The Elk artifact's model front end, reproduced for parity (elk-reference.md §1.1–§1.4): an
// einstein_v2 node dump becomes the flat op list the artifact's scheduler sees, quirks included
// (on-chip flags only from the immediately preceding op, GatherV2 dropped, seq = 1 for every non-KV
// op of a decode step, Concat consumers reading an external tensor, the capacity split). It is a
// re-implementation from that description, not the artifact's code. The real importer with proper
// semantics is einstein_importer.h; this one exists to reproduce the artifact's numbers.

namespace elk::import::artifact {

/// The artifact's op type ids (elk-reference.md §1.2 step 6).
enum class OpType : int { Reduce = 0, Unary = 1, Element = 2, Pool = 3, Conv = 4, MatMul = 5, Gather = 6, Slice = 8 };

struct Op {
    std::string name; ///< "Op_<index>_<NodeType>" (index in the final list)
    std::string nodeType; ///< e.g. "Dot", "BatchMatMul", "SoftmaxBasic"
    OpType type = OpType::Element;
    std::vector<std::int64_t> dims; ///< loop extents after placeholder substitution
    std::vector<std::vector<std::vector<int>>> tensors; ///< [tensor][axis][k]: loop-dim indices; tensor 0 = output; an
                                                        ///< axis has 1 index, or 2 for a sliding window
    std::vector<bool> onchip; ///< one per input (tensors.size() - 1): true = not loaded from HBM
    std::int64_t sourceNode = 0; ///< node id in the file it came from
    /// Per loop dim, its step inside a sliding-window axis: the conv/pool stride `s` of `HO * s + KH`
    /// on HO/WO (D0/D1), 1 elsewhere; empty = all 1. The window axis (HO, KH) then spans
    /// HO·s + KH − 1 input elements (this is what makes the §1.4 HBM figures of resnet/vit come out).
    std::vector<std::int64_t> strides;
    /// Producer id per input, parallel to `onchip` (a Concat id or an id naming no node = external).
    std::vector<std::int64_t> inputIds;
    bool kv = false; ///< a KV BatchMatMul of a decode step (§1.2 step 6 "KV detection")
};

struct ParseOptions {
    std::int64_t batch = 1;
    std::int64_t seq = 1; ///< 1 = decode step (launch.py inference passes seq 1)
    std::int64_t kvLen = 256; ///< KV length for KV ops when seq == 1
    std::int64_t capacityMB = 0; ///< num_cores // split_factor (training: // (split_factor + 1)); 0 = no capacity split
    std::string modelName; ///< file name without extension, e.g. "llama2-13" (GatherV2 rule, retnet)
    /// The artifact's rule (§1.2 step 3): an input is on chip only when the op just before produced or
    /// read it; everything else, activations of earlier ops included, is loaded from HBM. false: an
    /// input produced by any earlier op is on chip (only weights, the KV cache and model inputs load).
    bool onchipOnlyFromPrevious = true;
    /// The artifact drops GatherV2 (the embedding lookup) for a decode step and the LLM files (§1.2 step 5).
    bool dropGatherV2 = true;
};

struct ParseResult {
    std::vector<Op> ops;
    std::string error; ///< names the node id / field and what was expected; empty on success
    bool ok() const { return error.empty(); }
};

/// Parses one `models/original/<model>.json` text. Never throws: a bad file gives `error`.
ParseResult parseModel(std::string_view jsonText, const ParseOptions& options);

/// Elements of tensor `tensor` (0 = output) of `op`: the product over its axes of the axis extent
/// (a sliding-window axis spans Σ dims·strides − (len − 1)). HBM bytes = 2 × this for off-chip inputs.
std::int64_t tensorElements(const Op& op, std::size_t tensor);

/// The paper's layer counts and split factors of the artifact's figure scripts (elk-reference.md §6), by model name;
/// nothing for others.
struct ModelDefaults {
    int layers = 0;
    int splitFactor = 3;
};
std::optional<ModelDefaults> paperModelDefaults(std::string_view modelName);

} // namespace elk::import::artifact
