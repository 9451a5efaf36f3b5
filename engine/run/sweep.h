// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/run_control.h"
#include "engine/run/run_spec.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elk::store {
class ResultStore;
}

namespace elk::run {

struct ParityOptions;

/// One varied ChipSpec field: "field=start:stop:step" (numbers, stop included when on the grid) or
/// "field=a,b,c" (JSON values; bare words are strings, e.g. interconnect.topology=all-to-all,mesh2d).
struct SweepAxis {
    std::string field; ///< dotted or JSON pointer, as RunRequest::chipOverrides takes it
    std::vector<std::string> values; ///< JSON texts, in sweep order
    std::string label; ///< for axes: the field with its unit when known ("HBM bandwidth per stack (GB/s)")
};

struct SweepAxisParse {
    SweepAxis axis;
    std::string error; ///< e.g. "--vary hbm.bandwidthGBpsPerStack=2:1:1: stop below start"
    bool ok() const { return error.empty(); }
};
SweepAxisParse parseSweepAxis(std::string_view text);

/// One point of the grid (row-major over the axes, the first axis slowest).
struct SweepPoint {
    std::vector<int> index; ///< per axis
    std::vector<double> latencyMs; ///< per design of the sweep (simulated); NaN when that design failed
    std::string error; ///< why the whole point has no result (invalid chip, op too large, …)
    bool done = false;
    bool fromCache = false;
};

struct SweepResult {
    std::vector<SweepAxis> axes;
    std::vector<std::string> designs;
    std::vector<SweepPoint> points; ///< all grid points; `done` says which are filled in
    int doneCount() const;
};

/// A named one-click study (the paper's figures): latency vs HBM bandwidth, vs NoC link bandwidth,
/// vs core count, all-to-all vs mesh.
struct SweepPreset {
    std::string name; ///< "hbm-bandwidth", "noc-bandwidth", "core-count", "topology"
    std::string title;
    std::vector<std::string> varySpecs; ///< parseSweepAxis texts
};
const std::vector<SweepPreset>& sweepPresets();

/// Runs every grid point (RunRequest with the axes' overrides appended) on up to `threads` threads
/// (0: all hardware threads), each through run::runCached (store may be null) with summaries only.
/// `onPoint` is called (from worker threads, serialised) after each point with its index. Deterministic:
/// point results do not depend on the thread count or order. Stops early when control says so.
/// Points with equal partition keys share one compiled model (one search). Fields that must change
/// together follow an axis unless an override or axis names them: a 2D mesh gets the most square
/// width × height = coresPerChip, an all-to-all chip with edge HBM controllers gets "spread".
/// Progress: control.progress(pointsDone, points, "sweep").
/// One part of a sweep split across processes (Slurm array tasks, MPI ranks): the points whose index in
/// the canonical order (row-major, the first axis slowest) is ≡ index (mod count). The others stay
/// not done, so the CSV of a shard lists its points only; merged caches serve the whole grid.
struct SweepShard {
    int index = 0;
    int count = 1;
    bool contains(std::size_t point) const { return count <= 1 || int(point % std::size_t(count)) == index; }
};
/// "K/N" with 0 ≤ K < N; nothing (and `error` set) otherwise.
std::optional<SweepShard> parseSweepShard(std::string_view text, std::string& error);

/// `parity`: every point runs in artifact parity instead (runArtifactParity through the store's parity
/// table; the latencies are its analytic ones).
SweepResult runSweep(const RunRequest& base, const std::vector<SweepAxis>& axes, store::ResultStore* store,
    RunControl& control, int threads = 0, const std::function<void(const SweepResult&, int pointIndex)>& onPoint = {},
    const ParityOptions* parity = nullptr, SweepShard shard = {});

/// CSV: one row per point and design: axis columns, design, latency_ms, from_cache, error.
std::string sweepCsv(const SweepResult& result);

} // namespace elk::run
