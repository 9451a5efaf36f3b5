// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/hlo/hlo_timeline_data.h"

#include <algorithm>

#include <QObject>

#include "engine/hlo/hlo_run.h"

namespace elk::widgets {

namespace {

    using elk::hlo::RegionKind;
    using elk::hlo::RegionReport;

    /// Keeps a lane's invariant (sorted, not overlapping) whatever the input: one stream per lane.
    /// Zero-length regions stay (a collective that moves nothing is drawn as a one-pixel tick).
    void normalise(std::vector<LaneBar>& bars)
    {
        std::stable_sort(
            bars.begin(), bars.end(), [](const LaneBar& a, const LaneBar& b) { return a.start < b.start; });
        double end = -1e300;
        std::vector<LaneBar> kept;
        kept.reserve(bars.size());
        for (LaneBar bar : bars) {
            bar.start = std::max(bar.start, end);
            if (!(bar.end >= bar.start))
                continue;
            end = bar.end;
            kept.push_back(bar);
        }
        bars = std::move(kept);
    }

    int collectiveIndex(QStringList& collectives, const std::string& name)
    {
        const QString text = name.empty() ? QStringLiteral("collective") : QString::fromStdString(name);
        qsizetype at = collectives.indexOf(text);
        if (at < 0) {
            collectives << text;
            at = collectives.size() - 1;
        }
        return int(at);
    }

} // namespace

int HloTimelineData::barCount(HloLaneKind kind) const
{
    int count = 0;
    for (const HloLane& lane : lanes) {
        if (lane.kind == kind)
            count += int(lane.bars.size());
    }
    return count;
}

std::vector<LaneBar> exposedCommunication(const elk::hlo::HloRunResult& result)
{
    // Busy intervals of the compute stream, merged.
    std::vector<std::pair<double, double>> busy;
    for (const RegionReport& region : result.regions) {
        if (region.kind == RegionKind::Compute && region.endSeconds > region.startSeconds)
            busy.emplace_back(region.startSeconds, region.endSeconds);
    }
    std::sort(busy.begin(), busy.end());
    std::vector<std::pair<double, double>> merged;
    for (const auto& interval : busy) {
        if (!merged.empty() && interval.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, interval.second);
        else
            merged.push_back(interval);
    }
    std::vector<LaneBar> exposed;
    for (std::size_t r = 0; r < result.regions.size(); ++r) {
        const RegionReport& region = result.regions[r];
        if (region.kind != RegionKind::Communication || !(region.endSeconds > region.startSeconds))
            continue; // nothing to wait for
        double from = region.startSeconds;
        auto it = std::lower_bound(merged.begin(), merged.end(), from,
            [](const std::pair<double, double>& interval, double t) { return interval.second <= t; });
        for (; it != merged.end() && it->first < region.endSeconds && from < region.endSeconds; ++it) {
            if (it->first > from)
                exposed.push_back({ from, it->first, int(r), 0 });
            from = std::max(from, it->second);
        }
        if (from < region.endSeconds)
            exposed.push_back({ from, region.endSeconds, int(r), 0 });
    }
    normalise(exposed);
    return exposed;
}

HloTimelineData buildHloTimeline(const HloResults& results)
{
    HloTimelineData data;
    std::vector<HloResultPtr> shown;
    for (const HloResultPtr& result : results) {
        if (result && result->ok() && !result->regions.empty())
            shown.push_back(result);
    }
    const int groups = int(shown.size());
    for (int g = 0; g < groups; ++g) {
        const elk::hlo::HloRunResult& result = *shown[std::size_t(g)];
        // The first result on top: group g's base counts down from the top.
        const double base = double(groups - 1 - g) * kHloGroupPitch;
        HloTimelineGroup group;
        group.result = shown[std::size_t(g)];
        group.label = hloResultLabel(result);
        group.labelY = base + 1.52;

        HloLane compute { g, HloLaneKind::Compute, base + 1.08, 0.28, {} };
        HloLane comm { g, HloLaneKind::Communication, base + 0.58, 0.17, {} };
        HloLane exposed { g, HloLaneKind::Exposed, base + 0.17, 0.08, {} };
        for (std::size_t r = 0; r < result.regions.size(); ++r) {
            const RegionReport& region = result.regions[r];
            if (region.kind == RegionKind::Compute) {
                compute.bars.push_back({ region.startSeconds, region.endSeconds, int(r), 0 });
            } else {
                comm.bars.push_back({ region.startSeconds, region.endSeconds, int(r),
                    collectiveIndex(data.collectives, region.collective) });
            }
        }
        exposed.bars = exposedCommunication(result);
        for (LaneBar& bar : exposed.bars)
            bar.tag = collectiveIndex(data.collectives, result.regions[std::size_t(bar.item)].collective);
        normalise(compute.bars);
        normalise(comm.bars);
        data.endSeconds = std::max(data.endSeconds, result.stepSeconds);
        for (const HloLane* lane : { &compute, &comm })
            if (!lane->bars.empty())
                data.endSeconds = std::max(data.endSeconds, lane->bars.back().end);

        group.computeLane = int(data.lanes.size());
        data.lanes.push_back(std::move(compute));
        group.commLane = int(data.lanes.size());
        data.lanes.push_back(std::move(comm));
        group.exposedLane = int(data.lanes.size());
        data.lanes.push_back(std::move(exposed));
        data.groups.push_back(std::move(group));
    }
    data.valueLower = -0.08;
    data.valueUpper = std::max(1.0, double(groups) * kHloGroupPitch - 0.25);
    return data;
}

QString hloRegionToolTip(const HloTimelineData& data, int laneIndex, int barIndex)
{
    if (laneIndex < 0 || std::size_t(laneIndex) >= data.lanes.size())
        return {};
    const HloLane& lane = data.lanes[std::size_t(laneIndex)];
    if (barIndex < 0 || std::size_t(barIndex) >= lane.bars.size())
        return {};
    const LaneBar& bar = lane.bars[std::size_t(barIndex)];
    const HloTimelineGroup& group = data.groups[std::size_t(lane.group)];
    const elk::hlo::HloRunResult& result = *group.result;
    const RegionReport& region = result.regions[std::size_t(bar.item)];
    const QString interval = formatTimeInterval(region.startSeconds, region.endSeconds, 1.0);
    QStringList lines;
    if (lane.kind == HloLaneKind::Exposed) {
        lines << QObject::tr("Exposed communication: %1").arg(hloSecondsText(bar.end - bar.start))
              << QObject::tr("%1 (region %2) while no compute runs")
                     .arg(QString::fromStdString(region.collective))
                     .arg(bar.item)
              << formatTimeInterval(bar.start, bar.end, 1.0);
    } else if (region.kind == RegionKind::Compute) {
        lines << QObject::tr("Region %1 · compute").arg(bar.item)
              << QObject::tr("%1 ops in %2 kernels").arg(region.ops).arg(region.kernels)
              << QObject::tr("%1 (%2)").arg(interval, hloSecondsText(region.seconds))
              << QObject::tr("estimator: %1%2")
                     .arg(QString::fromStdString(region.estimator),
                         region.cached ? QObject::tr(" (from the cache)") : QString())
              << QObject::tr("%1, %2 memory traffic").arg(hloFlopsText(region.flops), hloBytesText(region.bytes));
        if (region.seconds > 0 && region.flops > 0)
            lines << QObject::tr("attained %1").arg(hloRateText(region.flops / region.seconds));
    } else {
        lines << QObject::tr("Region %1 · %2").arg(bar.item).arg(QString::fromStdString(region.collective))
              << QObject::tr("%1 per device, group of %2").arg(hloBytesText(region.payloadBytes)).arg(region.groupSize)
              << QObject::tr("%1 (%2)").arg(interval, hloSecondsText(region.seconds))
              << QObject::tr("%1 sent per device · %2")
                     .arg(hloBytesText(region.bytes), QString::fromStdString(region.estimator));
    }
    lines << group.label;
    return lines.join(QLatin1Char('\n'));
}

} // namespace elk::widgets
