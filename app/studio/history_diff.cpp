// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/history_diff.h"

#include <QFileInfo>

#include "app/studio/run_job.h"
#include "engine/run/run_spec.h"
#include "engine/store/result_store.h"

namespace elk::app {

HistoryDiffLoader::HistoryDiffLoader(QObject* parent)
    : QObject(parent)
    , m_job(new RunJob(this))
{
    connect(
        m_job, &RunJob::finished, this, [this](elk::widgets::RunSnapshotPtr result, elk::run::CacheOutcome, double) {
            emit loaded(std::move(result), m_label);
        });
    connect(m_job, &RunJob::failed, this, [this](const QString& message) {
        emit failed(tr("Diff against a past run failed: %1").arg(message.section(QLatin1Char('\n'), 0, 0)));
    });
}

HistoryDiffLoader::~HistoryDiffLoader() = default;

void HistoryDiffLoader::setStore(elk::store::ResultStore* store)
{
    m_store = store;
    m_job->setStore(store);
}

QString HistoryDiffLoader::fail(const QString& message)
{
    emit failed(message);
    return message;
}

QString HistoryDiffLoader::load(const QString& specHash)
{
    if (!m_store)
        return fail(tr("no result cache is open"));
    const std::optional<std::string> json = m_store->specJson(specHash.toStdString());
    if (!json)
        return fail(tr("run %1 is no longer in the result cache").arg(specHash.left(12)));
    const elk::run::RunSpecParseResult parsed = elk::run::runSpecFromJson(*json);
    if (!parsed.ok())
        return fail(
            tr("cannot reopen run %1: %2")
                .arg(specHash.left(12),
                    QString::fromStdString(parsed.errors.front().field + ": " + parsed.errors.front().message)));
    const elk::run::RunSpec& spec = parsed.spec;
    QString model = QString::fromStdString(spec.model.path);
    if (!model.startsWith(QLatin1String("bundled:")))
        model = QFileInfo(model).fileName();
    m_label = tr("%1 on %2, b%3, %4")
                  .arg(model, QString::fromStdString(spec.chip.name))
                  .arg(spec.batch)
                  .arg(specHash.left(8));
    m_job->start(spec); // served from the cache
    return {};
}

} // namespace elk::app
