// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// PlotView::exportFigure: every format comes out valid at the style's size (PDF page, SVG size,
// PNG pixels for cm × dpi), errors name the problem, and the on-screen plot is left as it was.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "tests/widgets/figure_dir.h"
#include "widgets/plots/plot_view.h"

#include "tests/support/compare_near.h"
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QTest>
#include <QXmlStreamReader>

using namespace elk::widgets;

namespace {

/// A plot with every kind of object applyStyle touches: two graphs, bars, legend, title, text item.
class SamplePlotView : public PlotView {
public:
    SamplePlotView()
    {
        QCustomPlot* p = plot();
        p->plotLayout()->insertRow(0);
        p->plotLayout()->addElement(
            0, 0, new QCPTextElement(p, QStringLiteral("Sample"), QFont(p->font().family(), 11)));
        for (int g = 0; g < 2; ++g) {
            QCPGraph* graph = p->addGraph();
            graph->setName(QStringLiteral("series %1").arg(g + 1));
            graph->setPen(QPen(paletteColor(g), 1.5));
            for (int i = 0; i <= 20; ++i)
                graph->addData(i, (g + 1) * std::sin(i / 3.0) + 3);
        }
        auto* bars = new QCPBars(p->xAxis, p->yAxis);
        bars->setName(QStringLiteral("bars"));
        bars->setBrush(paletteColor(2));
        bars->setProperty("elkSeries", 1);
        bars->addData(10, 1.5);
        auto* text = new QCPItemText(p);
        text->position->setCoords(5, 5.5);
        text->setText(QStringLiteral("note"));
        p->xAxis->setLabel(QStringLiteral("Time (µs)"));
        p->yAxis->setLabel(QStringLiteral("Value (GB/s)"));
        p->xAxis->setRange(0, 20);
        p->yAxis->setRange(0, 6.5);
        p->legend->setVisible(true);
    }
    QString figureKind() const override { return QStringLiteral("sample"); }
    bool hasData() const override { return true; }

protected:
    void rebuild() override { }
};

int pixelsFor(double cm, int dpi)
{
    return int(std::lround(cm / 2.54 * dpi));
}

} // namespace

class TestFigureExport : public QObject {
    Q_OBJECT

private slots:
    void pdfPageHasTheFigureSize_data()
    {
        QTest::addColumn<double>("widthCm");
        QTest::addColumn<double>("heightCm");
        QTest::addRow("one column") << FigureStyle::column().widthCm << FigureStyle::column().heightCm;
        QTest::addRow("two columns") << FigureStyle::wide().widthCm << FigureStyle::wide().heightCm;
    }

    void pdfPageHasTheFigureSize()
    {
        QFETCH(double, widthCm);
        QFETCH(double, heightCm);
        SamplePlotView view;
        FigureStyle style;
        style.widthCm = widthCm;
        style.heightCm = heightCm;
        const QString path = elk::test::figurePath(QStringLiteral("sample-%1.pdf").arg(widthCm));
        const QString error = view.exportFigure(path, style);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.size() > 2000);
        // The page is the figure: MediaBox in points (1 cm = 72 / 2.54 pt).
        const QRegularExpression mediaBox(QStringLiteral("/MediaBox \\[\\s*0 0 ([0-9.]+) ([0-9.]+)\\s*\\]"));
        const auto match = mediaBox.match(QString::fromLatin1(bytes));
        QVERIFY2(match.hasMatch(), "no MediaBox");
        ELK_COMPARE_NEAR(match.captured(1).toDouble(), widthCm / 2.54 * 72, 1.0);
        ELK_COMPARE_NEAR(match.captured(2).toDouble(), heightCm / 2.54 * 72, 1.0);
        // Vector output: text is drawn with embedded fonts, not as pixels.
        QVERIFY(bytes.contains("/FontFile"));
    }

    void svgIsXmlOfTheFigureSize()
    {
        SamplePlotView view;
        const QString path = elk::test::figurePath(QStringLiteral("sample.svg"));
        const QString error = view.exportFigure(path, FigureStyle::column());
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        QString root;
        QString width;
        QString height;
        int texts = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            if (root.isEmpty()) {
                root = xml.name().toString();
                width = xml.attributes().value(QStringLiteral("width")).toString();
                height = xml.attributes().value(QStringLiteral("height")).toString();
            }
            if (xml.name() == QStringLiteral("text"))
                ++texts;
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(root, QStringLiteral("svg"));
        QVERIFY2(width.endsWith(QStringLiteral("mm")), qPrintable(width));
        QVERIFY2(std::abs(width.chopped(2).toDouble() - 85) < 1.0, qPrintable(width));
        QVERIFY2(std::abs(height.chopped(2).toDouble() - 60) < 1.0, qPrintable(height));
        QVERIFY2(texts >= 10, "tick labels, axis labels, legend and title are SVG text");
    }

    void pngHasCmTimesDpiPixels_data()
    {
        QTest::addColumn<double>("widthCm");
        QTest::addColumn<double>("heightCm");
        QTest::addColumn<int>("dpi");
        QTest::addRow("one column at 300 dpi") << 8.5 << 6.0 << 300;
        QTest::addRow("two columns at 300 dpi") << 17.8 << 7.0 << 300;
        QTest::addRow("slide at 150 dpi") << 25.4 << 14.3 << 150;
        QTest::addRow("odd size at 96 dpi") << 5.3 << 4.1 << 96;
    }

    void pngHasCmTimesDpiPixels()
    {
        QFETCH(double, widthCm);
        QFETCH(double, heightCm);
        QFETCH(int, dpi);
        SamplePlotView view;
        FigureStyle style;
        style.widthCm = widthCm;
        style.heightCm = heightCm;
        style.pngDpi = dpi;
        const QString path
            = elk::test::figurePath(QStringLiteral("sample-%1x%2-%3.png").arg(widthCm).arg(heightCm).arg(dpi));
        const QString error = view.exportFigure(path, style);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QImage image;
        QVERIFY(image.load(path, "PNG"));
        QCOMPARE(image.width(), pixelsFor(widthCm, dpi));
        QCOMPARE(image.height(), pixelsFor(heightCm, dpi));
        QCOMPARE(image.dotsPerMeterX(), int(std::lround(dpi / 0.0254)));
        // Something is drawn: dark pixels (text, axes) and the palette's blue (series 1).
        int dark = 0;
        int blue = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                dark += c.lightness() < 80;
                blue += std::abs(c.red() - 0x00) < 30 && std::abs(c.green() - 0x72) < 30
                    && std::abs(c.blue() - 0xB2) < 30;
            }
        }
        QVERIFY2(dark > 100, qPrintable(QString::number(dark)));
        QVERIFY2(blue > 20, qPrintable(QString::number(blue)));
    }

    void errorsNameTheProblem_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected");
        QTest::addRow("unknown suffix") << elk::test::figurePath(QStringLiteral("figure.jpg"))
                                        << QStringLiteral("unknown figure format");
        QTest::addRow("no suffix") << elk::test::figurePath(QStringLiteral("figure"))
                                   << QStringLiteral("expected .pdf, .svg or .png");
        QTest::addRow("folder missing") << QStringLiteral("/nonexistent-elk-folder/figure.pdf")
                                        << QStringLiteral("cannot write /nonexistent-elk-folder/figure.pdf");
        QTest::addRow("png folder missing")
            << QStringLiteral("/nonexistent-elk-folder/figure.png") << QStringLiteral("cannot write");
    }

    void errorsNameTheProblem()
    {
        QFETCH(QString, path);
        QFETCH(QString, expected);
        SamplePlotView view;
        const QString error = view.exportFigure(path);
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY(!QFile::exists(path));
    }

    void badStyleIsRefused()
    {
        SamplePlotView view;
        FigureStyle style;
        style.widthCm = 0;
        QVERIFY(view.exportFigure(elk::test::figurePath(QStringLiteral("zero.png")), style)
                    .contains(QStringLiteral("size")));
        style = FigureStyle::column();
        style.fontPt = 0.5;
        QVERIFY(view.exportFigure(elk::test::figurePath(QStringLiteral("tiny.png")), style)
                    .contains(QStringLiteral("font")));
    }

    void screenViewIsRestored()
    {
        SamplePlotView view;
        view.resize(640, 480);
        view.plot()->replot();
        QCustomPlot* p = view.plot();
        const QFont tickFont = p->xAxis->tickLabelFont();
        const QFont legendItemFont = p->legend->item(0)->font();
        const QPen graphPen = p->graph(0)->pen();
        const QBrush barBrush = p->plottable(2)->brush();
        const QRect viewport = p->viewport();
        const QRect axisRect = p->axisRect()->rect();

        FigureStyle style = FigureStyle::slide(); // 16 pt: far from the screen font
        const QString error = view.exportFigure(elk::test::figurePath(QStringLiteral("restore.png")), style);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        QCOMPARE(p->xAxis->tickLabelFont(), tickFont);
        QCOMPARE(p->legend->item(0)->font(), legendItemFont);
        QCOMPARE(p->graph(0)->pen(), graphPen);
        QCOMPARE(p->plottable(2)->brush(), barBrush);
        QCOMPARE(p->viewport(), viewport);
        QCOMPARE(p->axisRect()->rect(), axisRect);
    }
};

QTEST_MAIN(TestFigureExport)
#include "tst_figure_export.moc"
