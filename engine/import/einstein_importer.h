// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/import/import_result.h"

#include <string>
#include <string_view>

namespace elk::import {

/// Imports an NNFusion "einstein_v2" graph dump, the model format of the Elk artifact and of the
/// T10/Roller family: a JSON array of nodes `[id, "kernel text", "Type", [[input id, port], ...]]`
/// in execution order. Inputs naming no node are external tensors (weights, the token input).
///
/// Placeholders: extents 99 (batch), 66 (sequence), 6534 = 99·66 and multiples of 99 bind to
/// `options.dims.batch` / `seqLen`; when `kvLen` is set the graph is a decode step and attention
/// reads a KV cache of kvLen positions (scores, softmax and mask run over kvLen, the new K/V rows
/// are appended to the cache). An unbound placeholder is an error naming the node.
///
/// Semantics (see the report of the einstein importer for the reasons):
/// - Reshape / transpose / broadcast and Convert are views: no operator; consumers read the stored
///   tensor (a Convert's cast is fused into its consumers, as the artifact charges nothing for it).
/// - Concat of weights is folded into one packed weight; Concat of activations is one copy operator
///   (a Slice with one input per part: zero FLOPs, each part read once).
/// - Slices and paddings are data-movement operators (OpKind::Slice); GatherV2 is OpKind::Gather.
/// - The operator kind is read off the expression: a product of two tensors summed over an index is
///   MatMul (Conv with a sliding window), a lone reduction Reduce (Pool with a window), one input
///   Unary, several Elementwise; the four SoftmaxBasic stages become one Softmax.
///
/// Contract: never throws for bad input; every problem is an ImportIssue naming the node (its id and
/// type, and the column within its kernel text when the kernel is at fault) or the JSON line/column.
ImportResult importEinsteinFile(const std::string& path, const ImportOptions& options);

/// Same, from text already in memory; `displayName` names the model in messages and its stem (file
/// name without directory and ".json") becomes the graph's name.
ImportResult importEinsteinText(std::string_view json, const std::string& displayName, const ImportOptions& options);

} // namespace elk::import
