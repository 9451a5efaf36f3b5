// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The engine facade for chips: what the app, the CLI and the widgets may use of engine/chip. A front
// end includes this header, never engine/chip/ itself (check_layers.cmake refuses it), so the chip
// layer can change behind it.
//
// - ChipSpec, its parts (Topology, TileCostSpec, ...) and FieldError (field path + message);
// - elk.chip/1 JSON: chipSpecFromJson (every problem with its field), chipSpecToJson;
// - validateChipSpec, minimumSramBytesPerCore;
// - the built-in presets: builtinPresets, findBuiltinPreset, builtinPresetJson;
// - the numeric fields declared once: chipFields, findChipField (editor, sweeps, labels).

#include "engine/chip/chip_fields.h"
#include "engine/chip/chip_spec.h"
#include "engine/chip/chip_spec_json.h"
#include "engine/chip/chip_validate.h"
#include "engine/chip/presets.h"
