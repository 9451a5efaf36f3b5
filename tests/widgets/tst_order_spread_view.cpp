// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Elk-Full's order spread on a real run: one point per valid order the search scheduled, agreeing with
// the search's own min / max, the identity and the chosen order marked, the chosen one being the
// schedule Elk-Full runs; a run without Elk-Full says so; the figure exports.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "tests/widgets/figure_dir.h"
#include "tests/widgets/run_fixture.h"
#include "widgets/plots/order_spread_view.h"

#include <QTest>

using namespace elk;
using namespace elk::widgets;

class TestOrderSpreadView : public QObject {
    Q_OBJECT

private slots:
    void pointsAreTheValidOrders()
    {
        const auto run = test::smallRun();
        const schedule::Schedule* full = nullptr;
        for (const run::DesignRun& d : run->designs)
            if (d.design == schedule::Design::ElkFull)
                full = &*d.schedule;
        QVERIFY(full);
        const schedule::OrderSearch& search = full->orders;
        QCOMPARE(std::int64_t(search.orderLatencyCycles.size()), search.validOrders);
        QVERIFY(search.validOrders > 1);
        QCOMPARE(
            *std::min_element(search.orderLatencyCycles.begin(), search.orderLatencyCycles.end()), search.minCycles);
        QCOMPARE(
            *std::max_element(search.orderLatencyCycles.begin(), search.orderLatencyCycles.end()), search.maxCycles);
        QVERIFY(search.chosenOrder >= 0 && search.chosenOrder < int(search.validOrders));
        if (full->note.find("without the joint") == std::string::npos)
            QCOMPARE(search.orderLatencyCycles[std::size_t(search.chosenOrder)], full->latencyCycles);

        OrderSpreadView view;
        view.resize(800, 300);
        view.setRun(run);
        QVERIFY(view.hasData());
        QCOMPARE(view.orderCount(), int(search.validOrders));
        QCustomPlot* p = view.plot();
        QCOMPARE(p->graphCount(), 3); // orders, identity, chosen
        QCOMPARE(p->graph(0)->dataCount(), int(search.validOrders));
        QVERIFY(view.summary().contains(QStringLiteral("valid preload orders")));
        for (const char* name : { "orders.pdf", "orders.svg", "orders.png" }) {
            const QString path = test::figurePath(QString::fromLatin1(name));
            QVERIFY(view.exportFigure(path, FigureStyle::wide()).isEmpty());
            QVERIFY(QFileInfo(path).size() > 1000);
        }
    }

    void withoutElkFull()
    {
        auto run = std::make_shared<run::RunResult>(*test::smallRun());
        run->designs.erase(std::remove_if(run->designs.begin(), run->designs.end(),
                               [](const run::DesignRun& d) { return d.design == schedule::Design::ElkFull; }),
            run->designs.end());
        OrderSpreadView view;
        view.setRun(run);
        QVERIFY(!view.hasData());
        QCOMPARE(view.orderCount(), 0);
        QVERIFY(view.summary().contains(QStringLiteral("No Elk-Full")));
    }
};

QTEST_MAIN(TestOrderSpreadView)
#include "tst_order_spread_view.moc"
