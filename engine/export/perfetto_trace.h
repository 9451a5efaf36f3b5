// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/export/named_sim_result.h"
#include "engine/sim/sim_result.h"

#include <span>
#include <string>

namespace elk::exports {

struct PerfettoOptions {
    /// Process name of the single-result form (the span form names each process after its design).
    std::string designName = "run";
    std::string engineVersion; ///< otherData.engine_version; left out when empty
    /// Written as the top-level "displayTimeUnit" (left out when empty). Timestamps are µs whatever
    /// this says: current Perfetto ignores the key, chrome://tracing uses it for display only.
    /// (Some Perfetto releases of 2022–23 read it as the unit of `ts`; pass "" for those.)
    std::string displayTimeUnit = "ns";
    bool phaseLane = true; ///< tid 3: warm-up / compute / shift / reduce slices
    bool stallLane = true; ///< tid 4: gaps on the execute lane, with what execute waited for
    bool counters = true; ///< HBM / NoC bandwidth (GB/s) and SRAM per core (KiB)
};

/// Chrome Trace Event JSON (object form) for Perfetto / chrome://tracing, deterministic bytes.
///
/// Layout (see ../shared/spec/formats-and-presets.md §3.1):
///  - One process per design: pid = 1 + index in `designs`; process_name = design name.
///  - Lanes are threads with globally unique small tids: tid = 10 × (pid − 1) + lane, lane 1 =
///    "execute", 2 = "preload", 3 = "execute phases", 4 = "stalls" (so pid 1 has tids 1..4, pid 2
///    has 11..14).
///  - `X` slices, one per op per lane: execute (cat "exec"), preload (cat "preload"; ops that load
///    nothing have no preload slice), phases (cat warmup|compute|shift|reduce; empty phases left
///    out), stalls (cat "stall": the execute lane idle before an op, named after what it waited for).
///  - `C` counters "HBM bandwidth" {GBps}, "NoC bandwidth" {GBps}, "SRAM per core" {KiB} from the
///    SimResult step functions (a sample equal to the previous one is dropped: same step function).
///  - otherData: designs [{name, pid, latency_ms, clock_hz}], engine_version, notes; with exactly
///    one design also design and latency_ms.
///
/// Times: ts/dur in µs = cycles ÷ clockHz × 1e6, rounded to whole nanoseconds (Perfetto's own
/// resolution, it reads µs × 1000 rounded). On each lane a slice starts no earlier than the previous
/// one ended (rounding and any overlap in the input are clamped away), so slices on one (pid, tid)
/// never overlap, as Perfetto requires.
///
/// Throws std::invalid_argument (naming the design, and the step where it applies) for a null
/// result, clockHz ≤ 0, or a non-finite time or counter value.
std::string perfettoTraceJson(std::span<const NamedSimResult> designs, const PerfettoOptions& options = {});

/// The single-design form: process 1, named options.designName.
std::string perfettoTraceJson(const sim::SimResult& result, const PerfettoOptions& options = {});

} // namespace elk::exports
