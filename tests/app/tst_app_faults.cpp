// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Faults tried through the app's own paths, offscreen: every malformed file kind (model, chip,
// workspace, StableHLO module) gives a message that names the file, nothing crashes, and what was
// open stays open; a run whose worker throws shows the error and the window keeps working; a cache
// that cannot be written is reported and runs go on without it.
#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <stdexcept>

#include "app/studio/hlo_page.h"
#include "app/studio/main_window.h"
#include "app/studio/run_job.h"
#include "widgets/chip_editor/chip_editor.h"
#include "widgets/model/model_pane.h"
#include "widgets/model/model_summary_view.h"

using elk::app::MainWindow;
using namespace Qt::Literals::StringLiterals;

namespace {

const QString kGoodModel = QStringLiteral(ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json");
const QString kGoodModule = QStringLiteral(ELK_TEST_DATA_DIR "/stablehlo/hespas/jax_example.mlir");
constexpr int kTimeoutMs = 120000; // sanitizer builds on a busy machine

QString panelTitle(const MainWindow& window)
{
    return window.modelView()->findChild<QLabel*>(u"modelTitle"_s)->text();
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestAppFaults : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString write(const QString& name, const QByteArray& bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

    /// A window with the sample model loaded and the ipu-mk2-hbm chip open.
    bool openGoodState(MainWindow& window)
    {
        if (!window.openChip(u"ipu-mk2-hbm"_s).isEmpty())
            return false;
        window.openModel(kGoodModel);
        return QTest::qWaitFor([&] { return window.modelPane()->snapshot() != nullptr; }, kTimeoutMs)
            && window.modelPane()->snapshot()->ok();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("ELK_CACHE_DIR", m_dir.filePath(u"cache"_s).toLocal8Bit());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"Elk Studio Tests"_s);
        QCoreApplication::setApplicationName(u"tst_app_faults"_s);
    }

    void malformedModelKeepsTheOpenModel_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addRow("garbage .onnx") << u"garbage.onnx"_s
                                       << QByteArray("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01not onnx", 19);
        QTest::addRow("empty .onnx") << u"empty.onnx"_s << QByteArray();
        QTest::addRow("truncated .onnx")
            << u"truncated.onnx"_s
            << readAll(QStringLiteral(ELK_SOURCE_DIR "/sample_models/llama2-13b-decode.onnx")).left(40000);
        QTest::addRow("einstein_v2 syntax error")
            << u"broken_syntax.json"_s << readAll(QStringLiteral(ELK_TEST_DATA_DIR "/einstein/broken_syntax.json"));
        QTest::addRow("einstein_v2 unknown input")
            << u"broken_unknown_input.json"_s
            << readAll(QStringLiteral(ELK_TEST_DATA_DIR "/einstein/broken_unknown_input.json"));
        QTest::addRow("elk.graph of another schema")
            << u"other.elk.json"_s << QByteArray(R"({"schema": "elk.graph/9"})");
        QTest::addRow("binary .json") << u"binary.json"_s << QByteArray("\x00\x01\x02\x03\xfe\xff", 6);
        QTest::addRow("unknown extension") << u"model.txt"_s << QByteArray("hello");
    }

    void malformedModelKeepsTheOpenModel()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        MainWindow window(m_dir.filePath(u"cache/models.sqlite"_s));
        QVERIFY(openGoodState(window));
        const auto good = window.modelPane()->snapshot();
        const QString title = panelTitle(window);

        window.openModel(write(name, bytes));
        QTRY_VERIFY_WITH_TIMEOUT(!window.modelPane()->openErrorText().isEmpty(), kTimeoutMs);
        const QString error = window.modelPane()->openErrorText();
        qInfo("%s", qPrintable(error));
        QVERIFY2(error.contains(name), qPrintable(error));
        QVERIFY2(window.statusBar()->currentMessage().contains(name), qPrintable(window.statusBar()->currentMessage()));
        QCOMPARE(window.modelPane()->snapshot(), good); // the open model stays
        QCOMPARE(panelTitle(window), title);
        QVERIFY(window.runAction()->isEnabled());
        QVERIFY(window.currentRunSpec().ok()); // and still runs
    }

    void malformedChipKeepsTheOpenChip_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("mentions"); // what the message must say besides the file
        QTest::addRow("not JSON") << u"chip.json"_s << QByteArray("{ \"name\": \"x\",\n  oops }") << u"line 2"_s;
        QTest::addRow("empty") << u"empty-chip.json"_s << QByteArray() << u"line 1"_s;
        QTest::addRow("wrong type") << u"typed-chip.json"_s << QByteArray(R"({"name": 5})") << u"/name"_s;
        QTest::addRow("duplicate key") << u"twice-chip.json"_s << QByteArray(R"({"name": "a", "name": "b"})")
                                       << u"name"_s;
    }

    void malformedChipKeepsTheOpenChip()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, mentions);
        MainWindow window(m_dir.filePath(u"cache/chips.sqlite"_s));
        QCOMPARE(window.openChip(u"ipu-mk2-hbm"_s), QString());
        const std::string before = window.chipEditor()->spec().name;
        const QString error = window.openChip(write(name, bytes));
        qInfo("%s", qPrintable(error));
        QVERIFY2(error.contains(name) && error.contains(mentions), qPrintable(error));
        QCOMPARE(window.chipEditor()->spec().name, before);
        QVERIFY(window.chipEditor()->isValid());
    }

    void malformedWorkspaceKeepsTheState_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addRow("not JSON") << u"bad.elkproj"_s << QByteArray("{\n  \"schema\": \"elk.workspace/2\",\n  ]");
        QTest::addRow("empty") << u"empty.elkproj"_s << QByteArray();
        QTest::addRow("unknown schema") << u"schema.elkproj"_s << QByteArray(R"({"schema": "elk.workspace/99"})");
        QTest::addRow("wrong type") << u"typed.elkproj"_s << QByteArray(R"({"schema": "elk.workspace/2", "model": 7})");
        QTest::addRow("missing file") << u"no-such.elkproj"_s << QByteArray("<not written>");
    }

    void malformedWorkspaceKeepsTheState()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        MainWindow window(m_dir.filePath(u"cache/workspaces.sqlite"_s));
        QVERIFY(openGoodState(window));
        const auto model = window.modelPane()->snapshot();
        const QString path = bytes == "<not written>" ? m_dir.filePath(name) : write(name, bytes);
        const QString error = window.openWorkspaceFile(path);
        qInfo("%s", qPrintable(error));
        QVERIFY2(!error.isEmpty() && error.contains(name), qPrintable(error));
        QCOMPARE(window.chipEditor()->spec().name, std::string("ipu-mk2-hbm"));
        QCOMPARE(window.modelPane()->snapshot(), model);
        QVERIFY(window.currentRunSpec().ok());
    }

    void malformedModuleKeepsTheLastRun()
    {
        MainWindow window(m_dir.filePath(u"cache/hlo.sqlite"_s));
        elk::app::HloPage* page = window.hloPage();
        window.openHloModule(kGoodModule, true);
        QTRY_VERIFY_WITH_TIMEOUT(page->runs() && !page->job()->isRunning(), kTimeoutMs);
        const auto good = page->runs();
        QVERIFY(good->ok());
        const QString bad = write(u"broken.mlir"_s,
            "module {\n  func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            "    %0 = stablehlo.add %a, %a : tensor<4x\n  }\n}\n");
        window.openHloModule(bad, true);
        QTRY_VERIFY_WITH_TIMEOUT(!page->errorText().isEmpty() && !page->job()->isRunning(), kTimeoutMs);
        qInfo("%s", qPrintable(page->errorText()));
        // The type left open on line 3 is found incomplete where line 4 starts.
        QVERIFY2(
            page->errorText().contains(u"broken.mlir:4:3: expected element type"_s), qPrintable(page->errorText()));
        QCOMPARE(page->runs(), good);
        QVERIFY(page->runButton()->isEnabled());
    }

    void workerThatThrowsShowsTheErrorAndTheWindowGoesOn()
    {
        MainWindow window(m_dir.filePath(u"cache/throws.sqlite"_s));
        QVERIFY(openGoodState(window));
        QSignalSpy failed(window.runJob(), &elk::app::RunJob::failed);
        window.runJob()->start([]() -> elk::run::RunSpecResult { throw std::runtime_error("injected fault"); });
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTimeoutMs);
        const QString message = failed.front().front().toString();
        QVERIFY2(message.contains(u"internal error"_s) && message.contains(u"injected fault"_s), qPrintable(message));
        QVERIFY2(window.statusBar()->currentMessage().contains(u"injected fault"_s),
            qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(!window.runJob()->isRunning());
        QVERIFY(window.runAction()->isEnabled());
        // Usable: a real run afterwards finishes.
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(window.lastRun() != nullptr, kTimeoutMs);
    }

    void unwritableCacheIsReportedAndRunsGoOn()
    {
        // A cache path whose folder is a regular file: nothing can be created there, whoever runs this.
        const QString blocker = write(u"not-a-folder"_s, "x");
        const QString path = blocker + u"/results.sqlite"_s;
        MainWindow window(path);
        qInfo("%s", qPrintable(window.storeMessage()));
        QVERIFY2(window.storeMessage().contains(path), qPrintable(window.storeMessage()));
        QVERIFY(window.store() == nullptr);
        QVERIFY(openGoodState(window));
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(window.lastRun() != nullptr, kTimeoutMs);
    }
};

QTEST_MAIN(TestAppFaults)
#include "tst_app_faults.moc"
