// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// `elk figure`: every figure kind renders headless to valid PDF, SVG and PNG (the hlo-* kinds from a
// StableHLO module on one or two systems); bad input is refused with exit code 2 and a message naming
// the option or the located error.
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace Qt::Literals::StringLiterals;

namespace {

struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

const QString kModel = QStringLiteral(ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json");
const QString kHloModule = QStringLiteral(ELK_TEST_DATA_DIR "/stablehlo/hespas/jax_example.mlir");
/// A tiny valid module of our own, so that the bad-option rows reach the option they test in a clone
/// without ../shared (written by initTestCase).
QString g_tinyHloModule;

/// The file is a valid PDF, SVG or PNG (a column figure) of some size; else a message.
QString checkFigure(const QString& path, const QString& suffix)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return u"%1: not written"_s.arg(path);
    const QByteArray bytes = file.readAll();
    if (bytes.size() <= 1000)
        return u"%1: only %2 bytes"_s.arg(path).arg(bytes.size());
    if (suffix == u"pdf"_s)
        return bytes.startsWith("%PDF-") && bytes.contains("%%EOF") ? QString() : u"%1: not a PDF"_s.arg(path);
    if (suffix == u"svg"_s) {
        QXmlStreamReader xml(bytes);
        QString root;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement && root.isEmpty())
                root = xml.name().toString();
        }
        return !xml.hasError() && root == u"svg"_s ? QString() : u"%1: not SVG (%2)"_s.arg(path, xml.errorString());
    }
    const QImage image = QImage::fromData(bytes, "PNG");
    // 8.5 × 6 cm at 300 dpi.
    if (image.width() != qRound(8.5 / 2.54 * 300) || image.height() != qRound(6.0 / 2.54 * 300))
        return u"%1: a %2 × %3 image"_s.arg(path).arg(image.width()).arg(image.height());
    return {};
}

} // namespace

class TestFigureCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void rendersEveryKind_data();
    void rendersEveryKind();
    void runSpecFileGivesTheSameFigure();
    void wideStyleReachesTheCommand();
    void rendersHloKinds_data();
    void rendersHloKinds();
    void hloMalformedModuleIsLocated();
    void badInput_data();
    void badInput();

private:
    CliResult runElk(const QStringList& args)
    {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"ELK_CACHE_DIR"_s, m_dir.filePath(u"cache"_s));
        process.setProcessEnvironment(environment);
        process.setWorkingDirectory(m_dir.path());
        process.start(qEnvironmentVariable("ELK_CLI"), args);
        CliResult result;
        if (!process.waitForFinished(240000) || process.exitStatus() != QProcess::NormalExit)
            return result;
        result.exitCode = process.exitCode();
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    QTemporaryDir m_dir;
};

void TestFigureCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(!qEnvironmentVariable("ELK_CLI").isEmpty(), "ELK_CLI must name the elk binary (set by ctest)");
    g_tinyHloModule = m_dir.filePath(QStringLiteral("tiny.mlir"));
    QFile tiny(g_tinyHloModule);
    QVERIFY(tiny.open(QIODevice::WriteOnly));
    tiny.write("func.func @main(%arg0: tensor<64x64xf32>) -> tensor<64x64xf32> {\n"
               "  %0 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [1] x [0] : (tensor<64x64xf32>, "
               "tensor<64x64xf32>) -> tensor<64x64xf32>\n"
               "  return %0 : tensor<64x64xf32>\n"
               "}\n");
}

void TestFigureCli::rendersEveryKind_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QStringList>("extra");
    const QStringList kinds { u"designs"_s, u"waterfall"_s, u"orders"_s, u"pareto"_s, u"gantt"_s, u"bandwidth"_s,
        u"heatmap"_s, u"classroom"_s };
    for (const QString& kind : kinds) {
        for (const QString& suffix : { u"pdf"_s, u"svg"_s, u"png"_s })
            QTest::addRow("%s %s", qPrintable(kind), qPrintable(suffix)) << kind << suffix << QStringList {};
    }
    QTest::addRow("sweep png, one axis") << u"sweep"_s << u"png"_s
                                         << QStringList { u"--vary"_s, u"hbm.bandwidthGBpsPerStack=400:1600:600"_s };
    QTest::addRow("diff svg, two designs")
        << u"diff"_s << u"svg"_s << QStringList { u"--compare-design"_s, u"basic"_s };
    QTest::addRow("diff png, two chips") << u"diff"_s << u"png"_s
                                         << QStringList { u"--against-chip"_s, u"ipu-pod4-hbm"_s, u"--caption"_s };
    for (const QString& suffix : { u"pdf"_s, u"svg"_s, u"png"_s }) {
        QTest::addRow("diff-timeline %s", qPrintable(suffix))
            << u"diff-timeline"_s << suffix << QStringList { u"--compare-design"_s, u"basic"_s };
        QTest::addRow("diff-links %s", qPrintable(suffix))
            << u"diff-links"_s << suffix << QStringList { u"--compare-design"_s, u"static"_s };
    }
    QTest::addRow("diff-timeline png, two chips")
        << u"diff-timeline"_s << u"png"_s << QStringList { u"--against-chip"_s, u"ipu-pod4-hbm"_s };
    QTest::addRow("pareto of a named op") << u"pareto"_s << u"svg"_s << QStringList { u"--op"_s, u"attn_scores"_s };
    QTest::addRow("classroom, two designs")
        << u"classroom"_s << u"png"_s
        << QStringList { u"--view-design"_s, u"basic"_s, u"--compare-design"_s, u"elk-full"_s };
}

void TestFigureCli::rendersEveryKind()
{
    QFETCH(QString, kind);
    QFETCH(QString, suffix);
    QFETCH(QStringList, extra);
    const QString out
        = m_dir.filePath(u"%1-%2.%3"_s.arg(kind, QString::number(qHash(extra.join(u' ')) % 1000), suffix));
    const CliResult result = runElk(
        QStringList { u"figure"_s, kind, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--batch"_s, u"4"_s, u"--out"_s, out }
        + extra);
    QVERIFY2(result.exitCode == 0, qPrintable(result.out + result.err));
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY2(bytes.size() > 1000, qPrintable(out));
    if (suffix == u"pdf"_s) {
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.contains("%%EOF"));
    } else if (suffix == u"svg"_s) {
        QXmlStreamReader xml(bytes);
        QString root;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement && root.isEmpty())
                root = xml.name().toString();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(root, u"svg"_s);
    } else {
        const QImage image = QImage::fromData(bytes, "PNG");
        QVERIFY(!image.isNull());
        // 8.5 × 6 cm at 300 dpi.
        QCOMPARE(image.width(), qRound(8.5 / 2.54 * 300));
        QCOMPARE(image.height(), qRound(6.0 / 2.54 * 300));
    }
}

// `--style wide` once went to QApplication's own -style option and the figure came out at column size.
void TestFigureCli::wideStyleReachesTheCommand()
{
    const QString path = m_dir.path() + u"/wide.png"_s;
    const CliResult result = runElk({ u"figure"_s, u"designs"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--batch"_s,
        u"4"_s, u"--style"_s, u"wide"_s, u"--out"_s, path });
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const QImage image(path);
    QCOMPARE(image.width(), qRound(17.8 / 2.54 * 300));
    QCOMPARE(image.height(), qRound(7.0 / 2.54 * 300));
}

void TestFigureCli::runSpecFileGivesTheSameFigure()
{
    const CliResult resolved = runElk({ u"runspec"_s, u"resolve"_s, u"--model"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s,
        u"--batch"_s, u"4"_s, u"--kv"_s, u"2048"_s });
    QVERIFY2(resolved.exitCode == 0, qPrintable(resolved.err));
    // `runspec resolve` prints the spec JSON and then its key; keep the JSON object.
    const qsizetype end = resolved.out.lastIndexOf(u'}');
    QVERIFY(end > 0);
    QFile spec(m_dir.filePath(u"spec.json"_s));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write(resolved.out.left(end + 1).toUtf8());
    spec.close();

    const QString fromSpec = m_dir.filePath(u"from-spec.svg"_s);
    const CliResult result
        = runElk({ u"figure"_s, u"designs"_s, u"--run-spec"_s, spec.fileName(), u"--out"_s, fromSpec });
    QVERIFY2(result.exitCode == 0, qPrintable(result.out + result.err));
    QVERIFY(QFile(fromSpec).size() > 1000);
}

void TestFigureCli::rendersHloKinds_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QStringList>("extra");
    for (const QString& kind : { u"hlo-timeline"_s, u"hlo-roofline"_s }) {
        for (const QString& suffix : { u"pdf"_s, u"svg"_s, u"png"_s })
            QTest::addRow("%s %s", qPrintable(kind), qPrintable(suffix)) << kind << suffix << QStringList {};
        QTest::addRow("%s, two systems, dependency split", qPrintable(kind))
            << kind << u"png"_s
            << QStringList { u"--system"_s, u"4x-a100-sxm-40gb"_s, u"--system"_s, u"4x-h100-sxm"_s, u"--split"_s,
                   u"dependency"_s };
    }
}

void TestFigureCli::rendersHloKinds()
{
    QFETCH(QString, kind);
    QFETCH(QString, suffix);
    QFETCH(QStringList, extra);
    const QString out
        = m_dir.filePath(u"%1-%2.%3"_s.arg(kind, QString::number(qHash(extra.join(u' ')) % 1000), suffix));
    const CliResult result = runElk(QStringList { u"figure"_s, kind, u"--hlo"_s, kHloModule, u"--out"_s, out } + extra);
    QVERIFY2(result.exitCode == 0, qPrintable(result.out + result.err));
    const QString problem = checkFigure(out, suffix);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    // It says what it ran: one line per system, with the step time.
    QCOMPARE(result.out.count(u": step "_s), extra.count(u"--system"_s) == 0 ? 1 : int(extra.count(u"--system"_s)));
}

void TestFigureCli::hloMalformedModuleIsLocated()
{
    const QString path = m_dir.filePath(u"truncated.mlir"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %arg0, %arg0 : tensor<4x");
    file.close();
    const QString out = m_dir.filePath(u"never.png"_s);
    const CliResult result = runElk({ u"figure"_s, u"hlo-roofline"_s, u"--hlo"_s, path, u"--out"_s, out });
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(QRegularExpression(u"truncated\\.mlir:2:\\d+: "_s)), qPrintable(result.err));
    QVERIFY(!QFile::exists(out));
}

void TestFigureCli::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::addRow("unknown kind") << QStringList { u"figure"_s, u"pie"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s,
        u"--out"_s, u"x.png"_s } << u"unknown figure KIND 'pie'"_s;
    QTest::addRow("no output") << QStringList { u"figure"_s, u"designs"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s }
                               << u"--out"_s;
    QTest::addRow("bad suffix") << QStringList { u"figure"_s, u"designs"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s,
        u"--out"_s, u"x.jpg"_s } << u".pdf, .svg or .png"_s;
    QTest::addRow("bad width") << QStringList { u"figure"_s, u"designs"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s,
        u"--out"_s, u"x.png"_s, u"--width-cm"_s, u"-3"_s }
                               << u"--width-cm"_s;
    QTest::addRow("missing run spec file")
        << QStringList { u"figure"_s, u"designs"_s, u"--run-spec"_s, u"nowhere.json"_s, u"--out"_s, u"x.png"_s }
        << u"nowhere.json"_s;
    QTest::addRow("sweep without --vary")
        << QStringList { u"figure"_s, u"sweep"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--out"_s, u"x.png"_s }
        << u"--vary"_s;
    QTest::addRow("unknown op") << QStringList { u"figure"_s, u"pareto"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s,
        u"--batch"_s, u"4"_s, u"--out"_s, u"x.png"_s, u"--op"_s, u"no_such_op"_s }
                                << u"no_such_op"_s;
    QTest::addRow("diff-links without a second side")
        << QStringList { u"figure"_s, u"diff-links"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--out"_s, u"x.png"_s }
        << u"diff-links: give --compare-design B, --against-chip C2, or both"_s;
    QTest::addRow("hlo without --hlo") << QStringList { u"figure"_s, u"hlo-timeline"_s, u"--out"_s, u"x.png"_s }
                                       << u"--hlo"_s;
    QTest::addRow("hlo with a MODEL") << QStringList { u"figure"_s, u"hlo-roofline"_s, kModel, u"--hlo"_s,
        g_tinyHloModule, u"--out"_s, u"x.png"_s }
                                      << u"not a MODEL"_s;
    QTest::addRow("hlo unknown system") << QStringList { u"figure"_s, u"hlo-timeline"_s, u"--hlo"_s, g_tinyHloModule,
        u"--system"_s, u"no-such-system"_s, u"--out"_s, u"x.png"_s }
                                        << u"no-such-system"_s;
    QTest::addRow("hlo bad split") << QStringList { u"figure"_s, u"hlo-timeline"_s, u"--hlo"_s, g_tinyHloModule,
        u"--split"_s, u"random"_s, u"--out"_s, u"x.png"_s }
                                   << u"--split"_s;
    QTest::addRow("hlo missing module") << QStringList { u"figure"_s, u"hlo-timeline"_s, u"--hlo"_s, u"nowhere.mlir"_s,
        u"--out"_s, u"x.png"_s } << u"nowhere.mlir"_s;
}

void TestFigureCli::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const CliResult result = runElk(args);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(message), qPrintable(result.err));
}

QTEST_GUILESS_MAIN(TestFigureCli)
#include "tst_figure_cli.moc"
