// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// `elk reproduce` through the real binary on equal terms (no ../shared needed): bad input named,
// the files of a figure written, a repeat served from the cache.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::Literals::StringLiterals;

class TestCliReproduce : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    struct Result {
        int exitCode = -1;
        QString out, err;
    };

    Result runElk(const QStringList& args)
    {
        QProcess process;
        process.setWorkingDirectory(m_dir.path());
        process.start(qEnvironmentVariable("ELK_CLI"), QStringList { u"reproduce"_s } + args);
        Result result;
        if (!process.waitForFinished(300000) || process.exitStatus() != QProcess::NormalExit)
            return result;
        result.exitCode = process.exitCode();
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    QByteArray fileBytes(const QString& name)
    {
        QFile file(m_dir.filePath(name));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("ELK_CLI").isEmpty(), "ELK_CLI must name the elk binary (set by ctest)");
        QVERIFY(m_dir.isValid());
        qputenv("ELK_CACHE_DIR", m_dir.filePath(u"default-cache"_s).toUtf8());
        qunsetenv("ELK_EINSTEIN_DIR");
        QFile bad(m_dir.filePath(u"bad.json"_s));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"schema\": \"elk.published/1\",\n \"values\": [1,]}");
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no figure") << QStringList { u"--out"_s, u"o"_s } << u"no FIGURE given"_s;
        QTest::newRow("unknown figure") << QStringList { u"fig99"_s, u"--out"_s, u"o"_s }
                                        << u"unknown FIGURE 'fig99'"_s;
        QTest::newRow("no out") << QStringList { u"fig17"_s } << u"--out DIR is required"_s;
        QTest::newRow("parity without models")
            << QStringList { u"fig17"_s, u"--out"_s, u"o"_s, u"--parity"_s, u"artifact"_s } << u"give --einstein DIR"_s;
        QTest::newRow("models folder wrong")
            << QStringList { u"fig17"_s, u"--out"_s, u"o"_s, u"--parity"_s, u"artifact"_s, u"--einstein"_s, u"."_s }
            << u"no llama2-13.json there"_s;
        QTest::newRow("quirk without parity") << QStringList { u"fig17"_s, u"--out"_s, u"o"_s, u"--quirk-off"_s,
            u"hbm-mib-per-ms"_s } << u"--quirk-off needs --parity artifact"_s;
        QTest::newRow("unknown parity") << QStringList { u"fig17"_s, u"--out"_s, u"o"_s, u"--parity"_s, u"paper"_s }
                                        << u"'paper' is not a parity mode"_s;
        QTest::newRow("bad published file") << QStringList { u"fig17"_s, u"--out"_s, u"o"_s, u"--published"_s,
            u"bad.json"_s } << u"bad.json: line 2, column"_s;
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Result result = runElk(args);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(message), qPrintable(result.err));
        QVERIFY(!QFile::exists(m_dir.filePath(u"o/summary.md"_s)));
    }

    void figure18()
    {
        const QStringList args { u"fig18"_s, u"--out"_s, u"out"_s, u"--cache"_s, u"cache.sqlite"_s, u"--threads"_s,
            u"2"_s };
        const Result cold = runElk(args);
        QVERIFY2(cold.exitCode == 0, qPrintable(cold.err));
        QVERIFY2(cold.out.contains(u"4 points"_s) && cold.out.contains(u"(0 from the cache)"_s), qPrintable(cold.out));
        QVERIFY2(cold.err.contains(u"4/4 points"_s), qPrintable(cold.err)); // progress
        const QList<QByteArray> lines = fileBytes(u"out/fig18.csv"_s).split('\n');
        QCOMPARE(lines.size(), 1 + 4 * 5 + 1); // header, 4 points × 5 designs, final newline
        QVERIFY(lines.front().startsWith("figure,model,batch,seq,training,cores,hbm_gbps"));
        const QJsonObject summary = QJsonDocument::fromJson(fileBytes(u"out/fig18-summary.json"_s)).object();
        QCOMPARE(summary.value(u"schema"_s).toString(), u"elk.reproduce-summary/1"_s);
        QCOMPARE(summary.value(u"mode"_s).toString(), u"equal-terms"_s);
        QVERIFY(summary.value(u"headline_ratios"_s).toArray().size() >= 4);
        QVERIFY(fileBytes(u"out/fig18-summary.md"_s).contains("| elk-full speedup over basic (mean) |"));
        // Fig. 18 (b): the bundled values' HBM utilisation of Elk-Full beside ours (§6.3's 62.40 %).
        bool elkFullHbm = false;
        for (const QJsonValue& row : summary.value(u"design_means"_s).toArray()) {
            const QJsonObject mean = row.toObject();
            if (mean.value(u"design"_s).toString() == u"elk-full"_s
                && mean.value(u"metric"_s).toString() == u"hbm_utilization"_s) {
                elkFullHbm = true;
                QCOMPARE(mean.value(u"paper"_s).toDouble(), 0.624);
                QVERIFY(mean.value(u"ours"_s).toDouble() > 0);
            }
        }
        QVERIFY(elkFullHbm);
        QVERIFY(fileBytes(u"out/summary.md"_s).contains("fig18"));
#ifdef ELK_HAS_FIGURE_CLI
        for (const char* suffix : { ".pdf", ".svg", ".png" })
            QVERIFY2(fileBytes(u"out/fig18"_s + QLatin1String(suffix)).size() > 1000, suffix);
#endif
        const Result warm = runElk(args);
        QCOMPARE(warm.exitCode, 0);
        QVERIFY2(warm.out.contains(u"(4 from the cache)"_s), qPrintable(warm.out));
        // The numbers do not change; only the from_cache column does.
        QByteArray coldCsv;
        for (const QByteArray& line : lines)
            coldCsv += line.left(line.lastIndexOf(',', line.lastIndexOf(',') - 1)) + '\n';
        QByteArray warmCsv;
        for (const QByteArray& line : fileBytes(u"out/fig18.csv"_s).split('\n'))
            warmCsv += line.left(line.lastIndexOf(',', line.lastIndexOf(',') - 1)) + '\n';
        QCOMPARE(warmCsv, coldCsv);
    }
};

QTEST_GUILESS_MAIN(TestCliReproduce)
#include "tst_cli_reproduce.moc"
