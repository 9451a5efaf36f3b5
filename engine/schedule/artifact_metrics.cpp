// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The figure scripts' derived metrics (elk-reference.md §5.4) from a parity schedule.
#include "engine/schedule/artifact_metrics.h"

#include <algorithm>
#include <cmath>

namespace elk::schedule::artifact {

namespace {

    struct Span {
        double start = 0, end = 0;
        double fraction = 0; ///< busy (execution) or HBM (preload) fraction
    };

    /// Spans sorted by start; the lists are serialised (no two overlap), so one pointer per list
    /// finds what is active in an elementary segment.
    double fractionAt(const std::vector<Span>& spans, std::size_t& cursor, double from, double to)
    {
        while (cursor < spans.size() && spans[cursor].end <= from)
            ++cursor;
        if (cursor < spans.size() && spans[cursor].start <= from && spans[cursor].end >= to)
            return spans[cursor].fraction;
        return 0;
    }

} // namespace

ParityMetrics parityMetrics(const std::vector<ParityOp>& ops, const ParityKnobs& knobs, const ParitySchedule& schedule)
{
    ParityMetrics metrics;
    const double cyclesPerMs = knobs.cyclesPerMs;
    const double latencyCycles = schedule.latencyCycles;
    metrics.latencyMs = latencyCycles / cyclesPerMs;
    if (latencyCycles <= 0)
        return metrics;

    std::vector<double> hbmCycles(ops.size(), 0.0);
    double sumHbm = 0, sumNocLoad = 0, sumComm = 0;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const ParityOp& op = ops[i];
        const double minCold = double(op.plans->minColdBytes());
        hbmCycles[i] = minCold * double(knobs.cores) * cyclesPerMs / (double(1 << 20) * knobs.hbmMiBPerMs);
        sumHbm += hbmCycles[i];
        if (i < schedule.preload.size() && i < schedule.nocIdle.size())
            sumNocLoad += schedule.preload[i].length() - schedule.nocIdle[i];
        if (i < schedule.compComm.size())
            sumComm += schedule.compComm[i].second;
        double product = 2;
        for (std::int64_t dim : op.dims)
            product *= double(dim);
        metrics.flops += product;
    }
    metrics.hbmUtilization = sumHbm / latencyCycles;
    metrics.nocLoadUtilization = sumNocLoad / latencyCycles;
    metrics.nocShiftUtilization = sumComm / latencyCycles;
    const double latencyMs = metrics.latencyMs;
    metrics.tflops = metrics.flops / (latencyMs * 1e-3) / 1e12;
    metrics.tflopsArtifact = metrics.flops / latencyMs * 1000.0 / std::pow(2.0, 41);

    // Breakdown: elementary segments between every interval boundary.
    std::vector<Span> executions, preloads;
    std::vector<double> cuts;
    for (std::size_t i = 0; i < ops.size() && i < schedule.execute.size(); ++i) {
        const Interval& e = schedule.execute[i];
        const double length = e.length();
        if (length <= 0)
            continue;
        const double busy = i < schedule.compComm.size() ? schedule.compComm[i].first + schedule.compComm[i].second : 0;
        executions.push_back({ e.startCycles, e.endCycles, busy / length });
        cuts.push_back(e.startCycles);
        cuts.push_back(e.endCycles);
    }
    for (std::size_t i = 0; i < ops.size() && i < schedule.preload.size(); ++i) {
        const Interval& p = schedule.preload[i];
        const double length = p.length();
        if (length <= 0)
            continue;
        preloads.push_back({ p.startCycles, p.endCycles, hbmCycles[i] / length });
        cuts.push_back(p.startCycles);
        cuts.push_back(p.endCycles);
    }
    auto byStart = [](const Span& a, const Span& b) { return a.start < b.start; };
    std::sort(executions.begin(), executions.end(), byStart);
    std::sort(preloads.begin(), preloads.end(), byStart);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    double overlap = 0, preloadOnly = 0, executeOnly = 0;
    std::size_t executionCursor = 0, preloadCursor = 0;
    for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
        const double from = cuts[c], to = cuts[c + 1], d = to - from;
        const double a = fractionAt(executions, executionCursor, from, to);
        const double h = fractionAt(preloads, preloadCursor, from, to);
        overlap += h * a * d;
        preloadOnly += (h - h * a) * d;
        executeOnly += (a - h * a) * d;
    }
    metrics.overlapMs = overlap / cyclesPerMs;
    metrics.preloadOnlyMs = preloadOnly / cyclesPerMs;
    metrics.executeOnlyMs = executeOnly / cyclesPerMs;
    metrics.interconnectMs = metrics.latencyMs - metrics.overlapMs - metrics.preloadOnlyMs - metrics.executeOnlyMs;
    return metrics;
}

} // namespace elk::schedule::artifact
