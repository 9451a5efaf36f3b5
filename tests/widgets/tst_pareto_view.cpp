// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Pareto view on a real run: the default op is the longest execution, every kept plan is a
// point, the front and the preload table are series of their own, and each design's chosen plan is
// marked and labelled once.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "tests/widgets/figure_dir.h"
#include "tests/widgets/run_fixture.h"
#include "widgets/plots/pareto_view.h"

#include <QTest>

using namespace elk;
using namespace elk::widgets;

namespace {

QCPGraph* graphNamed(QCustomPlot* plot, const QString& name)
{
    for (int i = 0; i < plot->graphCount(); ++i) {
        if (plot->graph(i)->name() == name)
            return plot->graph(i);
    }
    return nullptr;
}

/// The reference step (what views select) whose execution in `design`'s own schedule is the longest.
int longestStep(const run::RunResult& run, int design)
{
    const run::DesignRun& d = run.designs[std::size_t(design)];
    const auto length = [&](int reference) {
        const int own = run::correspondingStep(run.problem, reference, run.problemOf(d));
        return own < 0 ? -1.0 : d.schedule->steps[std::size_t(own)].execute.length();
    };
    int best = 0;
    for (int i = 0; i < int(run.problem.steps.size()); ++i) {
        if (length(i) > length(best))
            best = i;
    }
    return best;
}

/// The step with the most plans (the richest picture), for the export.
int richestStep(const run::RunResult& run)
{
    int best = 0;
    for (std::size_t i = 0; i < run.problem.steps.size(); ++i) {
        if (run.problem.planSets[run.problem.steps[i].planSet]->plans.size()
            > run.problem.planSets[run.problem.steps[std::size_t(best)].planSet]->plans.size())
            best = int(i);
    }
    return best;
}

} // namespace

class TestParetoView : public QObject {
    Q_OBJECT

private slots:
    void emptyWithoutRun()
    {
        ParetoView view;
        QVERIFY(!view.hasData());
        QCOMPARE(view.shownStep(), -1);
        QCOMPARE(view.figureKind(), QStringLiteral("pareto"));
    }

    /// Before any run the empty plot spans the view (it was a strip 107 px wide of 1000: the empty
    /// legend below it capped the layout column).
    void emptyPlotFillsTheView()
    {
        ParetoView view;
        view.resize(1000, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCustomPlot* p = view.findChild<QCustomPlot*>();
        p->replot();
        QVERIFY2(
            p->axisRect()->outerRect().width() >= 900, qPrintable(QString::number(p->axisRect()->outerRect().width())));
    }

    void defaultStepIsTheLongestExecution()
    {
        ParetoView view;
        view.setRun(test::smallRun());
        QVERIFY(view.hasData());
        QCOMPARE(view.shownStep(), longestStep(*test::smallRun(), 0));
        view.setDesignIndex(3);
        QCOMPARE(view.shownStep(), longestStep(*test::smallRun(), 3));
    }

    void seriesFollowThePlans_data()
    {
        QTest::addColumn<int>("step");
        const auto run = test::smallRun();
        for (std::size_t i = 0; i < run->problem.steps.size(); ++i)
            QTest::addRow("%s", run->problem.steps[i].name.c_str()) << int(i);
    }

    void seriesFollowThePlans()
    {
        QFETCH(int, step);
        const auto run = test::smallRun();
        ParetoView view;
        view.setRun(run);
        view.setSelectedStep(step);
        QCOMPARE(view.shownStep(), step);
        const partition::OpPlans& plans = *run->problem.planSets[run->problem.steps[std::size_t(step)].planSet];
        QCustomPlot* plot = view.plot();

        QCPGraph* all = graphNamed(plot, QStringLiteral("execute plans"));
        QCPGraph* front = graphNamed(plot, QStringLiteral("Pareto front"));
        QCPGraph* table = graphNamed(plot, QStringLiteral("preload table"));
        QVERIFY(all && front && table);
        QCOMPARE(all->dataCount(), int(plans.plans.size()));
        QCOMPARE(front->dataCount(), int(plans.pareto.size()));
        QCOMPARE(table->dataCount(), int(plans.table.size()));
        // The front's first point: the smallest execute space, in KiB and µs.
        const partition::PlanCost& first = plans.costs[plans.pareto.front()];
        QCOMPARE(front->data()->begin()->key, double(first.executeBytes) / 1024.0);
        QCOMPARE(front->data()->begin()->value, first.executeCycles() / run->problem.clockHz * 1e6);

        const QString title = view.title();
        QVERIFY2(title.contains(QString::fromStdString(run->problem.steps[std::size_t(step)].name)), qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("%1 plan").arg(plans.plans.size())), qPrintable(title));

        // Every design is named in exactly one label, and designs sharing a plan share a label.
        QStringList named;
        for (const QString& label : view.choiceLabels())
            named += label.split(QStringLiteral(", "));
        named.sort();
        QStringList expected;
        QSet<std::uint32_t> distinctPlans;
        for (const run::DesignRun& design : run->designs) {
            // A design whose own pipelined splits run this operator as other parts has other plans: the
            // title names it instead.
            const int own = run::correspondingStep(run->problem, step, run->problemOf(design));
            const QString name = QString::fromLatin1(schedule::toString(design.design));
            QVERIFY(own >= 0);
            if (run->problemOf(design).steps[std::size_t(own)].planSet
                != run->problem.steps[std::size_t(step)].planSet) {
                QVERIFY2(title.contains(name + QStringLiteral(": own splits"))
                        || title.contains(name + QStringLiteral(", ")),
                    qPrintable(title));
                continue;
            }
            expected << name;
            distinctPlans.insert(plans.table[design.schedule->steps[std::size_t(own)].tableEntry].executePlan);
        }
        expected.sort();
        QCOMPARE(named, expected);
        QCOMPARE(view.choiceLabels().size(), distinctPlans.size());
    }

    void outOfRangeSelectionFallsBackToTheDefault()
    {
        ParetoView view;
        view.setRun(test::smallRun());
        const int fallback = view.shownStep();
        view.setSelectedStep(10000);
        QCOMPARE(view.shownStep(), fallback);
        view.setRun(nullptr);
        QVERIFY(!view.hasData());
        QCOMPARE(view.plot()->graphCount(), 0);
    }

    void exportsLookable_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("richest");
        QTest::addColumn<bool>("wide");
        QTest::addRow("longest op, column") << QStringLiteral("pareto-column.png") << false << false;
        QTest::addRow("op with most plans, column") << QStringLiteral("pareto-rich-column.png") << true << false;
        QTest::addRow("op with most plans, two columns") << QStringLiteral("pareto-rich-wide.png") << true << true;
        QTest::addRow("op with most plans, svg") << QStringLiteral("pareto-rich.svg") << true << false;
    }

    void exportsLookable()
    {
        QFETCH(QString, file);
        QFETCH(bool, richest);
        QFETCH(bool, wide);
        ParetoView view;
        view.resize(800, 500);
        view.setRun(test::smallRun());
        if (richest)
            view.setSelectedStep(richestStep(*test::smallRun()));
        const QString path = test::figurePath(file);
        const QString error = view.exportFigure(path, wide ? FigureStyle::wide() : FigureStyle::column());
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 1000);
    }
};

QTEST_MAIN(TestParetoView)
#include "tst_pareto_view.moc"
