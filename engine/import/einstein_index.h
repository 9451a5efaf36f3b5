// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/import/einstein_expr_parser.h"

#include <cstdint>
#include <string>
#include <vector>

// Index expressions of the einstein importer (internal): `N2 * 128 + N3`, `N2 / 128 % 40`,
// `HO * 2 + KH - 1`, `N1 - 64`, `0`, `input1[N0]`.

namespace elk::import::einstein {

/// One summand: multiplier × (var / divisor % modulus); modulus 0 means none.
struct IndexTerm {
    std::string var;
    std::int64_t divisor = 1;
    std::int64_t modulus = 0;
    std::int64_t multiplier = 1;
    std::size_t column = 0;
    bool whole() const { return divisor == 1 && modulus == 0; }
};

struct IndexForm {
    bool supported = true; ///< false: see `why`
    std::vector<IndexTerm> terms;
    std::int64_t constant = 0;
    const Expr* nestedLoad = nullptr; ///< the index is itself a tensor element (a gather)
    std::size_t column = 0;
    std::string why;
};

/// Reads an index expression as a sum of terms plus a constant.
IndexForm analyzeIndex(const Expr& expr);

} // namespace elk::import::einstein
