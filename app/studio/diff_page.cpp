// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/diff_page.h"

#include <cmath>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "engine/run/run_compile.h"
#include "widgets/plots/diff_view.h"
#include "widgets/timeline/diff_links_view.h"
#include "widgets/timeline/diff_timeline_view.h"

namespace elk::app {

namespace {

    enum Source { ThisRun = 0, CompareRun = 1, HistoryRun = 2 };

    int entryCode(Source source, int design)
    {
        return int(source) * 100000 + design;
    }

    QString designName(const elk::widgets::RunSnapshotPtr& run, int design)
    {
        if (!run || design < 0 || design >= int(run->designs.size()))
            return {};
        return QString::fromLatin1(elk::schedule::toString(run->designs[std::size_t(design)].design));
    }

    int findDesign(const elk::widgets::RunSnapshotPtr& run, const QString& name)
    {
        for (int d = 0; run && d < int(run->designs.size()); ++d)
            if (designName(run, d) == name)
                return d;
        return -1;
    }

    /// A number cell that sorts by value, not by its text.
    class NumberItem : public QTableWidgetItem {
    public:
        explicit NumberItem(double value, int decimals = 4)
            : QTableWidgetItem(QString::number(value, 'f', decimals))
        {
            if (std::abs(value) < 0.5 * std::pow(10.0, -decimals))
                setText(QString::number(0.0, 'f', decimals)); // not "-0.0000"
            setData(Qt::UserRole, value);
            setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        }
        bool operator<(const QTableWidgetItem& other) const override
        {
            return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
        }
    };

} // namespace

DiffPage::DiffPage(QWidget* parent)
    : QWidget(parent)
    , m_sideA(new QLabel)
    , m_against(new QComboBox)
    , m_hint(new QLabel)
    , m_ops(new elk::widgets::DiffView)
    , m_timeline(new elk::widgets::DiffTimelineView)
    , m_links(new elk::widgets::DiffLinksView)
    , m_table(new QTableWidget)
{
    setObjectName(QStringLiteral("diffPage"));
    m_against->setObjectName(QStringLiteral("diffAgainst"));
    m_against->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_against->setToolTip(tr("Side B: another design of this run, the same design on the compare chip (Chip tab), "
                             "or a run from the History dock (right-click a run: Diff against the current run)"));
    m_hint->setObjectName(QStringLiteral("diffHint"));
    m_hint->setWordWrap(true);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 2);
    bar->addWidget(m_sideA);
    bar->addSpacing(16);
    bar->addWidget(new QLabel(tr("against B:")));
    bar->addWidget(m_against);
    bar->addSpacing(16);
    bar->addWidget(m_hint, 1);

    m_table->setObjectName(QStringLiteral("diffTable"));
    m_table->setColumnCount(6);
    m_table->setHorizontalHeaderLabels(
        { tr("Op"), tr("Δ (ms)"), tr("Δ wait (ms)"), tr("Δ execute (ms)"), tr("Δ preload (ms)"), tr("A step") });
    m_table->horizontalHeaderItem(1)->setToolTip(
        tr("Δ wait + Δ execute: what the op adds to B − A (the rows add up to it)"));
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) {
        const QTableWidgetItem* step = m_table->item(row, 5);
        if (step && step->data(Qt::UserRole).toDouble() >= 0)
            emit stepSelected(m_timeline->referenceStepOf(int(step->data(Qt::UserRole).toDouble())));
    });

    auto* top = new QSplitter(Qt::Horizontal);
    top->addWidget(m_ops);
    top->addWidget(m_table);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    auto* views = new QSplitter(Qt::Vertical);
    views->setObjectName(QStringLiteral("diffSplitter"));
    views->addWidget(top);
    views->addWidget(m_timeline);
    views->addWidget(m_links);
    views->setStretchFactor(0, 3);
    views->setStretchFactor(1, 3);
    views->setStretchFactor(2, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(views, 1);

    for (elk::widgets::PlotView* view : plotViews())
        connect(view, &elk::widgets::PlotView::stepSelected, this, &DiffPage::stepSelected);
    connect(m_against, &QComboBox::activated, this, [this] {
        m_wanted = m_against->currentText();
        apply();
    });
    rebuildChoices();
}

DiffPage::~DiffPage() = default;

std::vector<elk::widgets::PlotView*> DiffPage::plotViews() const
{
    return { m_ops, m_timeline, m_links };
}

elk::widgets::PlotView* DiffPage::currentPlotView() const
{
    for (elk::widgets::PlotView* view : plotViews())
        if (view->hasFocus() || view->isAncestorOf(focusWidget()))
            return view;
    return m_ops;
}

void DiffPage::setRun(elk::widgets::RunSnapshotPtr run)
{
    m_run = std::move(run);
    rebuildChoices();
}

void DiffPage::setDesignIndex(int index)
{
    m_designIndex = index;
    rebuildChoices();
}

void DiffPage::setCompareRun(elk::widgets::RunSnapshotPtr run, const QString& label)
{
    const bool first = run && !m_compareRun;
    m_compareRun = std::move(run);
    m_compareLabel = label;
    if (first) // a compare chip was just chosen: show it (the earlier behaviour of the Designs tab)
        m_wanted.clear();
    rebuildChoices();
}

void DiffPage::setHistoryRun(elk::widgets::RunSnapshotPtr run, const QString& label)
{
    m_historyRun = std::move(run);
    m_historyLabel = label;
    m_wanted.clear();
    rebuildChoices();
    if (m_historyRun) {
        const int same = findDesign(m_historyRun, designName(m_run, m_designIndex));
        const int index = m_against->findData(entryCode(HistoryRun, same >= 0 ? same : 0));
        if (index >= 0) {
            m_against->setCurrentIndex(index);
            m_wanted = m_against->currentText();
            apply();
        }
    }
}

bool DiffPage::chooseAgainst(const QString& text)
{
    const int index = m_against->findText(text);
    if (index < 0)
        return false;
    m_against->setCurrentIndex(index);
    m_wanted = text;
    apply();
    return true;
}

void DiffPage::rebuildChoices()
{
    const QString a = designName(m_run, m_designIndex);
    {
        const QSignalBlocker blocker(m_against);
        m_against->clear();
        for (int d = 0; m_run && d < int(m_run->designs.size()); ++d)
            if (d != m_designIndex)
                m_against->addItem(tr("%1 — this run").arg(designName(m_run, d)), entryCode(ThisRun, d));
        if (m_compareRun && findDesign(m_compareRun, a) >= 0)
            m_against->addItem(tr("%1 on %2 — compare chip").arg(a, m_compareLabel), entryCode(CompareRun, 0));
        for (int d = 0; m_historyRun && d < int(m_historyRun->designs.size()); ++d)
            m_against->addItem(
                tr("%1 — history: %2").arg(designName(m_historyRun, d), m_historyLabel), entryCode(HistoryRun, d));
        int index = m_wanted.isEmpty() ? -1 : m_against->findText(m_wanted);
        if (index < 0 && m_wanted.isEmpty() && m_compareRun)
            index = m_against->findData(entryCode(CompareRun, 0));
        if (index < 0) // default: what preloading changes (basic), or elk-full when A is basic
            index = m_against->findData(entryCode(ThisRun,
                findDesign(m_run, a == QLatin1String("basic") ? QStringLiteral("elk-full") : QStringLiteral("basic"))));
        if (index < 0 && m_against->count() > 0)
            index = 0;
        m_against->setCurrentIndex(index);
    }
    m_sideA->setText(m_run
            ? tr("A: <b>%1</b> on %2 (the design chosen above)").arg(a, QString::fromStdString(m_run->spec.chip.name))
            : tr("A: no run yet"));
    apply();
}

DiffPage::Side DiffPage::chosenSide() const
{
    if (m_against->currentIndex() < 0)
        return {};
    const int code = m_against->currentData().toInt();
    const int design = code % 100000;
    switch (Source(code / 100000)) {
    case ThisRun:
        return { m_run, design };
    case CompareRun:
        return { m_compareRun, findDesign(m_compareRun, designName(m_run, m_designIndex)) };
    case HistoryRun:
        return { m_historyRun, design };
    }
    return {};
}

void DiffPage::apply()
{
    const Side b = chosenSide();
    for (elk::widgets::PlotView* view : plotViews()) {
        auto* diff = static_cast<elk::widgets::DiffPlotView*>(view);
        if (diff->run() != m_run)
            diff->setRun(m_run);
        if (diff->designIndex() != m_designIndex)
            diff->setDesignIndex(m_designIndex);
        diff->setAgainst(b.run, std::max(b.design, 0));
    }
    if (!m_run)
        m_hint->setText(tr("Run a model: the diff compares the design chosen above with a second one."));
    else if (m_against->count() == 0)
        m_hint->setText(tr("This run has one design: pick a compare chip (Chip tab) or diff against a past run "
                           "(History dock: right-click a run)."));
    else if (!m_ops->hasData())
        m_hint->setText(tr("Nothing to diff: one of the two sides has no simulation."));
    else if (!m_links->hasData())
        m_hint->setText(tr("Bars and timelines along the ops; the two chips have different links, so no Δ link map."));
    else
        m_hint->setText(tr("Bars: what each op adds to B − A (right axis: the running sum). Table: every op by |Δ|. "
                           "Timelines: the same op joined, shaded by its Δ. Map: Δ bytes per link."));
    fillTable();
}

void DiffPage::fillTable()
{
    const elk::run::RunDiff& diff = m_ops->diff();
    m_table->setSortingEnabled(false);
    m_table->clearContents();
    m_table->setRowCount(int(diff.ops.size()));
    for (int row = 0; row < int(diff.ops.size()); ++row) {
        const elk::run::OpDelta& op = diff.ops[std::size_t(row)];
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(op.name)));
        m_table->setItem(row, 1, new NumberItem(op.deltaMs()));
        m_table->setItem(row, 2, new NumberItem(op.deltaWaitMs()));
        m_table->setItem(row, 3, new NumberItem(op.deltaExecuteMs()));
        m_table->setItem(row, 4, new NumberItem(op.deltaPreloadMs()));
        auto* step = new NumberItem(op.stepA, 0);
        if (op.stepA < 0)
            step->setText(tr("only in B"));
        m_table->setItem(row, 5, step);
    }
    m_table->resizeColumnsToContents();
    // Rows arrive sorted by |Δ| (run::diffRuns); a click on a header sorts by that column.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::DescendingOrder);
    m_table->setSortingEnabled(true);
}

} // namespace elk::app
