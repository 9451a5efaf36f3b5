// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The elk-studio main window offscreen: the default workspace opens chip and model, Run follows the
// chip's validity and the model's state, and a missing model is reported in the panel while the
// rest of the window keeps working.
#include <QAction>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "app/studio/main_window.h"
#include "engine/run/workspace.h"
#include "widgets/chip_editor/chip_editor.h"
#include "widgets/model/model_summary_view.h"

using elk::app::MainWindow;

namespace {

const char* const kDefaultWorkspace = ELK_SOURCE_DIR "/resources/workspaces/default.json";
const char* const kDefaultModel = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";
constexpr int kLoadTimeoutMs = 20000; // a Debug build on a busy machine

elk::run::Workspace workspaceFrom(const std::string& path)
{
    const auto parsed = elk::run::loadWorkspaceFile(path);
    if (!parsed.ok())
        qFatal("workspace %s does not parse: %s", path.c_str(), parsed.errors.front().message.c_str());
    return parsed.workspace;
}

QString panelText(const MainWindow& window, const char* name)
{
    auto* label = window.modelView()->findChild<QLabel*>(QLatin1String(name));
    if (!label)
        qFatal("no panel label %s", name);
    return label->text();
}

bool panelShows(const MainWindow& window, const char* name)
{
    return window.modelView()->findChild<QLabel*>(QLatin1String(name))->isVisibleTo(window.modelView());
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
    QTemporaryDir m_cache;

private slots:
    void initTestCase()
    {
        // Opening a workspace runs it: through a cache of this test's own, never the user's.
        QVERIFY(m_cache.isValid());
        qputenv("ELK_CACHE_DIR", m_cache.path().toLocal8Bit());
        // Never read or write the user's saved window state.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("Elk Studio Tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_main_window"));
    }

    void defaultWorkspaceOpensChipAndModel()
    {
        MainWindow window;
        QCOMPARE(window.openWorkspace(workspaceFrom(kDefaultWorkspace)), QString());
        QCOMPARE(window.chipEditor()->spec().name, std::string("ipu-pod4-hbm"));
        QVERIFY(window.chipEditor()->undoStack()->isClean()); // opening is not an edit

        QTRY_COMPARE_WITH_TIMEOUT(panelText(window, "opCount"), QStringLiteral("18"), kLoadTimeoutMs);
        QCOMPARE(panelText(window, "modelTitle"), QStringLiteral("llama2-13b-layer-decode"));
        QCOMPARE(panelText(window, "distinctExpressionCount"), QStringLiteral("12"));
        QCOMPARE(panelText(window, "batch"), QStringLiteral("16")); // from the workspace's run section
        QCOMPARE(panelText(window, "kvLen"), QStringLiteral("2048"));
        QVERIFY(!panelShows(window, "modelError"));
        QVERIFY(window.runAction()->isEnabled());
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("llama2-13b-layer-decode")));
    }

    void invalidChipDisablesRunAndUndoRestoresIt()
    {
        MainWindow window;
        window.openWorkspace(workspaceFrom(kDefaultWorkspace));
        QTRY_COMPARE_WITH_TIMEOUT(panelText(window, "opCount"), QStringLiteral("18"), kLoadTimeoutMs);
        QVERIFY(window.runAction()->isEnabled());

        auto* cores = window.chipEditor()->findChild<QDoubleSpinBox*>(QStringLiteral("/coresPerChip"));
        QVERIFY(cores);
        cores->setValue(0);
        QVERIFY(!window.chipEditor()->isValid());
        QVERIFY(!window.runAction()->isEnabled());
        QVERIFY(window.isWindowModified());

        window.chipEditor()->undoAction()->trigger();
        QVERIFY(window.chipEditor()->isValid());
        QVERIFY(window.runAction()->isEnabled());
        QVERIFY(!window.isWindowModified());
    }

    void missingModelIsReportedAndTheWindowKeepsWorking()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const QString workspacePath = folder.filePath(QStringLiteral("missing-model.json"));
        QFile file(workspacePath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"schema": "elk.workspace/1", "model": "no-such-model.elk.json", "chip": "ipu-pod4-hbm",
                       "run": {"batch": 4}})");
        file.close();

        MainWindow window;
        QCOMPARE(window.openWorkspace(workspaceFrom(workspacePath.toStdString())), QString());
        QTRY_COMPARE_WITH_TIMEOUT(panelText(window, "modelTitle"), QStringLiteral("Model not loaded"), kLoadTimeoutMs);
        QVERIFY(panelShows(window, "modelError"));
        QVERIFY2(panelText(window, "modelError").contains(QStringLiteral("no-such-model.elk.json")),
            qPrintable(panelText(window, "modelError")));
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("no-such-model.elk.json")));
        QVERIFY(!window.runAction()->isEnabled()); // nothing to run without a model
        QCOMPARE(panelText(window, "batch"), QStringLiteral("4"));

        // The chip editor still works, and opening a good model recovers.
        QVERIFY(window.chipEditor()->loadPreset(QStringLiteral("ipu-mk2-hbm")));
        QCOMPARE(window.chipEditor()->spec().name, std::string("ipu-mk2-hbm"));
        window.openModel(QString::fromLatin1(kDefaultModel));
        QTRY_COMPARE_WITH_TIMEOUT(panelText(window, "opCount"), QStringLiteral("18"), kLoadTimeoutMs);
        QVERIFY(!panelShows(window, "modelError"));
        QCOMPARE(panelText(window, "batch"), QStringLiteral("4")); // the workspace's run parameters stay
        QVERIFY(window.runAction()->isEnabled());
    }

    void unknownChipIsReported()
    {
        MainWindow window;
        const QString error = window.openChip(QStringLiteral("no-such-chip"));
        QVERIFY2(error.contains(QStringLiteral("no-such-chip")) && error.contains(QStringLiteral("ipu-pod4-hbm")),
            qPrintable(error)); // names what was asked for and what exists
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
