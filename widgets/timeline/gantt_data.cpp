// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/gantt_data.h"

#include <algorithm>

#include "engine/run/run_compile.h"
#include "widgets/model/quantity_format.h"

namespace elk::widgets {

namespace {

    /// "b/4 × n/368 (1472 cores)": the loop dims an execute plan splits across cores, with their names.
    QString spatialSplit(const partition::Plan& plan, const std::vector<std::string>& dimNames)
    {
        QStringList parts;
        qint64 cores = 1;
        for (std::size_t d = 0; d < plan.spatial.size(); ++d) {
            if (plan.spatial[d] <= 1)
                continue;
            cores *= plan.spatial[d];
            const QString name = d < dimNames.size() && !dimNames[d].empty() ? QString::fromStdString(dimNames[d])
                                                                             : QStringLiteral("d%1").arg(d);
            parts << name + QLatin1Char('/') + QString::number(plan.spatial[d]);
        }
        if (parts.isEmpty())
            return QStringLiteral("not split (1 core)");
        return parts.join(QStringLiteral(" × ")) + QStringLiteral(" (%1 cores)").arg(cores);
    }

    void fillFromCompiler(const run::RunResult& run, const schedule::ScheduleProblem& problem,
        const schedule::Schedule* schedule, std::vector<GanttOp>& ops)
    {
        const run::CompiledModel* compiled = run.compiled.get();
        for (GanttOp& op : ops) {
            const auto step = static_cast<std::size_t>(op.step);
            std::vector<std::string> dimNames;
            if (compiled) {
                const auto& steps = problem.steps;
                const int graphStep = step < steps.size() ? steps[step].graphStep : op.step;
                if (step < steps.size())
                    op.partCount = steps[step].parts;
                const auto& order = compiled->analysis.order;
                if (graphStep >= 0 && static_cast<std::size_t>(graphStep) < order.size()) {
                    const model::OpId id = order[static_cast<std::size_t>(graphStep)];
                    const model::Graph& graph = compiled->model.graph;
                    op.kind = QString::fromLatin1(model::toString(graph.exprOf(id).kind));
                    dimNames = graph.op(id).dimNames;
                }
            }
            if (step >= problem.steps.size())
                continue;
            const std::uint32_t planSet = problem.steps[step].planSet;
            const partition::OpPlans* plans = planSet < problem.planSets.size() ? problem.planSets[planSet] : nullptr;
            if (!plans)
                continue;
            op.hbmBytes = plans->hbmBytes;
            if (!schedule || step >= schedule->steps.size())
                continue;
            const schedule::StepSchedule& chosen = schedule->steps[step];
            op.preloadBytesPerCore = chosen.preloadBytes;
            op.executeBytesPerCore = chosen.executeBytes;
            if (chosen.tableEntry < plans->table.size()) {
                const std::uint32_t planIndex = plans->table[chosen.tableEntry].executePlan;
                if (planIndex < plans->plans.size())
                    op.plan = spatialSplit(plans->plans[planIndex], dimNames);
            }
        }
    }

    QString microseconds(double cycles, double clockHz)
    {
        const double us = cycles / clockHz * 1e6;
        return QString::number(us, 'f', us < 10 ? 3 : us < 1000 ? 2 : 1);
    }

} // namespace

const std::vector<LaneBar>& GanttData::lane(GanttLane which) const
{
    switch (which) {
    case GanttLane::Preload:
        return preloadLane;
    case GanttLane::Execute:
        return executeLane;
    case GanttLane::Stall:
        break;
    }
    return stallLane;
}

GanttData buildGanttData(const run::RunResult& run, int designIndex)
{
    GanttData data;
    if (designIndex < 0 || static_cast<std::size_t>(designIndex) >= run.designs.size())
        return data;
    const run::DesignRun& design = run.designs[static_cast<std::size_t>(designIndex)];
    if (!design.simulated)
        return data;
    const sim::SimResult& sim = *design.simulated;
    data.clockHz = sim.clockHz > 0 ? sim.clockHz : run.spec.chip.clockHz;
    data.latencyCycles = sim.latencyCycles;
    data.design = QString::fromLatin1(schedule::toString(design.design));
    data.ops.resize(sim.steps.size());
    for (std::size_t i = 0; i < sim.steps.size(); ++i) {
        const sim::StepTrace& trace = sim.steps[i];
        GanttOp& op = data.ops[i];
        op.step = static_cast<int>(i);
        op.name
            = i < sim.stepNames.size() ? QString::fromStdString(sim.stepNames[i]) : QStringLiteral("step %1").arg(i);
        op.preloadStart = trace.preload.startCycles;
        op.preloadEnd = trace.preload.endCycles;
        op.executeStart = trace.execute.startCycles;
        op.executeEnd = trace.execute.endCycles;
        op.warmupEnd = std::clamp(trace.warmup.endCycles, op.executeStart, op.executeEnd);
        op.computeEnd = std::clamp(trace.compute.endCycles, op.warmupEnd, op.executeEnd);
        op.preloadStallCycles = trace.preloadStallCycles;
        op.executeStallCycles = trace.executeStallCycles;
        op.waitedFor = QString::fromStdString(trace.waitedFor);
    }
    fillFromCompiler(run, run.problemOf(design), design.schedule ? &*design.schedule : nullptr, data.ops);

    double previousExecuteEnd = 0;
    for (const GanttOp& op : data.ops) {
        if (!op.kind.isEmpty() && !data.kinds.contains(op.kind))
            data.kinds << op.kind;
        if (op.preloadEnd > op.preloadStart)
            data.preloadLane.push_back({ op.preloadStart, op.preloadEnd, op.step, 0 });
        if (op.executeEnd > op.executeStart)
            data.executeLane.push_back({ op.executeStart, op.executeEnd, op.step, 0 });
        if (op.waitedFor == QLatin1String("preload") && op.executeStart > previousExecuteEnd)
            data.stallLane.push_back({ previousExecuteEnd, op.executeStart, op.step, 1 });
        if (op.executeStallCycles > 0) {
            const double stall = std::min(op.executeStallCycles, op.executeEnd - op.executeStart);
            data.stallLane.push_back({ op.executeEnd - stall, op.executeEnd, op.step, 0 });
        }
        previousExecuteEnd = std::max(previousExecuteEnd, op.executeEnd);
    }
    // Preloads run in preload order (elk-full reorders them); lanes must be sorted by start.
    const auto byStart = [](const LaneBar& a, const LaneBar& b) { return a.start < b.start; };
    std::stable_sort(data.preloadLane.begin(), data.preloadLane.end(), byStart);
    std::stable_sort(data.executeLane.begin(), data.executeLane.end(), byStart);
    std::stable_sort(data.stallLane.begin(), data.stallLane.end(), byStart);
    return data;
}

QString ganttToolTip(const GanttData& data, int step, GanttLane lane)
{
    if (step < 0 || static_cast<std::size_t>(step) >= data.ops.size())
        return {};
    const GanttOp& op = data.ops[static_cast<std::size_t>(step)];
    const double hz = data.clockHz;
    QStringList lines;
    QString title = QStringLiteral("<b>%1</b>").arg(op.name.toHtmlEscaped());
    if (!op.kind.isEmpty())
        title += QStringLiteral(" (%1)").arg(op.kind);
    lines << title;
    lines << QStringLiteral("step %1 of %2").arg(op.step).arg(data.ops.size());
    if (op.partCount > 1)
        lines.back() += QStringLiteral(", operator split in %1 parts").arg(op.partCount);
    if (op.preloadEnd > op.preloadStart) {
        QString line = QStringLiteral("preload %1–%2 µs")
                           .arg(microseconds(op.preloadStart, hz), microseconds(op.preloadEnd, hz));
        if (op.preloadStallCycles > 0)
            line += QStringLiteral(" (stalled %1 µs)").arg(microseconds(op.preloadStallCycles, hz));
        lines << line;
    } else {
        lines << QStringLiteral("no preload");
    }
    lines << QStringLiteral("execute %1–%2 µs").arg(microseconds(op.executeStart, hz), microseconds(op.executeEnd, hz));
    lines << QStringLiteral("&nbsp;&nbsp;warm-up %1, compute %2, shift + reduce %3 µs")
                 .arg(microseconds(op.warmupEnd - op.executeStart, hz), microseconds(op.computeEnd - op.warmupEnd, hz),
                     microseconds(op.executeEnd - op.computeEnd, hz));
    if (op.executeStallCycles > 0)
        lines << QStringLiteral("&nbsp;&nbsp;interconnect stall %1 µs").arg(microseconds(op.executeStallCycles, hz));
    if (op.waitedFor == QLatin1String("preload"))
        lines << QStringLiteral("&nbsp;&nbsp;waited for its preload");
    if (op.preloadBytesPerCore >= 0)
        lines << QStringLiteral("preload %1/core, execute %2/core")
                     .arg(formatBytes(op.preloadBytesPerCore), formatBytes(op.executeBytesPerCore));
    if (op.hbmBytes >= 0)
        lines << QStringLiteral("HBM read %1").arg(formatBytes(op.hbmBytes));
    if (!op.plan.isEmpty())
        lines << QStringLiteral("execute plan: %1").arg(op.plan.toHtmlEscaped());
    if (lane == GanttLane::Stall) { // say first what the mark under the cursor is
        QStringList marks;
        if (op.waitedFor == QLatin1String("preload"))
            marks << QStringLiteral("execution waited for its preload");
        if (op.executeStallCycles > 0)
            marks << QStringLiteral("interconnect stall");
        lines.insert(1, QStringLiteral("<i>%1</i>").arg(marks.join(QStringLiteral(", then "))));
    }
    return lines.join(QStringLiteral("<br>"));
}

} // namespace elk::widgets
