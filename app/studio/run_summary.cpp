// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/run_summary.h"

#include <QObject>
#include <QStringList>

#include "engine/run/run_compile.h"

namespace elk::app {

/// "elk-full 0.129 ms (1.24× over basic)", from the simulated latencies.
QString runHeadline(const elk::run::RunResult& result, const std::string& headlineDesign)
{
    double basic = 0, best = 0;
    QString bestName;
    for (const elk::run::DesignRun& design : result.designs) {
        if (!design.simulated)
            continue;
        const QString name = QString::fromLatin1(elk::schedule::toString(design.design));
        const double ms = design.simulated->latencyCycles / result.spec.chip.clockHz * 1e3;
        if (name == QLatin1String("basic"))
            basic = ms;
        if (bestName.isEmpty() || name == QString::fromStdString(headlineDesign)) {
            best = ms;
            bestName = name;
        }
    }
    if (bestName.isEmpty())
        return QObject::tr("no design could be simulated");
    QString line = QObject::tr("%1 %2 ms").arg(bestName, QString::number(best, 'f', 3));
    if (basic > 0 && bestName != QLatin1String("basic"))
        line += QObject::tr(" (%1× over basic)").arg(basic / best, 0, 'f', 2);
    return line;
}

/// The operators the run executes in parts (pipelined splitting, or too large whole): a short
/// count for the status line and one line per graph op for its tooltip.
std::pair<QString, QString> pipelinedSplitSummary(const elk::run::RunResult& result)
{
    QStringList lines;
    for (const elk::schedule::Step& step : result.problem.steps) {
        if (step.parts <= 1 || step.part != 0)
            continue;
        const std::string name = step.name.substr(0, step.name.rfind(" [part "));
        lines << QObject::tr("%1 in %2 parts").arg(QString::fromStdString(name)).arg(step.parts);
    }
    if (lines.isEmpty())
        return {};
    const QString count = lines.size() == 1 ? QObject::tr("1 op in pipelined parts")
                                            : QObject::tr("%1 ops in pipelined parts").arg(lines.size());
    constexpr int kShown = 40;
    if (lines.size() > kShown) {
        const auto more = lines.size() - kShown;
        lines = lines.mid(0, kShown);
        lines << QObject::tr("… and %1 more").arg(more);
    }
    return { count, lines.join(QLatin1Char('\n')) };
}

} // namespace elk::app
