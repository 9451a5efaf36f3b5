// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QString>
#include <QStringList>

#include "widgets/timeline/timeline_geometry.h"

namespace elk::run {
struct RunResult;
}

namespace elk::widgets {

/// The lanes of the Gantt timeline, top to bottom.
enum class GanttLane { Preload, Execute, Stall };

/// What the timeline shows of one execution step (times in cycles from the first call).
struct GanttOp {
    int step = 0;
    QString name;
    QString kind; ///< model::toString(OpKind), e.g. "matmul"; empty when the graph is unknown
    double preloadStart = 0, preloadEnd = 0; ///< equal for an op that loads nothing
    double executeStart = 0, executeEnd = 0;
    double warmupEnd = 0; ///< execute phases back to back: warm-up, compute, shift + reduce
    double computeEnd = 0;
    double preloadStallCycles = 0;
    double executeStallCycles = 0;
    QString waitedFor; ///< "preload", "execute" or ""
    qint64 preloadBytesPerCore = -1; ///< -1: unknown (no schedule)
    qint64 executeBytesPerCore = -1;
    qint64 hbmBytes = -1; ///< read from HBM for this step
    QString plan; ///< execute plan's spatial split, e.g. "b/4 × n/368 (1472 cores)"; empty when unknown
    int partCount = 1; ///< parts its operator was split into
};

/// One design's simulated timeline, ready to draw: ops by step and each lane's bars sorted by start.
struct GanttData {
    double clockHz = 0;
    double latencyCycles = 0;
    QString design; ///< "elk-full"
    std::vector<GanttOp> ops; ///< by step
    std::vector<LaneBar> preloadLane; ///< steps with a non-empty preload
    std::vector<LaneBar> executeLane; ///< steps with a non-empty execution
    /// Interconnect stalls (tag 0: the last executeStallCycles of an execution) and waits for a
    /// preload (tag 1: from the previous execution's end to this one's start).
    std::vector<LaneBar> stallLane;
    QStringList kinds; ///< op kinds present, in first-seen order

    bool empty() const { return ops.empty(); }
    const std::vector<LaneBar>& lane(GanttLane which) const;
};

/// The timeline of design `designIndex` of `run` (simulated); empty when that design has no simulation.
GanttData buildGanttData(const run::RunResult& run, int designIndex);

/// The hover text of one op: name, kind, step, intervals in µs, bytes and plan (several lines).
QString ganttToolTip(const GanttData& data, int step, GanttLane lane);

} // namespace elk::widgets
