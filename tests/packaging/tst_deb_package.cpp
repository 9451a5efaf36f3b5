// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Builds the Debian package with cpack, unpacks it into a temporary root with dpkg-deb and runs the
// packaged CLI from there: what a user gets after `apt install ./elk-studio_….deb`.
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct ProcessOutput {
    int exitCode = -1;
    QString out;
    QString err;
};

ProcessOutput runProcess(const QString& program, const QStringList& arguments, int timeoutMs = 240000)
{
    QProcess process;
    process.start(program, arguments);
    ProcessOutput result;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.err = QStringLiteral("%1 did not finish: %2").arg(program, process.errorString());
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

} // namespace

class TestDebPackage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void packageHasMetadata();
    void packageHasFiles_data();
    void packageHasFiles();
    void packagedCliRuns();

private:
    QTemporaryDir m_work;
    QString m_debPath;
    QString m_root;
};

void TestDebPackage::initTestCase()
{
    QVERIFY(m_work.isValid());
    const QString outputDir = m_work.filePath(QStringLiteral("out"));
    const ProcessOutput cpack = runProcess(QStringLiteral(ELK_CPACK_COMMAND),
        { QStringLiteral("-G"), QStringLiteral("DEB"), QStringLiteral("--config"),
            QStringLiteral(ELK_BUILD_DIR "/CPackConfig.cmake"), QStringLiteral("-B"), outputDir });
    QVERIFY2(cpack.exitCode == 0, qPrintable(cpack.out + cpack.err));
    const QStringList debs = QDir(outputDir).entryList({ QStringLiteral("*.deb") }, QDir::Files);
    QCOMPARE(debs.size(), 1);
    m_debPath = QDir(outputDir).filePath(debs.front());
    QVERIFY2(QFileInfo(m_debPath).size() > 100 * 1024, qPrintable(m_debPath));

    m_root = m_work.filePath(QStringLiteral("root"));
    const ProcessOutput extract = runProcess(QStringLiteral("dpkg-deb"), { QStringLiteral("-x"), m_debPath, m_root });
    QVERIFY2(extract.exitCode == 0, qPrintable(extract.err));
}

void TestDebPackage::packageHasMetadata()
{
    const ProcessOutput info = runProcess(QStringLiteral("dpkg-deb"), { QStringLiteral("-f"), m_debPath });
    QCOMPARE(info.exitCode, 0);
    QVERIFY2(info.out.contains(QStringLiteral("Package: elk-studio")), qPrintable(info.out));
    QVERIFY2(info.out.contains(QStringLiteral("Version: 0.")), qPrintable(info.out));
    // dpkg-shlibdeps found the shared libraries the binaries need.
    const QRegularExpression depends(QStringLiteral("^Depends: .*libqt6core6.*$"), QRegularExpression::MultilineOption);
    QVERIFY2(depends.match(info.out).hasMatch(), qPrintable(info.out));
}

void TestDebPackage::packageHasFiles_data()
{
    QTest::addColumn<QString>("relativePath");
    QTest::addRow("cli") << QStringLiteral("usr/bin/elk");
#ifdef ELK_PACKAGE_HAS_GUI
    QTest::addRow("app") << QStringLiteral("usr/bin/elk-studio");
    QTest::addRow("desktop entry") << QStringLiteral("usr/share/applications/elk-studio.desktop");
    QTest::addRow("icon") << QStringLiteral("usr/share/icons/hicolor/scalable/apps/elk-studio.svg");
#endif
    QTest::addRow("preset") << QStringLiteral("usr/share/elk-studio/presets/ipu-pod4-hbm.json");
    QTest::addRow("bundled model") << QStringLiteral("usr/share/elk-studio/sample_models/llama2-13b-decode.onnx");
    QTest::addRow("default workspace") << QStringLiteral("usr/share/elk-studio/resources/workspaces/default.json");
}

void TestDebPackage::packageHasFiles()
{
    QFETCH(QString, relativePath);
    const QFileInfo file(QDir(m_root).filePath(relativePath));
    QVERIFY2(file.exists() && file.size() > 0, qPrintable(relativePath));
    if (relativePath.startsWith(QStringLiteral("usr/bin/")))
        QVERIFY(file.isExecutable());
}

void TestDebPackage::packagedCliRuns()
{
    const QString elk = QDir(m_root).filePath(QStringLiteral("usr/bin/elk"));
    const ProcessOutput version = runProcess(elk, { QStringLiteral("--version") }, 30000);
    QVERIFY2(version.exitCode == 0, qPrintable(version.err));
    QVERIFY2(version.out.contains(QStringLiteral("0.1")), qPrintable(version.out));

    const ProcessOutput presets = runProcess(elk, { QStringLiteral("presets") }, 30000);
    QVERIFY2(presets.exitCode == 0, qPrintable(presets.err));
    for (const char* name : { "ipu-mk2-hbm", "ipu-pod4-hbm", "ipu-pod4-hbm-mesh", "teaching-mesh-4x4" })
        QVERIFY2(presets.out.contains(QLatin1String(name)), name);

    // The installed default workspace opens with its installed model (relative path kept).
    const QString workspace
        = QDir(m_root).filePath(QStringLiteral("usr/share/elk-studio/resources/workspaces/default.json"));
    const ProcessOutput opened = runProcess(elk, { QStringLiteral("workspace"), workspace }, 60000);
    QVERIFY2(opened.exitCode == 0, qPrintable(opened.out + opened.err));
}

QTEST_GUILESS_MAIN(TestDebPackage)
#include "tst_deb_package.moc"
