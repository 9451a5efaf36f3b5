// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The app's result-cache size limit: a setting, applied in the background (the GUI thread never
// waits), which brings an over-full cache under the limit and says so; 0 means no limit.
#include "app/studio/cache_limit.h"

#include "engine/run/run_spec.h"
#include "engine/store/result_store.h"

#include <QApplication>
#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

using namespace elk;

class TestCacheLimit : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QCoreApplication::setOrganizationName(QStringLiteral("elk-studio-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_cache_limit"));
    }

    void overFullCacheIsTrimmedInTheBackground()
    {
        store::OpenResult opened
            = store::ResultStore::open(QDir(m_dir.path()).filePath(QStringLiteral("limit.sqlite")).toStdString());
        QVERIFY(opened.store);
        // Two detailed runs of the bundled llama2-13b: about 2.7 MiB.
        NullRunControl control;
        for (std::int64_t batch : { 1, 4 }) {
            run::RunRequest request;
            request.modelPath = "bundled:llama2-13b";
            request.chip = "ipu-pod4-hbm";
            request.batch = batch;
            const run::RunSpecResult spec = run::resolveRunSpec(request);
            QVERIFY(spec.ok());
            QVERIFY(run::runCached(spec.spec, opened.store.get(), control, 2).ok());
        }
        QVERIFY(opened.store->stats().fileBytes > (std::int64_t(2) << 20));
        QWidget parent;
        app::CacheLimit limit(opened.store.get(), &parent);
        app::CacheLimit::setLimitMiB(0);
        QSignalSpy trimmed(&limit, &app::CacheLimit::trimmed);
        limit.trimInBackground(); // no limit: nothing happens
        limit.waitForTrim();
        QCoreApplication::processEvents();
        QCOMPARE(trimmed.count(), 0);
        app::CacheLimit::setLimitMiB(2);
        QCOMPARE(app::CacheLimit::limitMiB(), 2);
        limit.trimInBackground();
        QVERIFY(trimmed.wait(30000));
        QVERIFY2(trimmed.front().front().toString().contains(QStringLiteral("trimmed to its limit")),
            qPrintable(trimmed.front().front().toString()));
        QVERIFY(opened.store->stats().fileBytes <= (std::int64_t(2) << 20));
        QCOMPARE(opened.store->runCount(), std::int64_t(2)); // the older detail went; both runs stay as records
        app::CacheLimit::setLimitMiB(app::CacheLimit::kDefaultMiB);
    }
};

QTEST_MAIN(TestCacheLimit)
#include "tst_cache_limit.moc"
