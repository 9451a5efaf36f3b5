// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/cache_limit.h"

#include <QInputDialog>
#include <QMetaObject>
#include <QPointer>
#include <QSettings>
#include <QWidget>
#include <QtConcurrent>

#include "engine/store/result_store.h"

namespace elk::app {

namespace {
    const char* const kLimitKey = "cache/maxSizeMiB";
}

CacheLimit::CacheLimit(elk::store::ResultStore* store, QWidget* parent)
    : QObject(parent)
    , m_store(store)
    , m_parent(parent)
{
}

CacheLimit::~CacheLimit()
{
    m_trim.waitForFinished();
}

int CacheLimit::limitMiB()
{
    return QSettings().value(QLatin1String(kLimitKey), kDefaultMiB).toInt();
}

void CacheLimit::setLimitMiB(int mebibytes)
{
    QSettings().setValue(QLatin1String(kLimitKey), std::max(0, mebibytes));
}

void CacheLimit::trimInBackground()
{
    const int limit = limitMiB();
    if (m_store == nullptr || limit <= 0 || m_trim.isRunning())
        return;
    QPointer<CacheLimit> self(this);
    elk::store::ResultStore* store = m_store;
    m_trim = QtConcurrent::run([self, store, limit] {
        const std::int64_t maxBytes = std::int64_t(limit) << 20;
        if (store->stats().fileBytes <= maxBytes)
            return;
        const elk::store::TrimReport report = store->trim(maxBytes);
        const QString message = report.ok() ? tr("Result cache trimmed to its limit: %1 MiB → %2 MiB")
                                                  .arg(double(report.bytesBefore) / (1 << 20), 0, 'f', 1)
                                                  .arg(double(report.bytesAfter) / (1 << 20), 0, 'f', 1)
                                            : tr("Result cache trim: %1").arg(QString::fromStdString(report.error));
        QMetaObject::invokeMethod(
            self,
            [self, message] {
                if (self)
                    emit self->trimmed(message);
            },
            Qt::QueuedConnection);
    });
}

void CacheLimit::askLimit()
{
    bool ok = false;
    const int limit = QInputDialog::getInt(m_parent, tr("Result cache size"),
        tr("Largest size of the result cache in MiB (0: no limit). Over it, the least recently used results "
           "are evicted in the background and recomputed when next needed."),
        limitMiB(), 0, 1 << 20, 256, &ok);
    if (!ok)
        return;
    setLimitMiB(limit);
    trimInBackground();
}

} // namespace elk::app
