// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The engine facade for `elk fit-cost`: what a front end may use of engine/cost. It reads measured
// tile samples (readCostSamplesCsv), fits the `fitted` cost model (fitCostModel, FitOptions) and
// writes it as the chip's tile-cost JSON (fittedCostToJson). Front ends include this header, never
// engine/cost/ (check_layers.cmake refuses it).

#include "engine/cost/fitted_cost.h"
