// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// `mpirun -np 2 elk sweep … --mpi` gives the CSV of a single process, byte for byte, and leaves one
// merged cache (issue 19). Skipped (exit 77, "skipped" in ctest) when mpirun is absent or this elk
// was built without MPI.
#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace Qt::Literals::StringLiterals;

namespace {

const QString kSample = QStringLiteral(ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json");

struct Result {
    int exitCode = -1;
    QString out, err;
};

} // namespace

class TestCliMpi : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    Result run(const QString& program, const QStringList& args)
    {
        QProcess process;
        process.setWorkingDirectory(m_dir.path());
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        // CI containers run as root; OpenMPI refuses that unless told.
        environment.insert(u"OMPI_ALLOW_RUN_AS_ROOT"_s, u"1"_s);
        environment.insert(u"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"_s, u"1"_s);
        environment.insert(u"ELK_CACHE_DIR"_s, m_dir.filePath(u"default-cache"_s));
        process.setProcessEnvironment(environment);
        process.start(program, args);
        Result result;
        if (!process.waitForFinished(240000) || process.exitStatus() != QProcess::NormalExit)
            return result;
        result.exitCode = process.exitCode();
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    QByteArray bytes(const QString& name)
    {
        QFile file(m_dir.filePath(name));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

private slots:
    void twoRanksGiveTheSingleProcessCsv()
    {
        // One invalid point (a negative bandwidth) is reported in its row, not fatal to the others.
        const QStringList sweep { u"sweep"_s, kSample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--vary"_s,
            u"hbm.bandwidthGBpsPerStack=-1,250,375,500,625,750"_s, u"--design"_s, u"basic,elk-full"_s };
        const Result single = run(qEnvironmentVariable("ELK_CLI"),
            sweep + QStringList { u"--cache"_s, u"single.sqlite"_s, u"--csv"_s, u"single.csv"_s });
        QVERIFY2(single.exitCode == 0, qPrintable(single.err));
        const Result ranks = run(QStandardPaths::findExecutable(u"mpirun"_s),
            QStringList { u"--oversubscribe"_s, u"-np"_s, u"2"_s, qEnvironmentVariable("ELK_CLI") } + sweep
                + QStringList { u"--mpi"_s, u"--cache"_s, u"mpi.sqlite"_s, u"--csv"_s, u"mpi.csv"_s });
        QVERIFY2(ranks.exitCode == 0, qPrintable(ranks.err));
        QVERIFY(!bytes(u"single.csv"_s).isEmpty());
        QCOMPARE(bytes(u"mpi.csv"_s), bytes(u"single.csv"_s));
        QVERIFY(bytes(u"mpi.csv"_s).contains("-1,basic,,"));
        QVERIFY2(
            ranks.out.contains(u"6 points × 2 designs"_s) && ranks.out.contains(u"1 failed"_s), qPrintable(ranks.out));
        // The ranks' caches were merged into mpi.sqlite and removed.
        QVERIFY(!QFile::exists(m_dir.filePath(u"mpi.sqlite.rank0"_s)));
        QVERIFY(!QFile::exists(m_dir.filePath(u"mpi.sqlite.rank1"_s)));
        const Result warm = run(qEnvironmentVariable("ELK_CLI"),
            sweep + QStringList { u"--cache"_s, u"mpi.sqlite"_s, u"--csv"_s, u"warm.csv"_s });
        QVERIFY2(warm.out.contains(u"5 from the cache"_s), qPrintable(warm.out));
    }
};

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (QStandardPaths::findExecutable(u"mpirun"_s).isEmpty()) {
        std::printf("SKIP: mpirun is not installed (packaging/install-deps.sh installs openmpi-bin)\n");
        return 77;
    }
    QProcess probe;
    probe.start(qEnvironmentVariable("ELK_CLI"), { u"sweep"_s, u"--help"_s });
    probe.waitForFinished(30000);
    if (QString::fromUtf8(probe.readAllStandardOutput()).contains(u"Not in this build"_s)) {
        std::printf("SKIP: this elk was built without MPI (-DELK_WITH_MPI=OFF or no libopenmpi-dev)\n");
        return 77;
    }
    TestCliMpi test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_cli_mpi.moc"
