// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Start-up of elk-studio on a workspace: from main() to an idle event loop with the window shown
// ("interactive"), and to every run view holding the workspace's results ("views ready"; from the
// cache when it is warm). One measurement per process, like a user starting the app:
//   for i in 1 2 3 4 5; do build/default/tests/bench/bench_studio_start [WORKSPACE]; done
#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <cstdio>

#include "app/studio/main_window.h"
#include "app/studio/run_views.h"
#include "widgets/plots/plot_view.h"

int main(int argc, char** argv)
{
    QElapsedTimer sinceStart;
    sinceStart.start();
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QString workspace = argc > 1 ? QString::fromLocal8Bit(argv[1])
                                       : QStringLiteral(ELK_SOURCE_DIR "/resources/workspaces/default.elkproj");
    elk::app::MainWindow window;
    if (const QString error = window.openWorkspaceFile(workspace); !error.isEmpty()) {
        std::fprintf(stderr, "bench_studio_start: %s\n", qPrintable(error));
        return 2;
    }
    window.show();
    qint64 interactiveMs = -1;
    QTimer::singleShot(0, &app, [&] { interactiveMs = sinceStart.elapsed(); });
    QTimer poll;
    poll.setInterval(5);
    QObject::connect(&poll, &QTimer::timeout, &app, [&] {
        bool ready = interactiveMs >= 0;
        for (elk::widgets::PlotView* view : window.views()->runViews())
            ready = ready && view->hasData();
        if (ready || sinceStart.elapsed() > 120000) {
            std::printf("interactive %lld ms, views ready %lld ms%s\n", static_cast<long long>(interactiveMs),
                static_cast<long long>(sinceStart.elapsed()), ready ? "" : " (timed out)");
            app.quit();
        }
    });
    poll.start();
    return app.exec();
}
