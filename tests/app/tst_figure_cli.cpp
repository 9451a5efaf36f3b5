// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// `elk figure`: every figure kind renders headless to valid PDF, SVG and PNG; bad input is refused
// with exit code 2 and a message naming the option.
#include <QFile>
#include <QImage>
#include <QProcess>
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

} // namespace

class TestFigureCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void rendersEveryKind_data();
    void rendersEveryKind();
    void runSpecFileGivesTheSameFigure();
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
}

void TestFigureCli::rendersEveryKind_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QStringList>("extra");
    const QStringList kinds { u"designs"_s, u"pareto"_s, u"gantt"_s, u"bandwidth"_s, u"heatmap"_s, u"classroom"_s };
    for (const QString& kind : kinds) {
        for (const QString& suffix : { u"pdf"_s, u"svg"_s, u"png"_s })
            QTest::addRow("%s %s", qPrintable(kind), qPrintable(suffix)) << kind << suffix << QStringList {};
    }
    QTest::addRow("sweep png, one axis")
        << u"sweep"_s << u"png"_s << QStringList { u"--vary"_s, u"hbm.bandwidthGBpsPerStack=400:1600:600"_s };
    QTest::addRow("pareto of a named op") << u"pareto"_s << u"svg"_s << QStringList { u"--op"_s, u"attn_scores"_s };
    QTest::addRow("classroom, two designs")
        << u"classroom"_s << u"png"_s << QStringList { u"--view-design"_s, u"basic"_s, u"--compare-design"_s, u"elk-full"_s };
}

void TestFigureCli::rendersEveryKind()
{
    QFETCH(QString, kind);
    QFETCH(QString, suffix);
    QFETCH(QStringList, extra);
    const QString out = m_dir.filePath(u"%1-%2.%3"_s.arg(kind, QString::number(qHash(extra.join(u' ')) % 1000), suffix));
    const CliResult result = runElk(QStringList { u"figure"_s, kind, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s,
                                        u"--batch"_s, u"4"_s, u"--out"_s, out } + extra);
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
    const CliResult result = runElk({ u"figure"_s, u"designs"_s, u"--run-spec"_s, spec.fileName(), u"--out"_s, fromSpec });
    QVERIFY2(result.exitCode == 0, qPrintable(result.out + result.err));
    QVERIFY(QFile(fromSpec).size() > 1000);
}

void TestFigureCli::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::addRow("unknown kind") << QStringList { u"figure"_s, u"pie"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--out"_s, u"x.png"_s }
                                  << u"unknown figure KIND 'pie'"_s;
    QTest::addRow("no output") << QStringList { u"figure"_s, u"designs"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s } << u"--out"_s;
    QTest::addRow("bad suffix") << QStringList { u"figure"_s, u"designs"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--out"_s, u"x.jpg"_s }
                                << u".pdf, .svg or .png"_s;
    QTest::addRow("bad width") << QStringList { u"figure"_s, u"designs"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--out"_s,
        u"x.png"_s, u"--width-cm"_s, u"-3"_s } << u"--width-cm"_s;
    QTest::addRow("missing run spec file") << QStringList { u"figure"_s, u"designs"_s, u"--run-spec"_s, u"nowhere.json"_s,
        u"--out"_s, u"x.png"_s } << u"nowhere.json"_s;
    QTest::addRow("sweep without --vary") << QStringList { u"figure"_s, u"sweep"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s,
        u"--out"_s, u"x.png"_s } << u"--vary"_s;
    QTest::addRow("unknown op") << QStringList { u"figure"_s, u"pareto"_s, kModel, u"--chip"_s, u"ipu-mk2-hbm"_s,
        u"--batch"_s, u"4"_s, u"--out"_s, u"x.png"_s, u"--op"_s, u"no_such_op"_s } << u"no_such_op"_s;
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
