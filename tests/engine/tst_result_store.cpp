// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The SQLite result cache: schema and WAL, bit-identical round trips of partition tables and runs,
// misses for a different spec or a damaged payload, bad files moved aside, a write killed
// mid-transaction, two connections on one file, and run::runCached on top of it.
#include "engine/store/result_store.h"

#include "engine/core/build_fingerprint.h"
#include "engine/core/sha256.h"
#include "engine/core/version.h"
#include "engine/store/cbor_payload.h"
#include "engine/store/parity_cache.h"
#include "engine/store/payload_codec.h"
#include "engine/store/store_test_hook.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include <csignal>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace elk;
using namespace Qt::Literals::StringLiterals;

namespace {

const char* const kSampleModel = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";

run::RunSpec resolved(const std::string& model, const std::string& chip, std::vector<std::string> overrides = {})
{
    run::RunRequest request;
    request.modelPath = model;
    request.chip = chip;
    request.chipOverrides = std::move(overrides);
    run::RunSpecResult result = run::resolveRunSpec(request);
    if (!result.ok())
        qFatal("cannot resolve: %s: %s", result.errors.front().field.c_str(), result.errors.front().message.c_str());
    return result.spec;
}

// ---- field-by-field comparison; doubles by their bits ----

/// Collects the first few differences as "path: a != b".
class Diff {
public:
    void bits(const std::string& path, double a, double b)
    {
        if (std::bit_cast<std::uint64_t>(a) != std::bit_cast<std::uint64_t>(b))
            add(path + ": " + std::to_string(a) + " != " + std::to_string(b));
    }
    void bits(const std::string& path, float a, float b)
    {
        if (std::bit_cast<std::uint32_t>(a) != std::bit_cast<std::uint32_t>(b))
            add(path + ": " + std::to_string(a) + " != " + std::to_string(b));
    }
    template <typename T> void same(const std::string& path, const T& a, const T& b)
    {
        if (!(a == b))
            add(path + ": differs");
    }
    bool sizes(const std::string& path, std::size_t a, std::size_t b)
    {
        if (a != b)
            add(path + ": size " + std::to_string(a) + " != " + std::to_string(b));
        return a == b;
    }
    void interval(const std::string& path, const schedule::Interval& a, const schedule::Interval& b)
    {
        bits(path + ".start", a.startCycles, b.startCycles);
        bits(path + ".end", a.endCycles, b.endCycles);
    }
    const std::string& text() const { return m_text; }
    bool empty() const { return m_count == 0; }

private:
    void add(const std::string& line)
    {
        if (m_count++ < 5)
            m_text += line + "\n";
    }
    std::string m_text;
    int m_count = 0;
};

void compareOpPlans(Diff& diff, const std::string& path, const partition::OpPlans& a, const partition::OpPlans& b)
{
    diff.same(path + ".plans", a.plans, b.plans);
    if (diff.sizes(path + ".costs", a.costs.size(), b.costs.size())) {
        for (std::size_t i = 0; i < a.costs.size(); ++i) {
            const std::string at = path + ".costs[" + std::to_string(i) + "]";
            diff.same(at + ".executeBytes", a.costs[i].executeBytes, b.costs[i].executeBytes);
            diff.same(at + ".preloadBytes", a.costs[i].preloadBytes, b.costs[i].preloadBytes);
            diff.same(at + ".iterations", a.costs[i].iterations, b.costs[i].iterations);
            diff.bits(at + ".computeCycles", a.costs[i].computeCycles, b.costs[i].computeCycles);
            diff.bits(at + ".shiftCycles", a.costs[i].shiftCycles, b.costs[i].shiftCycles);
            diff.bits(at + ".reduceCycles", a.costs[i].reduceCycles, b.costs[i].reduceCycles);
        }
    }
    diff.same(path + ".pareto", a.pareto, b.pareto);
    if (diff.sizes(path + ".table", a.table.size(), b.table.size())) {
        for (std::size_t i = 0; i < a.table.size(); ++i) {
            const std::string at = path + ".table[" + std::to_string(i) + "]";
            diff.same(at + ".preloadBytes", a.table[i].preloadBytes, b.table[i].preloadBytes);
            diff.same(at + ".executeBytes", a.table[i].executeBytes, b.table[i].executeBytes);
            diff.same(at + ".preloadPlan", a.table[i].preloadPlan, b.table[i].preloadPlan);
            diff.same(at + ".executePlan", a.table[i].executePlan, b.table[i].executePlan);
            diff.bits(at + ".warmupCycles", a.table[i].warmupCycles, b.table[i].warmupCycles);
            diff.bits(at + ".totalCycles", a.table[i].totalCycles, b.table[i].totalCycles);
        }
    }
    diff.same(path + ".hbmBytes", a.hbmBytes, b.hbmBytes);
    diff.same(path + ".enumeratedPlans", a.enumeratedPlans, b.enumeratedPlans);
}

void compareSchedule(Diff& diff, const std::string& path, const schedule::Schedule& a, const schedule::Schedule& b)
{
    diff.same(path + ".design", a.design, b.design);
    if (diff.sizes(path + ".steps", a.steps.size(), b.steps.size())) {
        for (std::size_t i = 0; i < a.steps.size(); ++i) {
            const schedule::StepSchedule& x = a.steps[i];
            const schedule::StepSchedule& y = b.steps[i];
            const std::string at = path + ".steps[" + std::to_string(i) + "]";
            diff.same(at + ".tableEntry", x.tableEntry, y.tableEntry);
            diff.same(at + ".preloadBytes", x.preloadBytes, y.preloadBytes);
            diff.same(at + ".executeBytes", x.executeBytes, y.executeBytes);
            diff.interval(at + ".preload", x.preload, y.preload);
            diff.interval(at + ".execute", x.execute, y.execute);
            diff.bits(at + ".computeCycles", x.computeCycles, y.computeCycles);
            diff.bits(at + ".commCycles", x.commCycles, y.commCycles);
            diff.bits(at + ".warmupCycles", x.warmupCycles, y.warmupCycles);
            diff.bits(at + ".stallCycles", x.stallCycles, y.stallCycles);
            diff.bits(at + ".nocIdleCycles", x.nocIdleCycles, y.nocIdleCycles);
            diff.same(at + ".overlappedPreloads", x.overlappedPreloads, y.overlappedPreloads);
            diff.same(at + ".preloadPosition", x.preloadPosition, y.preloadPosition);
        }
    }
    diff.same(path + ".preloadOrder", a.preloadOrder, b.preloadOrder);
    diff.bits(path + ".latencyCycles", a.latencyCycles, b.latencyCycles);
    diff.same(path + ".sramPeakBytesPerCore", a.sramPeakBytesPerCore, b.sramPeakBytesPerCore);
    diff.same(path + ".ordersTried", a.ordersTried, b.ordersTried);
    diff.same(path + ".note", a.note, b.note);
}

void compareMetrics(
    Diff& diff, const std::string& path, const schedule::ScheduleMetrics& a, const schedule::ScheduleMetrics& b)
{
    diff.bits(path + ".latencyCycles", a.latencyCycles, b.latencyCycles);
    diff.bits(path + ".executeCycles", a.executeCycles, b.executeCycles);
    diff.bits(path + ".preloadCycles", a.preloadCycles, b.preloadCycles);
    diff.bits(path + ".overlapCycles", a.overlapCycles, b.overlapCycles);
    diff.bits(path + ".preloadOnlyCycles", a.preloadOnlyCycles, b.preloadOnlyCycles);
    diff.bits(path + ".executeOnlyCycles", a.executeOnlyCycles, b.executeOnlyCycles);
    diff.bits(path + ".interconnectStallCycles", a.interconnectStallCycles, b.interconnectStallCycles);
    diff.same(path + ".hbmBytes", a.hbmBytes, b.hbmBytes);
    diff.bits(path + ".hbmUtilization", a.hbmUtilization, b.hbmUtilization);
    diff.bits(path + ".nocUtilization", a.nocUtilization, b.nocUtilization);
    diff.same(path + ".flops", a.flops, b.flops);
    diff.bits(path + ".flopsPerCycle", a.flopsPerCycle, b.flopsPerCycle);
}

void compareCurve(Diff& diff, const std::string& path, const std::vector<sim::CounterSample>& a,
    const std::vector<sim::CounterSample>& b)
{
    if (!diff.sizes(path, a.size(), b.size()))
        return;
    for (std::size_t i = 0; i < a.size(); ++i) {
        diff.bits(path + "[" + std::to_string(i) + "].at", a[i].atCycles, b[i].atCycles);
        diff.bits(path + "[" + std::to_string(i) + "].value", a[i].value, b[i].value);
    }
}

/// `detail` false: b is a summary of a (no links, bins or curves).
void compareSim(Diff& diff, const std::string& path, const sim::SimResult& a, const sim::SimResult& b, bool detail)
{
    diff.bits(path + ".clockHz", a.clockHz, b.clockHz);
    diff.bits(path + ".latencyCycles", a.latencyCycles, b.latencyCycles);
    if (diff.sizes(path + ".steps", a.steps.size(), b.steps.size())) {
        for (std::size_t i = 0; i < a.steps.size(); ++i) {
            const sim::StepTrace& x = a.steps[i];
            const sim::StepTrace& y = b.steps[i];
            const std::string at = path + ".steps[" + std::to_string(i) + "]";
            diff.interval(at + ".preload", x.preload, y.preload);
            diff.interval(at + ".execute", x.execute, y.execute);
            diff.interval(at + ".warmup", x.warmup, y.warmup);
            diff.interval(at + ".compute", x.compute, y.compute);
            diff.interval(at + ".shift", x.shift, y.shift);
            diff.interval(at + ".reduce", x.reduce, y.reduce);
            diff.bits(at + ".preloadStallCycles", x.preloadStallCycles, y.preloadStallCycles);
            diff.bits(at + ".executeStallCycles", x.executeStallCycles, y.executeStallCycles);
            diff.same(at + ".waitedFor", x.waitedFor, y.waitedFor);
        }
    }
    diff.same(path + ".stepNames", a.stepNames, b.stepNames);
    diff.same(path + ".preloadOrder", a.preloadOrder, b.preloadOrder);
    if (detail) {
        if (diff.sizes(path + ".links", a.links.size(), b.links.size())) {
            for (std::size_t i = 0; i < a.links.size(); ++i) {
                const sim::LinkInfo& x = a.links[i];
                const sim::LinkInfo& y = b.links[i];
                const std::string at = path + ".links[" + std::to_string(i) + "]";
                diff.same(at + ".kind", x.kind, y.kind);
                diff.bits(at + ".bytesPerCycle", x.bytesPerCycle, y.bytesPerCycle);
                diff.same(at + ".chip", x.chip, y.chip);
                diff.same(at + ".core", x.core, y.core);
                diff.same(at + ".x", x.x, y.x);
                diff.same(at + ".y", x.y, y.y);
                diff.same(at + ".direction", x.direction, y.direction);
                diff.same(at + ".stack", x.stack, y.stack);
                diff.same(at + ".name", x.name, y.name);
            }
        }
        if (diff.sizes(path + ".linkBytes", a.linkBytes.size(), b.linkBytes.size())) {
            for (std::size_t i = 0; i < a.linkBytes.size(); ++i)
                diff.bits(path + ".linkBytes[" + std::to_string(i) + "]", a.linkBytes[i], b.linkBytes[i]);
        }
        diff.same(path + ".binLinks", a.binLinks, b.binLinks);
        if (diff.sizes(path + ".linkUtilizationBins", a.linkUtilizationBins.size(), b.linkUtilizationBins.size())) {
            for (std::size_t i = 0; i < a.linkUtilizationBins.size(); ++i) {
                const std::string at = path + ".linkUtilizationBins[" + std::to_string(i) + "]";
                if (!diff.sizes(at, a.linkUtilizationBins[i].size(), b.linkUtilizationBins[i].size()))
                    continue;
                for (std::size_t j = 0; j < a.linkUtilizationBins[i].size(); ++j)
                    diff.bits(
                        at + "[" + std::to_string(j) + "]", a.linkUtilizationBins[i][j], b.linkUtilizationBins[i][j]);
            }
        }
        compareCurve(diff, path + ".hbmBytesPerCycle", a.hbmBytesPerCycle, b.hbmBytesPerCycle);
        compareCurve(diff, path + ".nocBytesPerCycle", a.nocBytesPerCycle, b.nocBytesPerCycle);
        compareCurve(diff, path + ".sramBytesPerCore", a.sramBytesPerCore, b.sramBytesPerCore);
    } else {
        diff.sizes(path + ".links (summary)", b.links.size(), 0);
        diff.sizes(path + ".linkUtilizationBins (summary)", b.linkUtilizationBins.size(), 0);
        diff.sizes(path + ".hbmBytesPerCycle (summary)", b.hbmBytesPerCycle.size(), 0);
    }
    diff.bits(path + ".maxLinkUtilization", a.maxLinkUtilization, b.maxLinkUtilization);
    diff.bits(path + ".binCycles", a.binCycles, b.binCycles);
    diff.same(path + ".hbmBytes", a.hbmBytes, b.hbmBytes);
    diff.bits(path + ".nocBytes", a.nocBytes, b.nocBytes);
    diff.bits(path + ".hbmUtilization", a.hbmUtilization, b.hbmUtilization);
    diff.bits(path + ".nocUtilization", a.nocUtilization, b.nocUtilization);
    diff.same(path + ".flops", a.flops, b.flops);
    diff.bits(path + ".flopsPerCycle", a.flopsPerCycle, b.flopsPerCycle);
    diff.same(path + ".sramPeakBytesPerCore", a.sramPeakBytesPerCore, b.sramPeakBytesPerCore);
    diff.bits(path + ".overlapCycles", a.overlapCycles, b.overlapCycles);
    diff.bits(path + ".preloadOnlyCycles", a.preloadOnlyCycles, b.preloadOnlyCycles);
    diff.bits(path + ".executeOnlyCycles", a.executeOnlyCycles, b.executeOnlyCycles);
    diff.bits(path + ".interconnectStallCycles", a.interconnectStallCycles, b.interconnectStallCycles);
    diff.same(path + ".events", a.events, b.events);
}

/// Empty when `b` equals `a` field by field (bits for doubles); else the first differences.
std::string designsDiff(const std::vector<run::DesignRun>& a, const std::vector<run::DesignRun>& b, bool detail = true)
{
    Diff diff;
    if (!diff.sizes("designs", a.size(), b.size()))
        return diff.text();
    for (std::size_t d = 0; d < a.size(); ++d) {
        const std::string at = std::string(schedule::toString(a[d].design));
        diff.same(at + ".design", a[d].design, b[d].design);
        diff.same(at + ".schedule?", a[d].schedule.has_value(), b[d].schedule.has_value());
        if (a[d].schedule && b[d].schedule)
            compareSchedule(diff, at + ".schedule", *a[d].schedule, *b[d].schedule);
        compareMetrics(diff, at + ".metrics", a[d].metrics, b[d].metrics);
        diff.same(at + ".simulated?", a[d].simulated.has_value(), b[d].simulated.has_value());
        if (a[d].simulated && b[d].simulated)
            compareSim(diff, at + ".simulated", *a[d].simulated, *b[d].simulated, detail);
        diff.same(at + ".error", a[d].error, b[d].error);
        diff.bits(at + ".seconds", a[d].seconds, b[d].seconds);
        diff.bits(at + ".simulateSeconds", a[d].simulateSeconds, b[d].simulateSeconds);
    }
    return diff.text();
}

std::string tablesDiff(const run::PartitionTables& a, const run::PartitionTables& b)
{
    Diff diff;
    if (diff.sizes("plans", a.plans.size(), b.plans.size())) {
        for (std::size_t i = 0; i < a.plans.size(); ++i)
            compareOpPlans(diff, "plans[" + std::to_string(i) + "]", a.plans[i], b.plans[i]);
    }
    diff.same("splits", a.splits, b.splits);
    diff.same("inputOfPlanSet", a.inputOfPlanSet, b.inputOfPlanSet);
    return diff.text();
}

/// Raw SQL on a cache file, as another program would do it.
class RawDb {
public:
    explicit RawDb(const std::string& path) { sqlite3_open(path.c_str(), &m_db); }
    ~RawDb() { sqlite3_close(m_db); }
    bool exec(const std::string& sql)
    {
        return sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    std::string text(const std::string& sql)
    {
        sqlite3_stmt* statement = nullptr;
        std::string value = "<error>";
        if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK
            && sqlite3_step(statement) == SQLITE_ROW) {
            const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
            value = data != nullptr ? data : "";
        }
        sqlite3_finalize(statement);
        return value;
    }

private:
    sqlite3* m_db = nullptr;
};

std::string fileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

/// Files in `folder` whose names start with `prefix`.
std::vector<std::string> filesStartingWith(const std::string& folder, const std::string& prefix)
{
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) == 0)
            names.push_back(name);
    }
    return names;
}

void exitInsideTheTransaction(const char*)
{
    _exit(42);
}

/// What a child process said and how it ended.
struct ChildOutcome {
    int exitCode = -1; ///< -1: it did not exit normally
    std::string message;
};

/// Runs `body` in a forked child (for process-wide state: rlimits, the user id); the text it sets
/// comes back through a pipe and its return value is the exit code.
ChildOutcome runInChild(const std::function<int(std::string& message)>& body)
{
    int pipeEnds[2];
    if (pipe(pipeEnds) != 0)
        return {};
    const pid_t child = fork();
    if (child == 0) {
        close(pipeEnds[0]);
        std::string message;
        const int code = body(message);
        const ssize_t written = write(pipeEnds[1], message.data(), message.size());
        _exit(written >= 0 ? code : 99);
    }
    close(pipeEnds[1]);
    ChildOutcome outcome;
    char buffer[512];
    for (ssize_t n; (n = read(pipeEnds[0], buffer, sizeof buffer)) > 0;)
        outcome.message.append(buffer, std::size_t(n));
    close(pipeEnds[0]);
    int status = 0;
    if (child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status))
        outcome.exitCode = WEXITSTATUS(status);
    return outcome;
}

} // namespace

class TestResultStore : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    run::RunSpec m_spec;
    run::RunResult m_run; ///< a small real run, computed once

    std::string freshPath(const std::string& name) const
    {
        return QDir(m_dir.path()).filePath(QString::fromStdString(name)).toStdString();
    }

    std::unique_ptr<store::ResultStore> openClean(const std::string& path)
    {
        store::OpenResult opened = store::ResultStore::open(path);
        if (!opened.store)
            qFatal("cannot open %s: %s", path.c_str(), opened.error.c_str());
        if (!opened.message.empty())
            qFatal("unexpected message: %s", opened.message.c_str());
        return std::move(opened.store);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_spec = resolved(kSampleModel, "ipu-mk2-hbm");
        NullRunControl control;
        m_run = run::executeRun(m_spec, control, 2);
        QVERIFY2(m_run.ok(), m_run.errors.empty() ? "stopped" : m_run.errors.front().c_str());
        QCOMPARE(m_run.designs.size(), std::size_t(5));
        for (const run::DesignRun& design : m_run.designs) {
            QVERIFY2(design.simulated.has_value(), design.error.c_str());
            QVERIFY(!design.simulated->links.empty() && !design.simulated->linkUtilizationBins.empty());
        }
    }

    void openCreatesSchemaInWalMode()
    {
        const std::string path = freshPath("new/sub/folder/results.sqlite");
        {
            std::unique_ptr<store::ResultStore> created = openClean(path);
            QCOMPARE(created->path(), path);
            QCOMPARE(created->runCount(), std::int64_t(0));
            QCOMPARE(created->partitionCount(), std::int64_t(0));
            RawDb raw(path);
            QCOMPARE(raw.text("PRAGMA user_version"), std::to_string(store::ResultStore::kSchemaVersion));
            QCOMPARE(raw.text("PRAGMA application_id"), std::to_string(0x454C4B53));
            QCOMPARE(raw.text("PRAGMA journal_mode"), std::string("wal"));
            QCOMPARE(raw.text("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'runs', "
                              "'partitions')"),
                std::string("3"));
            QCOMPARE(
                raw.text("SELECT value FROM meta WHERE key = 'application'"), std::string("Elk Studio result cache"));
        }
        // Reopening an existing cache says nothing and moves nothing.
        std::unique_ptr<store::ResultStore> reopened = openClean(path);
        QCOMPARE(filesStartingWith(freshPath("new/sub/folder"), "results.sqlite.").size(), std::size_t(0));
    }

    void defaultPathFollowsTheEnvironment()
    {
        const QByteArray old = qgetenv("ELK_CACHE_DIR");
        qputenv("ELK_CACHE_DIR", "/some/where");
        QCOMPARE(store::ResultStore::defaultPath(), std::string("/some/where/results.sqlite"));
        qunsetenv("ELK_CACHE_DIR");
        const QByteArray oldXdg = qgetenv("XDG_CACHE_HOME");
        qputenv("XDG_CACHE_HOME", "/xdg");
        QCOMPARE(store::ResultStore::defaultPath(), std::string("/xdg/elk-studio/results.sqlite"));
        qunsetenv("XDG_CACHE_HOME");
        if (!qgetenv("HOME").isEmpty())
            QCOMPARE(
                store::ResultStore::defaultPath(), qgetenv("HOME").toStdString() + "/.cache/elk-studio/results.sqlite");
        if (!oldXdg.isEmpty())
            qputenv("XDG_CACHE_HOME", oldXdg);
        if (!old.isEmpty())
            qputenv("ELK_CACHE_DIR", old);
    }

    void partitionTablesRoundTrip()
    {
        std::unique_ptr<store::ResultStore> cache = openClean(freshPath("partitions.sqlite"));
        const run::PartitionTables tables = run::partitionTablesOf(*m_run.compiled);
        const std::string key = m_run.compiled->partitionKey;
        QVERIFY(!cache->loadPartitionTables(key).has_value());
        std::string error;
        QVERIFY2(cache->savePartitionTables(key, tables, &error), error.c_str());
        QCOMPARE(cache->partitionCount(), std::int64_t(1));
        const std::optional<run::PartitionTables> loaded = cache->loadPartitionTables(key);
        QVERIFY(loaded.has_value());
        const std::string diff = tablesDiff(tables, *loaded);
        QVERIFY2(diff.empty(), diff.c_str());
        // The plain form (no splits) also round-trips.
        QVERIFY(cache->savePartitions("other-key", tables.plans));
        const auto plans = cache->loadPartitions("other-key");
        QVERIFY(plans.has_value());
        QCOMPARE(plans->size(), tables.plans.size());
        QVERIFY(plans->front().plans == tables.plans.front().plans);
        QCOMPARE(cache->partitionCount(), std::int64_t(2));
    }

    void runRoundTripIsBitIdentical()
    {
        std::unique_ptr<store::ResultStore> cache = openClean(freshPath("runs.sqlite"));
        QVERIFY(!cache->loadDesigns(m_spec, false).has_value());
        std::string error;
        QVERIFY2(cache->saveRun(m_run, true, &error), error.c_str());
        const auto loaded = cache->loadDesigns(m_spec, true);
        QVERIFY(loaded.has_value());
        const std::string diff = designsDiff(m_run.designs, *loaded);
        QVERIFY2(diff.empty(), diff.c_str());

        const std::vector<store::RunRecordInfo> history = cache->history();
        QCOMPARE(history.size(), std::size_t(1));
        const store::RunRecordInfo& record = history.front();
        QCOMPARE(record.specHash, run::runSpecHash(m_spec));
        QCOMPARE(record.modelLabel, m_spec.model.path);
        QCOMPARE(record.chipName, std::string("ipu-mk2-hbm"));
        QCOMPARE(record.phase, std::string("decode"));
        QCOMPARE(record.batch, m_spec.batch);
        QCOMPARE(record.kvLen, m_spec.kvLen);
        QCOMPARE(record.designs, m_spec.designs);
        QVERIFY(record.hasDetail);
        QCOMPARE(record.createdUtc.size(), std::size_t(20));
        QCOMPARE(record.latencyMs.size(), std::size_t(5));
        for (std::size_t d = 0; d < 5; ++d)
            QCOMPARE(record.latencyMs[d], m_run.designs[d].simulated->latencyCycles / m_spec.chip.clockHz * 1e3);
        QCOMPARE(cache->loadLatencies(m_spec).value(), record.latencyMs);
        QCOMPARE(cache->specJson(record.specHash).value(), run::runSpecToCanonicalJson(m_spec));
        QVERIFY(!cache->specJson(std::string(64, '0')).has_value());

        // Another spec (one design fewer) is another row, and a miss before it is saved.
        run::RunSpec fewer = m_spec;
        fewer.designs.pop_back();
        QVERIFY(!cache->loadDesigns(fewer, false).has_value());
        QVERIFY(!cache->loadLatencies(fewer).has_value());
    }

    void summaryRecordsServeSweepsOnly()
    {
        std::unique_ptr<store::ResultStore> cache = openClean(freshPath("summary.sqlite"));
        QVERIFY(cache->saveRun(m_run, false));
        QVERIFY2(!cache->loadDesigns(m_spec, true).has_value(), "a summary must not serve a detailed view");
        const auto summary = cache->loadDesigns(m_spec, false);
        QVERIFY(summary.has_value());
        const std::string diff = designsDiff(m_run.designs, *summary, false);
        QVERIFY2(diff.empty(), diff.c_str());
        QVERIFY(!cache->history().front().hasDetail);
        // Detail replaces the summary; a later summary keeps the detail.
        QVERIFY(cache->saveRun(m_run, true));
        QVERIFY(cache->loadDesigns(m_spec, true).has_value());
        QVERIFY(cache->saveRun(m_run, false));
        QVERIFY(cache->loadDesigns(m_spec, true).has_value());
        QCOMPARE(cache->runCount(), std::int64_t(1));
        // Runs that did not complete are not stored.
        run::RunResult stopped = m_run;
        stopped.status = RunStatus::Stopped;
        std::string error;
        QVERIFY(!cache->saveRun(stopped, true, &error));
        QVERIFY(!error.empty());
    }

    void sameHashWithAnotherSpecIsAMiss()
    {
        const std::string path = freshPath("tampered.sqlite");
        std::unique_ptr<store::ResultStore> cache = openClean(path);
        QVERIFY(cache->saveRun(m_run, true));
        QVERIFY(cache->loadDesigns(m_spec, true).has_value());
        {
            RawDb raw(path);
            QVERIFY(raw.exec("UPDATE runs SET spec_json = replace(spec_json, '\"batch\":1', '\"batch\":2')"));
            QVERIFY(raw.text("SELECT spec_json FROM runs").find("\"batch\":2") != std::string::npos);
        }
        QVERIFY(!cache->loadDesigns(m_spec, true).has_value());
        QVERIFY(!cache->loadDesigns(m_spec, false).has_value());
        QVERIFY(!cache->loadLatencies(m_spec).has_value());
        // Saving again repairs the row.
        QVERIFY(cache->saveRun(m_run, true));
        QVERIFY(cache->loadDesigns(m_spec, true).has_value());
    }

    /// Issue 42 item 5: every cache key follows the code. A build with another fingerprint (any edit
    /// of the engine's sources) misses runs, latencies, partition tables, parity runs and regions
    /// saved by this one, and this build hits them again.
    void anotherBuildFingerprintIsAMiss()
    {
        QCOMPARE(engineBuildFingerprint().size(), std::size_t(64));
        QVERIFY(isSha256Hex(engineBuildFingerprint()));
        QCOMPARE(engineBuildId(), std::string(kEngineVersion) + "+" + engineBuildFingerprint().substr(0, 16));
        QCOMPARE(m_spec.engineVersion, engineBuildId());
        std::unique_ptr<store::ResultStore> cache = openClean(freshPath("fingerprint.sqlite"));
        QVERIFY(cache->saveRun(m_run, true));
        const std::string partitionKey = run::partitionKey(m_spec);
        QVERIFY(cache->savePartitionTables(partitionKey, run::partitionTablesOf(*m_run.compiled)));
        const std::string parityKey = store::parityKey(m_spec, {});
        QVERIFY(cache->saveParityRun(parityKey, "{}"));
        const store::RegionCacheKey region { "hardware", "roofline", "2", "region" };
        QVERIFY(cache->saveRegions({ { region, store::CachedRegion { 1.5, "detail" } } }));
        auto hitsAll = [&] {
            return cache->loadDesigns(m_spec, true).has_value() && cache->loadLatencies(m_spec).has_value()
                && cache->loadPartitionTables(run::partitionKey(m_spec)).has_value()
                && cache->loadParityRun(store::parityKey(m_spec, {})).has_value()
                && cache->loadRegion(region).has_value();
        };
        QVERIFY(hitsAll());

        detail::setBuildFingerprintForTests(std::string(64, 'f'));
        const bool differs = engineBuildId() != m_spec.engineVersion;
        const bool runHit = cache->loadDesigns(m_spec, false).has_value() || cache->loadLatencies(m_spec).has_value();
        const bool partitionHit = cache->loadPartitionTables(run::partitionKey(m_spec)).has_value();
        const bool parityHit = cache->loadParityRun(store::parityKey(m_spec, {})).has_value();
        const bool regionHit = cache->loadRegion(region).has_value();
        const bool keyMoved = run::partitionKey(m_spec) != partitionKey && store::parityKey(m_spec, {}) != parityKey;
        detail::setBuildFingerprintForTests("");
        QVERIFY(differs);
        QVERIFY2(!runHit, "a run saved by another build was served");
        QVERIFY2(!partitionHit, "partition tables saved by another build were served");
        QVERIFY2(!parityHit, "a parity run saved by another build was served");
        QVERIFY2(!regionHit, "a region estimate saved by another build was served");
        QVERIFY(keyMoved);
        QVERIFY(hitsAll());
    }

    void damagedPayloadIsAMiss_data()
    {
        QTest::addColumn<QString>("update");
        QTest::addColumn<bool>("partitionsToo");
        QTest::addRow("truncated to half") << u"SET payload = substr(payload, 1, length(payload) / 2)"_s << true;
        QTest::addRow("header only") << u"SET payload = substr(payload, 1, 16)"_s << true;
        QTest::addRow("empty") << u"SET payload = x''"_s << true;
        QTest::addRow("a byte changed in the middle")
            // (to another value: a payload whose middle byte already was 0x5A would stay intact)
            << u"SET payload = substr(payload, 1, length(payload) / 2) || CASE WHEN substr(payload, length(payload) / "
               u"2 + 1, 1) "
               "= x'5A' THEN x'A5' ELSE x'5A' END || substr(payload, length(payload) / 2 + 2)"_s
            << true;
        QTest::addRow("random bytes") << u"SET payload = randomblob(5000)"_s << true;
        QTest::addRow("a partition payload in a run row")
            << u"SET payload = (SELECT payload FROM partitions LIMIT 1)"_s << false;
    }

    void damagedPayloadIsAMiss()
    {
        QFETCH(QString, update);
        QFETCH(bool, partitionsToo);
        const std::string path
            = freshPath("damaged-" + std::to_string(qHash(QString::fromLatin1(QTest::currentDataTag()))) + ".sqlite");
        std::unique_ptr<store::ResultStore> cache = openClean(path);
        QVERIFY(cache->saveRun(m_run, true));
        QVERIFY(cache->savePartitionTables("key", run::partitionTablesOf(*m_run.compiled)));
        {
            RawDb raw(path);
            QVERIFY(raw.exec("UPDATE runs " + update.toStdString()));
            if (partitionsToo)
                QVERIFY(raw.exec("UPDATE partitions " + update.toStdString()));
        }
        QVERIFY(!cache->loadDesigns(m_spec, false).has_value());
        QCOMPARE(cache->loadPartitionTables("key").has_value(), !partitionsToo);
        // The summary columns are not the payload: a sweep still reads the latencies.
        QVERIFY(cache->loadLatencies(m_spec).has_value());
    }

    void payloadSchemaIsChecked_data()
    {
        // Hand-made partition-table payloads: what a build with other mappings or another format
        // version would have written. Extra fields (a newer build's) are ignored; a missing one, or
        // another format or kind, is a miss that the run then rebuilds.
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("dropped");
        QTest::addColumn<QString>("added");
        QTest::addColumn<bool>("decodes");
        const int current = store::detail::kPayloadFormat;
        QTest::addRow("as written") << current << u"partition tables"_s << QString() << QString() << true;
        QTest::addRow("an unknown field") << current << u"partition tables"_s << QString() << u"futureField"_s << true;
        QTest::addRow("a field missing") << current << u"partition tables"_s << u"splits"_s << QString() << false;
        QTest::addRow("an older format") << current - 1 << u"partition tables"_s << QString() << QString() << false;
        QTest::addRow("a newer format") << current + 1 << u"partition tables"_s << QString() << QString() << false;
        QTest::addRow("another kind") << current << u"designs"_s << QString() << QString() << false;
    }

    void payloadSchemaIsChecked()
    {
        QFETCH(int, format);
        QFETCH(QString, kind);
        QFETCH(QString, dropped);
        QFETCH(QString, added);
        QFETCH(bool, decodes);
        using Json = nlohmann::json;
        store::detail::cbor::PayloadWriter writer;
        Json body = { { "plans", Json::array({ 0, Json::object() }) }, { "splits", Json::array({ 0, Json::object() }) },
            { "inputOfPlanSet", writer.add(std::vector<std::uint32_t> {}) } };
        if (!dropped.isEmpty())
            body.erase(dropped.toStdString());
        if (!added.isEmpty())
            body[added.toStdString()] = 1;
        const Json envelope
            = { { "format", format }, { "kind", kind.toStdString() }, { "detail", true }, { "body", body } };
        const std::string payload = writer.finish(Json::to_cbor(envelope));
        const auto tables = store::detail::decodePartitionTables(payload);
        QCOMPARE(tables.has_value(), decodes);
        if (tables)
            QVERIFY(tables->plans.empty() && tables->splits.empty() && tables->inputOfPlanSet.empty());
    }

    void payloadOfTheHandWrittenCodecIsAMiss()
    {
        // Formats 1-3 ("ELKP", format, kind, raw size, zlib stream) came before the CBOR payloads.
        std::string older = "ELKP";
        older += std::string("\x03\x00\x01\x00", 4) + std::string(8, '\0');
        QVERIFY(!store::detail::decodePartitionTables(older).has_value());
        run::PartitionTables tables = run::partitionTablesOf(*m_run.compiled);
        std::string payload = store::detail::encodePartitionTables(tables);
        QVERIFY(store::detail::decodePartitionTables(payload).has_value());
        payload[3] = 'P';
        QVERIFY(!store::detail::decodePartitionTables(payload).has_value());
    }

    void payloadOfFormat4IsAMiss()
    {
        // Format 4 ("ELKC", raw size, one zlib stream of the arena, the CBOR document and its size)
        // held the same envelope; it is recognised by its magic and rebuilt, never read as format 5.
        using Json = nlohmann::json;
        const Json envelope = { { "format", 4 }, { "kind", "partition tables" }, { "detail", true },
            { "body",
                { { "plans", Json::array({ 0, Json::object() }) }, { "splits", Json::array({ 0, Json::object() }) },
                    { "inputOfPlanSet", Json::array({ 0x34, 0, 0 }) } } } };
        std::vector<std::uint8_t> raw = Json::to_cbor(envelope);
        const std::uint64_t cborBytes = raw.size();
        for (int i = 0; i < 8; ++i)
            raw.push_back(std::uint8_t(cborBytes >> (8 * i)));
        uLongf compressedBytes = compressBound(uLong(raw.size()));
        std::string compressed(compressedBytes, '\0');
        QCOMPARE(
            compress2(reinterpret_cast<Bytef*>(compressed.data()), &compressedBytes, raw.data(), uLong(raw.size()), 1),
            Z_OK);
        compressed.resize(compressedBytes);
        std::string format4 = "ELKC";
        for (int i = 0; i < 8; ++i)
            format4 += char(std::uint8_t(std::uint64_t(raw.size()) >> (8 * i)));
        format4 += compressed;
        QVERIFY(!store::detail::decodePartitionTables(format4).has_value());
        // Today's payload under the old magic is a miss as well.
        std::string payload = store::detail::encodePartitionTables(run::partitionTablesOf(*m_run.compiled));
        payload[3] = 'C';
        QVERIFY(!store::detail::decodePartitionTables(payload).has_value());
    }

    void everyTruncationOfAPayloadIsRejected()
    {
        // A small payload (two plan sets), cut at every length: detected, never a crash.
        run::PartitionTables tables = run::partitionTablesOf(*m_run.compiled);
        tables.plans.resize(2);
        const std::string payload = store::detail::encodePartitionTables(tables);
        QVERIFY(store::detail::decodePartitionTables(payload).has_value());
        for (std::size_t length = 0; length < payload.size(); ++length)
            QVERIFY2(!store::detail::decodePartitionTables(std::string_view(payload).substr(0, length)).has_value(),
                std::to_string(length).c_str());
        QVERIFY(!store::detail::decodeDesigns(payload).has_value()); // another kind
        // Any single byte changed: detected (header checks, zlib's own structure and checksum), or
        // harmless (padding bits of the last deflate byte) and then decoded to the same tables.
        int detected = 0;
        for (std::size_t at = 0; at < payload.size(); ++at) {
            std::string garbled = payload;
            garbled[at] = char(garbled[at] ^ 0x41);
            const std::optional<run::PartitionTables> decoded = store::detail::decodePartitionTables(garbled);
            detected += decoded ? 0 : 1;
            QVERIFY2(!decoded || tablesDiff(tables, *decoded).empty(), std::to_string(at).c_str());
        }
        QVERIFY(detected >= int(payload.size()) - 2);
        // Trailing bytes after the stream are not ignored.
        QVERIFY(!store::detail::decodePartitionTables(payload + "x").has_value());
    }

    void corruptFileIsMovedAside()
    {
        const std::string folder = freshPath("corrupt");
        std::filesystem::create_directories(folder);
        const std::string path = folder + "/results.sqlite";
        std::string garbage;
        for (int i = 0; i < 8192; ++i)
            garbage.push_back(char((i * 7919 + 13) & 0xff));
        std::ofstream(path, std::ios::binary) << garbage;

        store::OpenResult opened = store::ResultStore::open(path);
        QVERIFY2(opened.store != nullptr, opened.error.c_str());
        QVERIFY2(opened.message.find("not a valid SQLite database") != std::string::npos, opened.message.c_str());
        QVERIFY2(opened.message.find("moved to " + path + ".corrupt-") != std::string::npos, opened.message.c_str());
        const std::vector<std::string> moved = filesStartingWith(folder, "results.sqlite.corrupt-");
        QCOMPARE(moved.size(), std::size_t(1));
        QCOMPARE(fileBytes(folder + "/" + moved.front()), garbage);
        // The new cache works.
        QVERIFY(opened.store->saveRun(m_run, true));
        QVERIFY(opened.store->loadDesigns(m_spec, true).has_value());
    }

    void badDatabaseIsMovedAside_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QString>("says");
        QTest::addRow("another application's tables")
            << u"CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes(text) VALUES ('hello');"_s
            << u".foreign-"_s << u"another application"_s;
        QTest::addRow("another application id")
            << u"PRAGMA application_id = 1234;"_s << u".foreign-"_s << u"application id 0x000004d2"_s;
        QTest::addRow("our id, another schema version")
            << u"PRAGMA application_id = 1162627923; PRAGMA user_version = 7; CREATE TABLE runs(x);"_s << u".v7-"_s
            << u"schema version 7"_s;
        QTest::addRow("our id and version, tables missing")
            << u"PRAGMA application_id = 1162627923; PRAGMA user_version = 1; CREATE TABLE meta(x);"_s << u".corrupt-"_s
            << u"lacks some of its tables"_s;
    }

    void badDatabaseIsMovedAside()
    {
        QFETCH(QString, sql);
        QFETCH(QString, suffix);
        QFETCH(QString, says);
        const std::string folder
            = freshPath("bad-" + std::to_string(qHash(QString::fromLatin1(QTest::currentDataTag()))));
        std::filesystem::create_directories(folder);
        const std::string path = folder + "/results.sqlite";
        {
            RawDb raw(path);
            QVERIFY(raw.exec(sql.toStdString()));
        }
        store::OpenResult opened = store::ResultStore::open(path);
        QVERIFY2(opened.store != nullptr, opened.error.c_str());
        QVERIFY2(opened.message.find(says.toStdString()) != std::string::npos, opened.message.c_str());
        const std::vector<std::string> moved = filesStartingWith(folder, "results.sqlite" + suffix.toStdString());
        QCOMPARE(moved.size(), std::size_t(1));
        QCOMPARE(opened.store->runCount(), std::int64_t(0));
        QVERIFY(opened.store->savePartitions("k", run::partitionTablesOf(*m_run.compiled).plans));
        // The old file is still the other program's database.
        if (QByteArray(QTest::currentDataTag()) == "another application's tables") {
            RawDb old(folder + "/" + moved.front());
            QCOMPARE(old.text("SELECT text FROM notes"), std::string("hello"));
        }
    }

    void writeKilledInsideItsTransactionLeavesNoPartialRows()
    {
        const std::string path = freshPath("killed.sqlite");
        {
            std::unique_ptr<store::ResultStore> cache = openClean(path);
            QVERIFY(cache->savePartitionTables("committed", run::partitionTablesOf(*m_run.compiled)));
        }
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            // The child writes a run and dies after its rows are written, before COMMIT.
            store::OpenResult opened = store::ResultStore::open(path);
            if (!opened.store)
                _exit(3);
            store::detail::setWriteHookForTests(&exitInsideTheTransaction);
            opened.store->saveRun(m_run, true);
            _exit(4); // not reached when the hook ran
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 42);

        store::OpenResult reopened = store::ResultStore::open(path);
        QVERIFY2(reopened.store != nullptr, reopened.error.c_str());
        QVERIFY2(reopened.message.empty(), reopened.message.c_str());
        QCOMPARE(reopened.store->runCount(), std::int64_t(0));
        QCOMPARE(reopened.store->partitionCount(), std::int64_t(1));
        QVERIFY(!reopened.store->loadDesigns(m_spec, false).has_value());
        QVERIFY(reopened.store->history().empty());
        {
            RawDb raw(path);
            QCOMPARE(raw.text("PRAGMA integrity_check"), std::string("ok"));
        }
        QVERIFY(reopened.store->saveRun(m_run, true));
        QCOMPARE(reopened.store->runCount(), std::int64_t(1));
    }

    // A write that hits the process's file-size limit (RLIMIT_FSIZE, as a full disk does) fails
    // with a message naming the cache and what to do, and leaves no partial rows.
    void writeBeyondTheFileSizeLimitFailsCleanly()
    {
        const std::string path = freshPath("limited.sqlite");
        {
            std::unique_ptr<store::ResultStore> cache = openClean(path);
            QVERIFY(cache->savePartitionTables("committed", run::partitionTablesOf(*m_run.compiled)));
        }
        const ChildOutcome child = runInChild([&](std::string& message) {
            std::signal(SIGXFSZ, SIG_IGN); // the write then fails with EFBIG instead of killing us
            store::OpenResult opened = store::ResultStore::open(path);
            if (!opened.store)
                return 3;
            const rlimit limit { 16 * 1024, 16 * 1024 }; // far below one run with detail
            if (setrlimit(RLIMIT_FSIZE, &limit) != 0)
                return 5;
            return opened.store->saveRun(m_run, true, &message) ? 4 : 0;
        });
        QCOMPARE(child.exitCode, 0);
        const std::string& message = child.message;
        qInfo("%s", message.c_str());
        QVERIFY2(message.find(path) != std::string::npos, message.c_str());
        QVERIFY2(message.find("file-size limit") != std::string::npos, message.c_str());

        store::OpenResult reopened = store::ResultStore::open(path);
        QVERIFY2(reopened.store != nullptr, reopened.error.c_str());
        QCOMPARE(reopened.store->runCount(), std::int64_t(0));
        QCOMPARE(reopened.store->partitionCount(), std::int64_t(1));
        {
            RawDb raw(path);
            QCOMPARE(raw.text("PRAGMA integrity_check"), std::string("ok"));
        }
        QVERIFY(reopened.store->saveRun(m_run, true)); // without the limit the same write succeeds
    }

    // A cache whose file and folder are read-only: opening reports it or writes fail with a message
    // that says so; nothing is lost and reads still work. Run as an unprivileged user (root ignores
    // permission bits), in a child process.
    void readOnlyCacheFailsCleanly()
    {
        const QString folder = QString::fromStdString(freshPath("locked"));
        QVERIFY(QDir().mkpath(folder));
        const std::string path = QString(folder + u"/results.sqlite"_s).toStdString();
        {
            std::unique_ptr<store::ResultStore> cache = openClean(path);
            QVERIFY(cache->savePartitionTables("committed", run::partitionTablesOf(*m_run.compiled)));
        }
        for (const std::filesystem::path& file : std::filesystem::directory_iterator(folder.toStdString()))
            QCOMPARE(chmod(file.c_str(), 0444), 0);
        QCOMPARE(chmod(folder.toLocal8Bit().constData(), 0555), 0);
        // The test's own folder must be reachable by the unprivileged user (QTemporaryDir makes it 0700).
        QCOMPARE(chmod(m_dir.path().toLocal8Bit().constData(), 0755), 0);
        const ChildOutcome child = runInChild([&](std::string& message) {
            if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
                return 5;
            store::OpenResult opened = store::ResultStore::open(path);
            message = opened.store ? opened.message : opened.error;
            if (!opened.store)
                return 0;
            std::string error;
            const bool saved = opened.store->saveRun(m_run, true, &error);
            message += (message.empty() ? "" : "\n") + error;
            if (!opened.store->loadPartitionTables("committed"))
                return 7; // the rows already there must still be readable
            return saved ? 4 : 0;
        });
        chmod(folder.toLocal8Bit().constData(), 0755);
        chmod(m_dir.path().toLocal8Bit().constData(), 0700);
        for (const std::filesystem::path& file : std::filesystem::directory_iterator(folder.toStdString()))
            chmod(file.c_str(), 0644);
        QCOMPARE(child.exitCode, 0);
        const std::string& message = child.message;
        qInfo("%s", message.c_str());
        QVERIFY2(message.find("read-only") != std::string::npos || message.find("readonly") != std::string::npos,
            message.c_str());
        std::unique_ptr<store::ResultStore> again = openClean(path);
        QCOMPARE(again->runCount(), std::int64_t(0));
        QCOMPARE(again->partitionCount(), std::int64_t(1));
    }

    void twoConnectionsShareOneFile()
    {
        const std::string path = freshPath("shared.sqlite");
        std::unique_ptr<store::ResultStore> first = openClean(path);
        std::unique_ptr<store::ResultStore> second = openClean(path);
        QVERIFY(first->saveRun(m_run, true));
        const auto seen = second->loadDesigns(m_spec, true);
        QVERIFY(seen.has_value());
        QVERIFY(designsDiff(m_run.designs, *seen).empty());
        const run::PartitionTables tables = run::partitionTablesOf(*m_run.compiled);
        QVERIFY(second->savePartitionTables("from-second", tables));
        QVERIFY(first->loadPartitionTables("from-second").has_value());
        // Both write at once: the busy timeout serialises them, nothing is lost.
        auto writeMany = [&](store::ResultStore* cache, const std::string& prefix, bool* ok) {
            *ok = true;
            for (int i = 0; i < 8; ++i)
                *ok = cache->savePartitionTables(prefix + std::to_string(i), tables) && *ok;
        };
        bool firstOk = false;
        bool secondOk = false;
        std::thread a(writeMany, first.get(), "a", &firstOk);
        std::thread b(writeMany, second.get(), "b", &secondOk);
        a.join();
        b.join();
        QVERIFY(firstOk && secondOk);
        QCOMPARE(first->partitionCount(), std::int64_t(17));
        QCOMPARE(second->partitionCount(), std::int64_t(17));
    }

    void runCachedMissThenHit()
    {
        std::unique_ptr<store::ResultStore> cache = openClean(freshPath("cached.sqlite"));
        NullRunControl control;
        run::CacheOutcome miss;
        const run::RunResult first = run::runCached(m_spec, cache.get(), control, 2, nullptr, true, &miss);
        QVERIFY(first.ok());
        QVERIFY(!miss.runHit && !miss.partitionHit && !miss.reusedCompiled);
        QCOMPARE(cache->runCount(), std::int64_t(1));
        QCOMPARE(cache->partitionCount(), std::int64_t(1));
        // The cached pipeline computes what the plain one does.
        QVERIFY(designsDiff(m_run.designs, first.designs).find("latencyCycles") == std::string::npos);

        run::CacheOutcome hit;
        const run::RunResult second = run::runCached(m_spec, cache.get(), control, 2, nullptr, true, &hit);
        QVERIFY(second.ok());
        QVERIFY(hit.runHit && hit.partitionHit && !hit.reusedCompiled);
        const std::string diff = designsDiff(first.designs, second.designs);
        QVERIFY2(diff.empty(), diff.c_str());
        // The views get a whole compiled model and schedule problem.
        QVERIFY(second.compiled != nullptr);
        QCOMPARE(second.compiled->plans.size(), first.compiled->plans.size());
        QCOMPARE(second.compiled->model.graph.ops().size(), first.compiled->model.graph.ops().size());
        QCOMPARE(second.problem.steps.size(), first.problem.steps.size());
        QCOMPARE(second.problem.planSets.size(), second.compiled->plans.size());
        QCOMPARE(second.problem.planSets.front(), &second.compiled->plans.front());
        // Each design's own problem, rebuilt from its stored split choice, is the one it was run on.
        for (std::size_t d = 0; d < first.designs.size(); ++d) {
            const auto& fresh = first.problemOf(first.designs[d]).steps;
            const auto& stored = second.problemOf(second.designs[d]).steps;
            QCOMPARE(second.designs[d].splits.variantOfInput, first.designs[d].splits.variantOfInput);
            QCOMPARE(stored.size(), fresh.size());
            for (std::size_t s = 0; s < fresh.size(); ++s)
                QVERIFY(stored[s].planSet == fresh[s].planSet && stored[s].name == fresh[s].name);
        }

        run::CacheOutcome reused;
        const run::RunResult third = run::runCached(m_spec, cache.get(), control, 2, second.compiled, true, &reused);
        QVERIFY(reused.runHit && reused.partitionHit && reused.reusedCompiled);
        QCOMPARE(third.compiled.get(), second.compiled.get());

        // No store: always computed.
        run::CacheOutcome none;
        const run::RunResult uncached = run::runCached(m_spec, nullptr, control, 2, nullptr, true, &none);
        QVERIFY(uncached.ok() && !none.runHit && !none.partitionHit);
    }

    void hbmEditIsAPartitionHit()
    {
        std::unique_ptr<store::ResultStore> cache = openClean(freshPath("hbm-edit.sqlite"));
        NullRunControl control;
        QVERIFY(run::runCached(m_spec, cache.get(), control, 2).ok());
        const run::RunSpec slower = resolved(kSampleModel, "ipu-mk2-hbm", { "hbm.bandwidthGBpsPerStack=300" });
        run::CacheOutcome outcome;
        const run::RunResult edited = run::runCached(slower, cache.get(), control, 2, nullptr, true, &outcome);
        QVERIFY(edited.ok());
        QVERIFY(!outcome.runHit && outcome.partitionHit && !outcome.reusedCompiled);
        QCOMPARE(cache->partitionCount(), std::int64_t(1));
        QCOMPARE(cache->runCount(), std::int64_t(2));
        // Cached tables give exactly what a fresh compile gives.
        const run::RunResult fresh = run::executeRun(slower, control, 2);
        for (std::size_t d = 0; d < fresh.designs.size(); ++d) {
            QCOMPARE(edited.designs[d].simulated->latencyCycles, fresh.designs[d].simulated->latencyCycles);
            QVERIFY(edited.designs[d].simulated->latencyCycles > m_run.designs[d].simulated->latencyCycles);
        }
    }

    void splitOperatorsSurviveTheCache()
    {
        // With 200,000 bytes of SRAM per core the layer's attention operators (KV cache of 16 × 2048
        // tokens) fit only in parts: compileModel splits them.
        const run::RunSpec spec = resolved(kSampleModel, "ipu-mk2-hbm", { "sramBytesPerCore=200000" });
        std::unique_ptr<store::ResultStore> cache = openClean(freshPath("split.sqlite"));
        NullRunControl control;
        const run::RunResult searched = run::runCached(spec, cache.get(), control, 2);
        QVERIFY2(searched.ok(), searched.errors.empty() ? "stopped" : searched.errors.front().c_str());
        const auto& steps = searched.problem.steps;
        QVERIFY(std::any_of(steps.begin(), steps.end(), [](const schedule::Step& s) { return s.parts > 1; }));
        const run::RunSpec edited
            = resolved(kSampleModel, "ipu-mk2-hbm", { "sramBytesPerCore=200000", "hbm.bandwidthGBpsPerStack=300" });
        run::CacheOutcome outcome;
        const run::RunResult fromTables = run::runCached(edited, cache.get(), control, 2, nullptr, true, &outcome);
        QVERIFY(outcome.partitionHit && !outcome.reusedCompiled);
        const run::RunResult fresh = run::executeRun(edited, control, 2);
        QVERIFY(fromTables.ok() && fresh.ok());
        QVERIFY(run::partitionTablesOf(*fromTables.compiled).splits == run::partitionTablesOf(*fresh.compiled).splits);
        QCOMPARE(fromTables.compiled->steps.inputOfStep, fresh.compiled->steps.inputOfStep);
        QCOMPARE(fromTables.problem.steps.size(), fresh.problem.steps.size());
        for (std::size_t s = 0; s < fresh.problem.steps.size(); ++s)
            QCOMPARE(fromTables.problem.steps[s].parts, fresh.problem.steps[s].parts);
        QVERIFY(fromTables.compiled->steps.distinctInputs == fresh.compiled->steps.distinctInputs);
        const std::string diff = designsDiff(fresh.designs, fromTables.designs);
        QVERIFY2(diff.find("latencyCycles") == std::string::npos, diff.c_str());
    }

    void tablesOfAnotherModelAreSearchedAgain()
    {
        // Cached tables that do not fit the model (a damaged or foreign row) are never used.
        NullRunControl control;
        run::PartitionTables wrong = run::partitionTablesOf(*m_run.compiled);
        wrong.plans.pop_back();
        const run::CompileResult compiled = run::compileModel(m_spec, control, 2, &wrong);
        QVERIFY(compiled.ok());
        QVERIFY(!compiled.fromCache);
        run::PartitionTables badSplit = run::partitionTablesOf(*m_run.compiled);
        badSplit.splits.front() = run::InputSplit { 3, 99 };
        QVERIFY(!run::compileModel(m_spec, control, 2, &badSplit).fromCache);
        const run::PartitionTables right = run::partitionTablesOf(*m_run.compiled);
        QVERIFY(run::compileModel(m_spec, control, 2, &right).fromCache);
    }

    void parallelDesignsGiveTheSerialResult()
    {
        NullRunControl control;
        const run::RunResult serial = run::scheduleRun(m_run.compiled, m_spec, control);
        AtomicRunControl counting;
        const run::RunResult parallel = run::scheduleRun(m_run.compiled, m_spec, counting, 3);
        QVERIFY(serial.ok() && parallel.ok());
        Diff diff;
        QCOMPARE(parallel.designs.size(), serial.designs.size());
        for (std::size_t d = 0; d < serial.designs.size(); ++d) {
            // Timings differ by nature; everything else must not.
            run::DesignRun a = serial.designs[d];
            run::DesignRun b = parallel.designs[d];
            a.seconds = b.seconds = 0;
            a.simulateSeconds = b.simulateSeconds = 0;
            const std::string text = designsDiff({ a }, { b });
            QVERIFY2(text.empty(), text.c_str());
        }
        // One task per design, and Ideal one per distinct split candidate.
        QVERIFY(counting.lastTotal() >= 5);
        QCOMPARE(counting.lastDone(), counting.lastTotal());
        QVERIFY(counting.lastStage().rfind("simulate ", 0) == 0);
    }
};

QTEST_GUILESS_MAIN(TestResultStore)
#include "tst_result_store.moc"
