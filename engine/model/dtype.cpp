// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/model/dtype.h"

namespace elk::model {

int bytesPerElement(DType dtype)
{
    switch (dtype) {
    case DType::F64:
    case DType::I64:
        return 8;
    case DType::F32:
    case DType::I32:
        return 4;
    case DType::F16:
    case DType::BF16:
    case DType::I16:
        return 2;
    case DType::F8E4M3:
    case DType::F8E5M2:
    case DType::I8:
    case DType::U8:
    case DType::Bool:
        return 1;
    }
    return 0; // unreachable for valid enumerators
}

const char* toString(DType dtype)
{
    switch (dtype) {
    case DType::F64:
        return "f64";
    case DType::F32:
        return "f32";
    case DType::F16:
        return "f16";
    case DType::BF16:
        return "bf16";
    case DType::F8E4M3:
        return "f8e4m3";
    case DType::F8E5M2:
        return "f8e5m2";
    case DType::I64:
        return "i64";
    case DType::I32:
        return "i32";
    case DType::I16:
        return "i16";
    case DType::I8:
        return "i8";
    case DType::U8:
        return "u8";
    case DType::Bool:
        return "bool";
    }
    return "?";
}

std::optional<DType> dtypeFromString(std::string_view text)
{
    for (DType dtype : kAllDTypes) {
        if (text == toString(dtype))
            return dtype;
    }
    return std::nullopt;
}

} // namespace elk::model
