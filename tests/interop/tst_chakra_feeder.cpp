// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// `elk hlo --chakra` traces read by Chakra's own ETFeeder (what ASTRA-sim uses), built from
// ../shared/third_party/chakra into chakra_read: every node is issued (dependencies resolve and are
// acyclic), Σ num_ops equals the report's compute FLOPs, Σ comm_size its collective bytes (loops
// counted per iteration), and comm_group.json has the form ASTRA-sim reads ({"<id ≥ 1>": [ranks]}),
// naming every pg_name the traces use. Runs on a loop module written here and on the hespas
// modules when the corpus is present.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "tests/support/hlo_loop_module.h"
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

const QString kHespas = QStringLiteral(ELK_TEST_DATA_DIR "/stablehlo/hespas");

struct Expected {
    double nodes = 0;
    double computeNodes = 0;
    double computeFlops = 0;
    double collectives = 0;
    double commBytes = 0;
};

Expected fromReport(const QJsonObject& report)
{
    Expected e;
    for (const QJsonValue& value : report[u"regions"_s].toArray()) {
        const QJsonObject region = value.toObject();
        if (region[u"kind"_s].toString() == u"compute"_s) {
            e.nodes += 1;
            e.computeNodes += 1;
            e.computeFlops += region[u"flops"_s].toDouble();
        } else {
            const double executions = std::max(1.0, std::round(region[u"executions"_s].toDouble(1)));
            e.nodes += executions;
            e.collectives += executions;
            e.commBytes += region[u"bytes"_s].toDouble() * executions;
        }
    }
    return e;
}

} // namespace

class TestChakraFeeder : public QObject {
    Q_OBJECT

private slots:
    void feederReadsOurTraces_data()
    {
        QTest::addColumn<QString>("module"); // empty: the loop module written by the test
        QTest::addColumn<QString>("system");
        QTest::addRow("a loop of 10 all-reduces") << QString() << u"4x-a100-sxm-40gb"_s;
        for (const char* file :
            { "jax_example.mlir", "test_split_replica_groups.mlir", "resnet_50_train_step_4_devices_1024_batch.mlir" })
            QTest::addRow("%s", file) << kHespas + u'/' + QLatin1String(file) << u"4x-a100-sxm-40gb"_s;
    }

    void feederReadsOurTraces()
    {
        QFETCH(QString, module);
        QFETCH(QString, system);
        QTemporaryDir out;
        if (module.isEmpty()) {
            module = out.filePath(u"loop.mlir"_s);
            QFile file(module);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(kLoopAllReduceModule);
        }
        const QString chakraDir = out.filePath(u"chakra"_s);
        const QString json = out.filePath(u"report.json"_s);
        QProcess elk;
        elk.start(qEnvironmentVariable("ELK_CLI"),
            { u"hlo"_s, module, u"--system"_s, system, u"--no-cache"_s, u"--json"_s, json, u"--chakra"_s, chakraDir });
        QVERIFY(elk.waitForFinished(120000));
        QVERIFY2(elk.exitCode() == 0, elk.readAllStandardError().constData());
        QFile reportFile(json);
        QVERIFY(reportFile.open(QIODevice::ReadOnly));
        const QJsonObject report = QJsonDocument::fromJson(reportFile.readAll()).object();
        const Expected expected = fromReport(report);
        const int devices = report[u"devices"_s].toInt();
        QVERIFY(devices >= 1);

        // comm_group.json: {"<id>": [ranks]}, ids from 1, ranks distinct and < devices.
        QFile groupsFile(chakraDir + u"/comm_group.json"_s);
        QVERIFY(groupsFile.open(QIODevice::ReadOnly));
        QJsonParseError parseError;
        const QJsonDocument groupsDocument = QJsonDocument::fromJson(groupsFile.readAll(), &parseError);
        QVERIFY2(groupsDocument.isObject(), qPrintable(parseError.errorString()));
        const QJsonObject groups = groupsDocument.object();
        QVERIFY(!groups.isEmpty());
        for (const QString& key : groups.keys()) {
            bool isNumber = false;
            QVERIFY2(key.toInt(&isNumber) >= 1 && isNumber, qPrintable(key));
            QSet<int> ranks;
            for (const QJsonValue& rank : groups[key].toArray()) {
                QVERIFY(rank.isDouble());
                QVERIFY(rank.toInt() >= 0 && rank.toInt() < devices);
                ranks.insert(rank.toInt());
            }
            QCOMPARE(ranks.size(), groups[key].toArray().size());
        }

        QStringList traces;
        for (int rank = 0; rank < devices; ++rank)
            traces << chakraDir + u"/elk.%1.et"_s.arg(rank);
        QProcess reader;
        reader.start(QStringLiteral(CHAKRA_READ), traces);
        QVERIFY(reader.waitForFinished(120000));
        QVERIFY2(reader.exitCode() == 0, reader.readAllStandardError().constData());
        const QStringList lines = QString::fromUtf8(reader.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), devices);
        static const QRegularExpression format(
            u"issued=(\\d+) comp=(\\d+) num_ops=(\\d+) comm=(\\d+) comm_size=(\\d+) pg=(\\S*)$"_s);
        for (const QString& line : lines) {
            const auto match = format.match(line);
            QVERIFY2(match.hasMatch(), qPrintable(line));
            const double issued = match.captured(1).toDouble();
            const double computeNodes = match.captured(2).toDouble();
            const double numOps = match.captured(3).toDouble();
            const double collectives = match.captured(4).toDouble();
            const double commSize = match.captured(5).toDouble();
            QCOMPARE(issued, expected.nodes); // every node issued: dependencies resolve, no cycle
            QCOMPARE(computeNodes, expected.computeNodes);
            QCOMPARE(collectives, expected.collectives);
            // Each node rounds to a whole number: at most half a unit each.
            QVERIFY2(
                std::abs(numOps - expected.computeFlops) <= 0.5 * expected.computeNodes + 1e-9 * expected.computeFlops,
                qPrintable(line + u" expected num_ops %1"_s.arg(expected.computeFlops, 0, 'f', 0)));
            QVERIFY2(std::abs(commSize - expected.commBytes) <= 0.5 * expected.collectives + 1e-9 * expected.commBytes,
                qPrintable(line + u" expected comm_size %1"_s.arg(expected.commBytes, 0, 'f', 0)));
            if (expected.computeFlops > 0)
                QVERIFY(numOps > 0);
            for (const QString& group : match.captured(6).split(u',', Qt::SkipEmptyParts))
                QVERIFY2(groups.contains(group), qPrintable(u"pg_name "_s + group + u" is not in comm_group.json"_s));
        }
    }
};

QTEST_GUILESS_MAIN(TestChakraFeeder)
#include "tst_chakra_feeder.moc"
