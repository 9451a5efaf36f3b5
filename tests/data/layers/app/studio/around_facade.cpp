// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// A deliberate include around the engine facade for tst_engine_layers: a front end reaches
// engine/chip only through engine/run/chips.h, so the layer check must refuse this file. Never compiled.
#include "engine/run/chips.h"
#include "engine/chip/presets.h"
