// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// `elk sweep` through the real binary: exit codes and messages, CSV to a file or stdout, the cache
// serving a repeat, presets.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using namespace Qt::Literals::StringLiterals;

namespace {

struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

const QString kSample = QStringLiteral(ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json");

} // namespace

class TestCliSweep : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    CliResult runElk(const QStringList& args) { return runCommand(QStringList { u"sweep"_s } + args); }

    CliResult runCommand(const QStringList& args)
    {
        QProcess process;
        process.setWorkingDirectory(m_dir.path());
        process.start(qEnvironmentVariable("ELK_CLI"), args);
        CliResult result;
        if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit)
            return result;
        result.exitCode = process.exitCode();
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    QStringList fileLines(const QString& name)
    {
        QFile file(m_dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            return {};
        return QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("ELK_CLI").isEmpty(), "ELK_CLI must name the elk binary (set by ctest)");
        QVERIFY(m_dir.isValid());
        // Never touch the user's cache from a test.
        qputenv("ELK_CACHE_DIR", m_dir.filePath(u"default-cache"_s).toUtf8());
    }

    void badUsageExitsWith2_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        const QStringList ok { kSample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--csv"_s, u"-"_s, u"--no-cache"_s };
        QTest::addRow("no model") << QStringList { u"--chip"_s, u"ipu-mk2-hbm"_s } << u"no MODEL given"_s;
        QTest::addRow("no chip") << QStringList { kSample, u"--csv"_s, u"-"_s, u"--vary"_s, u"chips=1,2"_s }
                                 << u"--chip PRESET|FILE is required"_s;
        QTest::addRow("no csv") << QStringList { kSample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--vary"_s, u"chips=1,2"_s }
                                << u"--csv OUT|- is required"_s;
        QTest::addRow("nothing varied") << ok << u"nothing to vary"_s;
        QTest::addRow("stop below start") << ok + QStringList { u"--vary"_s, u"hbm.bandwidthGBpsPerStack=2:1:1"_s }
                                          << u"--vary hbm.bandwidthGBpsPerStack=2:1:1: stop below start"_s;
        QTest::addRow("a field twice") << ok + QStringList { u"--vary"_s, u"chips=1,2"_s, u"--vary"_s, u"chips=3,4"_s }
                                       << u"chips is varied twice"_s;
        QTest::addRow("unknown preset") << ok + QStringList { u"--preset"_s, u"fastest"_s }
                                        << u"--preset: 'fastest' is not one of hbm-bandwidth"_s;
        QTest::addRow("bad thread count") << ok + QStringList { u"--vary"_s, u"chips=1,2"_s, u"--threads"_s, u"-1"_s }
                                          << u"--threads: '-1' is not an integer"_s;
        QTest::addRow("cache and no cache")
            << ok + QStringList { u"--vary"_s, u"chips=1,2"_s, u"--cache"_s, u"x.sqlite"_s } << u"exclude each other"_s;
        QTest::addRow("unknown chip") << QStringList { kSample, u"--chip"_s, u"no-such-chip"_s, u"--csv"_s, u"-"_s,
            u"--vary"_s, u"chips=1,2"_s }
                                      << u"neither a built-in preset"_s;
        QTest::addRow("every point invalid") << ok + QStringList { u"--vary"_s, u"hbm.bogus=1,2"_s }
                                             << u"2 of 2 points failed; first: /chip/hbm/bogus: unknown chip field"_s;
    }

    void badUsageExitsWith2()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const CliResult result = runElk(args);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(says), qPrintable(result.err));
    }

    void writesCsvAndRepeatsFromTheCache()
    {
        const QStringList args { kSample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--vary"_s,
            u"hbm.bandwidthGBpsPerStack=250,500"_s, u"--vary"_s, u"interconnect.linkBandwidthGBpsPerCore=4:8:4"_s,
            u"--design"_s, u"basic,ideal"_s, u"--csv"_s, u"grid.csv"_s, u"--cache"_s, u"cache/results.sqlite"_s,
            u"--threads"_s, u"2"_s };
        const CliResult cold = runElk(args);
        QCOMPARE(cold.exitCode, 0);
        QVERIFY2(
            cold.out.startsWith(u"sweep: 4 points × 2 designs, 0 from the cache, 0 failed"_s), qPrintable(cold.out));
        QVERIFY(cold.out.contains(u"cache/results.sqlite"_s));
        const QStringList lines = fileLines(u"grid.csv"_s);
        QCOMPARE(lines.size(), 1 + 4 * 2);
        QCOMPARE(lines.front(),
            u"hbm.bandwidthGBpsPerStack,interconnect.linkBandwidthGBpsPerCore,design,latency_ms,from_cache,error"_s);
        QVERIFY2(lines[1].startsWith(u"250,4,basic,"_s), qPrintable(lines[1]));
        QVERIFY2(lines[8].startsWith(u"500,8,ideal,"_s), qPrintable(lines[8]));
        QVERIFY(lines[1].endsWith(u",0,"_s));

        const CliResult warm = runElk(args);
        QCOMPARE(warm.exitCode, 0);
        QVERIFY2(warm.out.startsWith(u"sweep: 4 points × 2 designs, 4 from the cache"_s), qPrintable(warm.out));
        const QStringList again = fileLines(u"grid.csv"_s);
        QCOMPARE(again.size(), lines.size());
        for (int i = 1; i < lines.size(); ++i) {
            // Same numbers; only from_cache changes.
            QCOMPARE(again[i].section(u',', 0, 3), lines[i].section(u',', 0, 3));
            QCOMPARE(again[i].section(u',', 4, 4), u"1"_s);
        }
    }

    // Two sweep processes writing one cache file at once (overlapping points): both succeed, and a
    // third run finds every point of both in the cache.
    void twoProcessesShareOneCache()
    {
        const QString cache = m_dir.filePath(u"shared/results.sqlite"_s);
        auto argsFor = [&](const QString& hbm, const QString& csv) {
            return QStringList { u"sweep"_s, kSample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--vary"_s, hbm, u"--vary"_s,
                u"interconnect.linkBandwidthGBpsPerCore=4:10:2"_s, u"--design"_s, u"basic,elk-full"_s, u"--csv"_s, csv,
                u"--cache"_s, cache, u"--threads"_s, u"1"_s };
        };
        QProcess first, second;
        for (QProcess* process : { &first, &second })
            process->setWorkingDirectory(m_dir.path());
        first.start(qEnvironmentVariable("ELK_CLI"), argsFor(u"hbm.bandwidthGBpsPerStack=200,300,400"_s, u"a.csv"_s));
        second.start(qEnvironmentVariable("ELK_CLI"), argsFor(u"hbm.bandwidthGBpsPerStack=300,400,500"_s, u"b.csv"_s));
        for (QProcess* process : { &first, &second }) {
            QVERIFY(process->waitForFinished(300000));
            QCOMPARE(process->exitStatus(), QProcess::NormalExit);
            QVERIFY2(process->exitCode() == 0, process->readAllStandardError().constData());
        }
        // 4 HBM values × 4 link bandwidths: every one of the 16 points is now cached.
        const CliResult all = runElk(argsFor(u"hbm.bandwidthGBpsPerStack=200,300,400,500"_s, u"all.csv"_s).mid(1));
        QCOMPARE(all.exitCode, 0);
        QVERIFY2(
            all.out.startsWith(u"sweep: 16 points × 2 designs, 16 from the cache, 0 failed"_s), qPrintable(all.out));
        QCOMPARE(fileLines(u"all.csv"_s).size(), 1 + 16 * 2);
    }

    void csvToStdoutKeepsTheSummaryOnStderr()
    {
        const CliResult result = runElk({ kSample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--preset"_s, u"topology"_s,
            u"--design"_s, u"basic"_s, u"--csv"_s, u"-"_s, u"--no-cache"_s });
        QCOMPARE(result.exitCode, 0);
        const QStringList lines = result.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0], u"interconnect.topology,design,latency_ms,from_cache,error"_s);
        QVERIFY2(lines[1].startsWith(u"all-to-all,basic,"_s), qPrintable(lines[1]));
        QVERIFY2(lines[2].startsWith(u"mesh2d,basic,"_s), qPrintable(lines[2]));
        QVERIFY2(result.err.contains(u"(no cache)"_s), qPrintable(result.err));
        QVERIFY(!QFile::exists(m_dir.filePath(u"default-cache/results.sqlite"_s)));
    }

    void unwritableCsvExitsWith2()
    {
        const CliResult result
            = runElk({ kSample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--vary"_s, u"hbm.bandwidthGBpsPerStack=250"_s,
                u"--design"_s, u"basic"_s, u"--csv"_s, u"no/such/folder/out.csv"_s, u"--no-cache"_s });
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(u"cannot write no/such/folder/out.csv"_s), qPrintable(result.err));
    }

    void defaultCacheIsUsed()
    {
        const CliResult result = runElk({ kSample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--vary"_s,
            u"hbm.bandwidthGBpsPerStack=300"_s, u"--design"_s, u"basic"_s, u"--csv"_s, u"one.csv"_s });
        QCOMPARE(result.exitCode, 0);
        QVERIFY(QFile::exists(m_dir.filePath(u"default-cache/results.sqlite"_s)));
    }

    /// Issue 19: three shards, each with its own cache, merged into one: the sweep's CSV from the merged
    /// cache is byte-identical to a single process's (both served from their cache).
    void shardsMergeToTheSingleProcessResult()
    {
        const QStringList sweep { kSample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--vary"_s,
            u"hbm.bandwidthGBpsPerStack=250:1000:125"_s, u"--design"_s, u"basic,elk-dyn"_s };
        int shardRows = 0;
        for (int k = 0; k < 3; ++k) {
            const CliResult shard = runElk(sweep
                + QStringList { u"--shard"_s, u"%1/3"_s.arg(k), u"--cache"_s, u"shard%1.sqlite"_s.arg(k), u"--csv"_s,
                    u"shard%1.csv"_s.arg(k) });
            QVERIFY2(shard.exitCode == 0, qPrintable(shard.err));
            QVERIFY2(shard.out.contains(u"shard %1/3:"_s.arg(k)), qPrintable(shard.out));
            shardRows += int(fileLines(u"shard%1.csv"_s.arg(k)).size()) - 1;
        }
        QCOMPARE(shardRows, 7 * 2); // every point in exactly one shard
        const CliResult merge = runCommand({ u"cache"_s, u"merge"_s, u"shard0.sqlite"_s, u"shard1.sqlite"_s,
            u"shard2.sqlite"_s, u"--into"_s, u"merged.sqlite"_s });
        QVERIFY2(merge.exitCode == 0, qPrintable(merge.err));
        QVERIFY2(merge.out.contains(u"merged.sqlite: 7 runs"_s), qPrintable(merge.out));
        const CliResult fromMerged
            = runElk(sweep + QStringList { u"--cache"_s, u"merged.sqlite"_s, u"--csv"_s, u"merged.csv"_s });
        QVERIFY2(fromMerged.out.contains(u"7 from the cache"_s), qPrintable(fromMerged.out));
        for (int pass = 0; pass < 2; ++pass) { // the second pass is served from the cache, as the merged one
            const CliResult single
                = runElk(sweep + QStringList { u"--cache"_s, u"single.sqlite"_s, u"--csv"_s, u"single.csv"_s });
            QCOMPARE(single.exitCode, 0);
        }
        QCOMPARE(fileLines(u"merged.csv"_s), fileLines(u"single.csv"_s));
        const CliResult stats = runCommand({ u"cache"_s, u"stats"_s, u"--cache"_s, u"merged.sqlite"_s });
        QCOMPARE(stats.exitCode, 0);
        QVERIFY2(stats.out.contains(QRegularExpression(u"runs \\(summaries\\): +7 rows"_s)), qPrintable(stats.out));
        QVERIFY2(stats.out.contains(QRegularExpression(u"partition tables: +1 rows"_s)), qPrintable(stats.out));
        // Merging again adds nothing; a file that is no cache, or the target itself, is refused.
        const CliResult again
            = runCommand({ u"cache"_s, u"merge"_s, u"shard0.sqlite"_s, u"--into"_s, u"merged.sqlite"_s });
        QVERIFY2(again.out.contains(u"shard0.sqlite: 0 runs, 0 partition tables"_s), qPrintable(again.out));
        const CliResult notCache
            = runCommand({ u"cache"_s, u"merge"_s, u"shard0.csv"_s, u"--into"_s, u"merged.sqlite"_s });
        QCOMPARE(notCache.exitCode, 2);
        QVERIFY2(notCache.err.contains(u"shard0.csv: "_s), qPrintable(notCache.err));
        const CliResult itself
            = runCommand({ u"cache"_s, u"merge"_s, u"merged.sqlite"_s, u"--into"_s, u"merged.sqlite"_s });
        QCOMPARE(itself.exitCode, 2);
        const CliResult badShard = runElk(sweep + QStringList { u"--shard"_s, u"3/3"_s, u"--csv"_s, u"x.csv"_s });
        QCOMPARE(badShard.exitCode, 2);
        QVERIFY2(badShard.err.contains(u"--shard 3/3"_s), qPrintable(badShard.err));
    }

    /// The merged cache lists the sweep and gives its CSV without the model; trim keeps it under a limit
    /// and what is left still opens.
    void mergedCacheListsItsSweepAndTrimBoundsIt()
    {
        const CliResult list = runCommand({ u"cache"_s, u"sweeps"_s, u"--cache"_s, u"merged.sqlite"_s });
        QCOMPARE(list.exitCode, 0);
        QVERIFY2(list.out.contains(u"7/7 points"_s) && list.out.contains(u"HBM bandwidth per stack (GB/s)"_s),
            qPrintable(list.out));
        const QString hash = list.out.left(12);
        const CliResult csv = runCommand(
            { u"cache"_s, u"sweep"_s, hash, u"--cache"_s, u"merged.sqlite"_s, u"--csv"_s, u"recorded.csv"_s });
        QVERIFY2(csv.exitCode == 0, qPrintable(csv.err));
        QCOMPARE(fileLines(u"recorded.csv"_s), fileLines(u"single.csv"_s));

        QVERIFY(QFile::copy(m_dir.filePath(u"merged.sqlite"_s), m_dir.filePath(u"bounded.sqlite"_s)));
        const qint64 before = QFileInfo(m_dir.filePath(u"bounded.sqlite"_s)).size();
        const qint64 limit = before - before / 4; // a few of the seven runs must go (the empty tables take ~48 KiB)
        const CliResult trim = runCommand(
            { u"cache"_s, u"trim"_s, u"--cache"_s, u"bounded.sqlite"_s, u"--max-size"_s, QString::number(limit) });
        QVERIFY2(trim.exitCode == 0, qPrintable(trim.err + trim.out));
        const qint64 after = QFileInfo(m_dir.filePath(u"bounded.sqlite"_s)).size()
            + QFileInfo(m_dir.filePath(u"bounded.sqlite-wal"_s)).size();
        QVERIFY2(after <= limit, qPrintable(u"%1 bytes after trim, limit %2"_s.arg(after).arg(limit)));
        const CliResult left = runCommand({ u"cache"_s, u"sweep"_s, hash, u"--cache"_s, u"bounded.sqlite"_s });
        QVERIFY2(left.exitCode == 0, qPrintable(left.err));
        const qsizetype rowsLeft = left.out.count(QLatin1Char('\n')) - 1;
        QVERIFY2(rowsLeft > 0 && rowsLeft < 14, qPrintable(left.out));
        QVERIFY2(left.err.contains(u"%1 of 7 points from the cache"_s.arg(rowsLeft / 2)), qPrintable(left.err));

        const CliResult badSize
            = runCommand({ u"cache"_s, u"trim"_s, u"--cache"_s, u"bounded.sqlite"_s, u"--max-size"_s, u"lots"_s });
        QCOMPARE(badSize.exitCode, 2);
        QVERIFY2(badSize.err.contains(u"'lots' is not a size"_s), qPrintable(badSize.err));
        QCOMPARE(runCommand({ u"cache"_s, u"trim"_s, u"--cache"_s, u"bounded.sqlite"_s }).exitCode, 2);
        const CliResult missing
            = runCommand({ u"cache"_s, u"trim"_s, u"--cache"_s, u"nowhere.sqlite"_s, u"--max-size"_s, u"1M"_s });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains(u"no such result cache file"_s), qPrintable(missing.err));
        QVERIFY(!QFile::exists(m_dir.filePath(u"nowhere.sqlite"_s))); // looking never creates a cache
        const CliResult unknown
            = runCommand({ u"cache"_s, u"sweep"_s, u"abcdef"_s, u"--cache"_s, u"bounded.sqlite"_s });
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains(u"no sweep abcdef"_s), qPrintable(unknown.err));
    }

    /// A key whose result differs between two caches is an error naming it, and nothing is copied.
    void mergeRefusesDifferingResults()
    {
        const QStringList sweep { kSample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--vary"_s,
            u"hbm.bandwidthGBpsPerStack=250,500"_s, u"--design"_s, u"basic"_s, u"--csv"_s, u"d.csv"_s };
        QCOMPARE(runElk(sweep + QStringList { u"--cache"_s, u"a.sqlite"_s }).exitCode, 0);
        QCOMPARE(runElk(sweep + QStringList { u"--cache"_s, u"b.sqlite"_s }).exitCode, 0);
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(m_dir.filePath(u"b.sqlite"_s).toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "UPDATE runs SET latency_ms = zeroblob(8)", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
        const CliResult first = runCommand({ u"cache"_s, u"merge"_s, u"a.sqlite"_s, u"--into"_s, u"c.sqlite"_s });
        QCOMPARE(first.exitCode, 0);
        const CliResult conflict = runCommand({ u"cache"_s, u"merge"_s, u"b.sqlite"_s, u"--into"_s, u"c.sqlite"_s });
        QCOMPARE(conflict.exitCode, 2);
        QVERIFY2(conflict.err.contains(u"b.sqlite: run "_s) && conflict.err.contains(u"differs"_s),
            qPrintable(conflict.err));
        QVERIFY2(conflict.out.contains(u"c.sqlite: 2 runs"_s), qPrintable(conflict.out));
    }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "tst_cli_sweep.moc"
