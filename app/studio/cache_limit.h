// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFuture>
#include <QObject>

class QWidget;

namespace elk::store {
class ResultStore;
}

namespace elk::app {

/// The result cache's size limit, a setting (QSettings "cache/maxSizeMiB", 0: none): the cache is
/// trimmed to it in the background at start-up and whenever the limit is lowered (ResultStore::trim,
/// least recently used first), never on the GUI thread.
class CacheLimit : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultMiB = 2048;
    CacheLimit(elk::store::ResultStore* store, QWidget* parent);
    /// Waits for a running trim (the store goes after this).
    ~CacheLimit() override;

    static int limitMiB();
    static void setLimitMiB(int mebibytes);
    /// Trims in the background when the cache is over the limit; emits trimmed when done.
    void trimInBackground();
    /// Asks for a new limit (0: none) and applies it.
    void askLimit();
    void waitForTrim() { m_trim.waitForFinished(); }

signals:
    void trimmed(const QString& message);

private:
    elk::store::ResultStore* m_store;
    QWidget* m_parent;
    QFuture<void> m_trim;
};

} // namespace elk::app
