// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/model/tensor_expr.h"

namespace elk::model {

/// The same computation over fewer loop dimensions: drops loop dims of extent 1 and fuses two dims
/// into one wherever every operand that uses either uses both, as adjacent plain axes in the same
/// order (a [32, 3, 40, 2, 64, 5120] projection whose output axes only regroup becomes
/// [32, 15360, 5120]). Shapes' element counts, FLOPs and bytes are unchanged; partition searches get
/// the small dimension count the operator really has. Deterministic; the result validates when the
/// input does. An expression that cannot shrink comes back equal.
TensorExpr fuseLoopDims(const TensorExpr& expr);

} // namespace elk::model
