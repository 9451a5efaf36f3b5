// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// A deliberate upward include for tst_engine_layers: engine/model is below engine/sim, so the layer
// check (engine/check_layers.cmake) must refuse this file. Never compiled.
#include "engine/model/graph.h"
#include "engine/sim/simulator.h"
