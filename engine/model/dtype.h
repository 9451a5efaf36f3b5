// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace elk::model {

/// Element type of a tensor. Byte sizes are real (fp16 = 2, fp32 = 4, int8 = 1): unlike the
/// artifact, which charged 2 bytes for every element, costs follow the declared type.
enum class DType { F64, F32, F16, BF16, F8E4M3, F8E5M2, I64, I32, I16, I8, U8, Bool };

inline constexpr std::array<DType, 12> kAllDTypes = { DType::F64, DType::F32, DType::F16, DType::BF16, DType::F8E4M3,
    DType::F8E5M2, DType::I64, DType::I32, DType::I16, DType::I8, DType::U8, DType::Bool };

/// Storage bytes of one element (Bool is stored as one byte).
int bytesPerElement(DType dtype);

/// "f64" "f32" "f16" "bf16" "f8e4m3" "f8e5m2" "i64" "i32" "i16" "i8" "u8" "bool"
const char* toString(DType dtype);

/// Inverse of toString(DType); exact, case-sensitive match. nullopt for anything else.
std::optional<DType> dtypeFromString(std::string_view text);

} // namespace elk::model
