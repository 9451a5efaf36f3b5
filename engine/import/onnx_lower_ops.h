// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Per-op planners of the lowering (dispatched by planOp in onnx_lower_ops.cpp).

#include "engine/import/onnx_lowering.h"

namespace elk::import::onnx_detail {

// onnx_lower_ops.cpp
bool planGeneric(Lowering& L, const NodeRec& node, bool dataMovement);
/// The generic op over explicit input values (right-aligned equal axes shared, others separate).
bool planGenericFrom(Lowering& L, const NodeRec& node, const std::vector<int>& inputs, bool dataMovement);
/// A concatenation of views along `axis` into output 0 (equal parts: a select over [parts, part]).
bool planConcatParts(Lowering& L, const NodeRec& node, const std::vector<View>& parts, int axis);

// onnx_sequences.cpp
bool planSequenceAt(Lowering& L, const NodeRec& node);
bool planConcatFromSequence(Lowering& L, const NodeRec& node);

// onnx_lower_spatial.cpp: ops with sliding windows or sub-ranges
bool planConv(Lowering& L, const NodeRec& node);
bool planConvTranspose(Lowering& L, const NodeRec& node);
bool planPool(Lowering& L, const NodeRec& node);
bool planResample(Lowering& L, const NodeRec& node);
bool planSlice(Lowering& L, const NodeRec& node);
bool planSplit(Lowering& L, const NodeRec& node);
bool planConcat(Lowering& L, const NodeRec& node);
bool planGather(Lowering& L, const NodeRec& node);
bool planRecurrent(Lowering& L, const NodeRec& node);

/// How a resampled axis maps input to output indices.
enum class ResampleMode { PadCrop, Scale, Tile };

/// Adds the loop axes that map input axis `axis` (extent `in`, operand 1) to output axis `axis`
/// (extent `out`, operand 0) of a copy-like op: shared when equal, else a window on the larger side.
void addResampleAxis(PlannedOp& op, int axis, std::int64_t in, std::int64_t out, ResampleMode mode);

} // namespace elk::import::onnx_detail
