// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/import/import_result.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elk::import {

/// Imports an ONNX model (binary ModelProto) into the Graph IR. Shapes only: weight bytes are never
/// read, and external-data initializers may point at files that do not exist.
/// Contract: never throws for bad input; every problem is an ImportIssue naming node, op type and
/// domain (unsupported ops are all listed in one pass). A result without errors holds a graph
/// for which Graph::validate() reports nothing.
///
/// What the graph holds (the reasons are in the engine/import/onnx_*.cpp files):
/// - Opsets 1..21 and IR 3..10. Shapes come from the importer's own rules at every opset (ONNX
///   1.12's shape inference stops at 17 and silently misreads opset-18 ops); ONNX shape inference
///   runs only for ops without an own rule in opset <= 17 models, and declared value_info last.
/// - Ops that re-view memory are not ops: Reshape, Flatten, Squeeze, Unsqueeze, Identity,
///   Dropout, Expand (a broadcast view), Transpose (a layout choice the partitioner makes per op),
///   DepthToSpace/SpaceToDepth, and a Cast to the same storage type. Their readers index the
///   stored tensor directly, so a stored tensor's Graph IR shape drops size-1 axes and splits
///   axes where a view regroups them ([B, S, 4096] read as heads is stored as [B, S, 32, 128]).
/// - Computations on constants and shapes are folded (no op). Initializers and other constant
///   tensors read by ops are `weight`s; one-element constants are immediates of the op reading them.
/// - KV caches (graph inputs and outputs named like past_key/past_value/present/kv_cache, or whose
///   KV-length dim is bound via DimBindings::kvLen) are `kv_cache`; a Concat onto a cached input
///   appends in place: the grown cache is read from HBM, the new entries are `kv_cache` outputs.
/// - If/Loop/Scan are inlined (a constant condition picks its branch, else the larger one; loops
///   with a trip count known at import time are unrolled). Sequences built inside the graph are
///   tracked as their tensors; sequence-, map- and optional-typed graph inputs and outputs, string
///   tensors, empty tensors a graph input declares and custom-domain ops are refused.
ImportResult importOnnxFile(const std::string& path, const ImportOptions& options);

/// Same, from bytes already in memory; `displayName` names the model in messages and becomes the
/// graph's name when the model has none.
ImportResult importOnnxBytes(std::string_view bytes, const std::string& displayName, const ImportOptions& options);

/// What the importer saw at the ONNX level, before lowering: shapes as the ONNX graph states them
/// (the Graph IR's tensors drop size-1 axes and split axes where reshapes regroup them).
struct OnnxImportDetails {
    std::int64_t irVersion = 0;
    int opset = 0; ///< default domain
    /// Graph inputs (initializers excluded) with their declared dims as text: "3", a dim name, or
    /// "?" for a dim with neither.
    std::vector<std::pair<std::string, std::vector<std::string>>> inputs;
    /// Graph outputs in file order with their shapes (empty list for a rejected model).
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> outputShapes;
    /// Every shaped value of the main graph (inputs, initializers, node outputs) by name.
    std::map<std::string, std::vector<std::int64_t>> valueShapes;
};

/// Same as above, also filling `details` (as far as the import got).
ImportResult importOnnxBytes(
    std::string_view bytes, const std::string& displayName, const ImportOptions& options, OnnxImportDetails& details);

} // namespace elk::import
