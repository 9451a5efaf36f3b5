// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/diff_plot_view.h"

#include <QColor>

#include "engine/run/run_compile.h"

namespace elk::widgets {

namespace {

    const sim::SimResult* simulatedOf(const RunSnapshotPtr& run, int design)
    {
        if (!run || design < 0 || design >= int(run->designs.size()))
            return nullptr;
        const run::DesignRun& d = run->designs[std::size_t(design)];
        return d.simulated ? &*d.simulated : nullptr;
    }

} // namespace

QColor slowerColour()
{
    return QColor(0xD5, 0x5E, 0x00); // Okabe–Ito vermillion
}

QColor fasterColour()
{
    return QColor(0x00, 0x72, 0xB2); // Okabe–Ito blue
}

DiffPlotView::DiffPlotView(QWidget* parent)
    : PlotView(parent)
{
}

DiffPlotView::~DiffPlotView() = default;

void DiffPlotView::setAgainst(RunSnapshotPtr run, int designIndex)
{
    m_against = std::move(run);
    m_againstDesign = designIndex;
    rebuild();
}

const sim::SimResult* DiffPlotView::sideA() const
{
    return simulatedOf(m_run, m_designIndex);
}

const sim::SimResult* DiffPlotView::sideB() const
{
    return simulatedOf(m_against, m_againstDesign);
}

QString DiffPlotView::sideLabel(bool first) const
{
    const RunSnapshotPtr& run = first ? m_run : m_against;
    const int design = first ? m_designIndex : m_againstDesign;
    if (!run || design < 0 || design >= int(run->designs.size()))
        return {};
    return QStringLiteral("%1 on %2")
        .arg(QString::fromLatin1(schedule::toString(run->designs[std::size_t(design)].design)),
            QString::fromStdString(run->spec.chip.name));
}

bool DiffPlotView::updateDiff()
{
    const sim::SimResult* a = sideA();
    const sim::SimResult* b = sideB();
    m_diff = {};
    if (!a || !b)
        return false;
    m_diff = run::diffRuns(*a, *b);
    return true;
}

QString DiffPlotView::diffTitle() const
{
    return tr("A: %1\nB: %2\nB − A: %3%4 ms (%5 → %6 ms), %7 ops")
        .arg(sideLabel(true), sideLabel(false))
        .arg(m_diff.latencyMsB >= m_diff.latencyMsA ? QStringLiteral("+") : QString())
        .arg(m_diff.latencyMsB - m_diff.latencyMsA, 0, 'f', 4)
        .arg(m_diff.latencyMsA, 0, 'f', 4)
        .arg(m_diff.latencyMsB, 0, 'f', 4)
        .arg(m_diff.ops.size());
}

} // namespace elk::widgets
