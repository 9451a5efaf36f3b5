// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The engine facade for what a run produces, beyond RunResult (run_compile.h): what the app, the CLI
// and the widgets may use of engine/schedule and engine/sim. A front end includes this header, never
// those folders (check_layers.cmake refuses it).
//
// - schedule::Design and its names, schedule::Schedule and its Steps (the Gantt's rows);
// - the emitted per-core program of a design: lowerProgram, programText, programJson;
// - sim::SimResult: per-step traces, link loads, the bound gap and its causes.

#include "engine/schedule/program.h"
#include "engine/schedule/schedule.h"
#include "engine/sim/sim_result.h"
