// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Every exported figure carries its run's cache key and its kind (PDF title, SVG <desc>, PNG text
// chunk) and readFigureMetadata() reads them back; the optional caption prints the key; a file
// without them, or of another format, gets a clear error.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "tests/widgets/run_fixture.h"
#include "widgets/plots/designs_view.h"
#include "widgets/plots/figure_metadata.h"
#include "widgets/plots/waterfall_view.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace elk;
using namespace elk::widgets;

class TestFigureMetadata : public QObject {
    Q_OBJECT

private slots:
    void roundTrips_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<bool>("caption");
        for (const char* suffix : { "pdf", "svg", "png" })
            for (bool caption : { false, true })
                QTest::addRow("%s%s", suffix, caption ? " with caption" : "") << QString::fromLatin1(suffix) << caption;
    }

    void roundTrips()
    {
        QFETCH(QString, suffix);
        QFETCH(bool, caption);
        QTemporaryDir dir;
        const auto run = test::smallRun();
        WaterfallView view;
        view.setRun(run);
        FigureStyle style = FigureStyle::column();
        style.runCaption = caption;
        const QString path = dir.filePath(QStringLiteral("figure.") + suffix);
        const int itemsBefore = view.plot()->itemCount();
        QVERIFY(view.exportFigure(path, style).isEmpty());
        QCOMPARE(view.plot()->itemCount(), itemsBefore); // the caption is for the file only
        const FigureMetadata read = readFigureMetadata(path);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.specHash, QString::fromStdString(run::runSpecHash(run->spec)));
        QCOMPARE(read.kind, QStringLiteral("waterfall"));
        if (suffix == QLatin1String("svg")) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray svg = file.readAll();
            // The caption is drawn text: present exactly when asked for.
            const QByteArray needle = QByteArray("Elk Studio run ") + read.specHash.left(12).toLatin1();
            QCOMPARE(svg.contains(needle), caption);
        }
    }

    void figureWithoutARun()
    {
        QTemporaryDir dir;
        DesignsView view; // no run: the kind only
        const QString path = dir.filePath(QStringLiteral("empty.svg"));
        QVERIFY(view.exportFigure(path).isEmpty());
        const FigureMetadata read = readFigureMetadata(path);
        QVERIFY(!read.ok());
        QCOMPARE(read.kind, QStringLiteral("designs"));
        QVERIFY(read.error.contains(QStringLiteral("no Elk Studio run key")));
    }

    void otherFiles()
    {
        QTemporaryDir dir;
        const QString text = dir.filePath(QStringLiteral("notes.txt"));
        QFile file(text);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("elk-run-spec-sha256:0000");
        file.close();
        QVERIFY(readFigureMetadata(text).error.contains(QStringLiteral("expected .pdf, .svg or .png")));
        QVERIFY(readFigureMetadata(dir.filePath(QStringLiteral("missing.pdf")))
                    .error.contains(QStringLiteral("missing.pdf")));
        const QString png = dir.filePath(QStringLiteral("broken.png"));
        QFile broken(png);
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("not a png");
        broken.close();
        QVERIFY(readFigureMetadata(png).error.contains(QStringLiteral("not a readable PNG")));
    }
};

QTEST_MAIN(TestFigureMetadata)
#include "tst_figure_metadata.moc"
