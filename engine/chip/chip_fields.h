// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Every numeric chip field declared once: where it lives in the JSON, its type, allowed range and unit,
// and how people see it (editor label and help, sweep-axis label). The JSON reader and writer,
// validation, the chip editor form, the sweep panel and the sweep labels all read this table, so a
// new field is one row here plus its member in ChipSpec.
#pragma once

#include "engine/chip/chip_spec.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace elk::chip {

enum class FieldType { Int, Int64, Double };

/// Where a field's value lives in a ChipSpec, with its C++ type.
using FieldRef = std::variant<int*, std::int64_t*, double*>;

/// When a field applies (the editor hides it otherwise; validation checks only its finiteness).
enum class FieldScope { Always, Roofline, Mesh };

/// How validation checks the value against [minValue, maxValue].
enum class RangeRule {
    Closed, ///< minValue <= v <= maxValue
    Positive, ///< 0 < v <= maxValue (minValue is 0)
    Custom, ///< checked by its own rule in chip_validate.cpp (the range is still the editor's)
};

struct ChipField {
    std::string_view pointer; ///< JSON pointer, e.g. "/hbm/stacksPerChip"
    FieldType type = FieldType::Double;
    FieldScope scope = FieldScope::Always;
    RangeRule rule = RangeRule::Closed;
    double minValue = 0, maxValue = 0; ///< in the stored unit
    std::string_view unit; ///< of the stored value, as validation messages write it after the number ("GB/s")
    std::string_view label; ///< editor label, within its group ("Stacks per chip")
    std::string_view help; ///< editor tooltip: what the field means
    std::string_view group; ///< editor group ("HBM")
    std::string_view editorUnit; ///< the unit the editor shows ("KiB" for bytes)
    double editorScale = 1; ///< stored value = shown value × editorScale
    int editorDecimals = 0;
    bool sweepable = false; ///< offered as a sweep axis in elk-studio
    std::string_view axisLabel; ///< sweep-axis label, with the unit ("HBM stacks per chip")
    /// The member this row describes, typed (integers stay exact in the JSON code).
    FieldRef (*ref)(ChipSpec&) = nullptr;
    bool optional = false; ///< the JSON key may be absent (then 0)

    double get(const ChipSpec& spec) const;
    void set(ChipSpec& spec, double value) const; ///< rounds toward zero for an integer field

    bool integer() const { return type != FieldType::Double; }
    /// "hbm.stacksPerChip": the pointer in the dotted form `--set` and sweeps accept.
    std::string dotted() const;
    /// The object the field sits in ("/hbm"; "" for the root) and its key ("stacksPerChip").
    std::string_view parent() const;
    std::string_view key() const;
};

/// The table, in the order the editor shows and the JSON reader reads the fields.
std::span<const ChipField> chipFields();

/// The field named by a JSON pointer ("/hbm/stacksPerChip") or its dotted form; null if none.
const ChipField* findChipField(std::string_view name);

} // namespace elk::chip
