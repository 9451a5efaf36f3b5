// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The geometry of the StableHLO step timeline, without painting: lanes, bars (seconds), labels and hit
// testing, so tests check what is drawn.

#include <vector>

#include <QString>
#include <QStringList>

#include "widgets/hlo/hlo_format.h"
#include "widgets/timeline/timeline_geometry.h"

namespace elk::hlo {
struct HloRunResult;
}

namespace elk::widgets {

enum class HloLaneKind { Compute, Communication, Exposed };

/// One lane of bars. LaneBar::item is the region index in its result; LaneBar::tag is the collective's
/// index in HloTimelineData::collectives (communication and exposed lanes), 0 for compute.
struct HloLane {
    int group = 0; ///< index of the shown result
    HloLaneKind kind = HloLaneKind::Compute;
    double y = 0; ///< centre, in value-axis units
    double halfHeight = 0;
    std::vector<LaneBar> bars; ///< sorted by start, not overlapping
};

/// One shown result: a compute lane, a communication lane and a thin exposed-communication lane.
struct HloTimelineGroup {
    HloResultPtr result;
    QString label; ///< "4x-a100-sxm-40gb · roofline"
    double labelY = 0; ///< where the label sits (value axis, above the compute lane)
    int computeLane = -1, commLane = -1, exposedLane = -1; ///< indices into lanes
};

struct HloTimelineData {
    std::vector<HloTimelineGroup> groups; ///< shown results, top to bottom
    std::vector<HloLane> lanes;
    QStringList collectives; ///< distinct collective names, in order of first appearance
    double endSeconds = 0; ///< the longest step
    double valueLower = 0, valueUpper = 1;

    bool empty() const { return groups.empty(); }
    /// Bars of one kind over all groups.
    int barCount(HloLaneKind kind) const;
};

/// Vertical pitch of one result's lane pair (value-axis units).
inline constexpr double kHloGroupPitch = 1.95;

/// Lanes for the results that ran (ok, with regions); the first result on top.
HloTimelineData buildHloTimeline(const HloResults& results);

/// The parts of every communication region during which the compute stream is idle: communication
/// the step waits for. Their total is HloRunResult::exposedCommSeconds (up to rounding). item: region.
std::vector<LaneBar> exposedCommunication(const elk::hlo::HloRunResult& result);

/// Hover text of a bar: what the region is, when, how long, who priced it, bytes, FLOPs.
QString hloRegionToolTip(const HloTimelineData& data, int lane, int bar);

} // namespace elk::widgets
