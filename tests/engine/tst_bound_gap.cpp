// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The bound-gap waterfall (sim::BoundGap): for every design of the four LLMs on the all-to-all and the
// mesh pod, the floor is a floor (≤ the simulated latency, the largest of its three candidates) and the
// measured losses add up to the latency; each segment has exactly one cause (durations sum to the
// latency); the floor resource follows the physics (decode is HBM-bound, a long prefill compute-bound);
// the waterfall survives the result cache bit for bit.
#include "engine/run/explain.h"
#include "engine/store/result_store.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace elk;

namespace {

run::RunResult runOf(
    const std::string& model, const std::string& chip, run::Phase phase = run::Phase::Decode, std::int64_t seqLen = 0)
{
    run::RunRequest request;
    request.modelPath = model;
    request.chip = chip;
    request.phase = phase;
    if (seqLen > 0)
        request.seqLen = seqLen;
    const run::RunSpecResult spec = run::resolveRunSpec(request);
    if (!spec.ok())
        qFatal("%s", spec.errors.front().message.c_str());
    NullRunControl control;
    return run::executeRun(spec.spec, control);
}

QByteArray describeGap(const sim::SimResult& s)
{
    QByteArray text = "latency " + QByteArray::number(s.latencyCycles, 'f', 1) + " floor "
        + QByteArray::number(s.boundGap.floorCycles, 'f', 1) + " (" + sim::toString(s.boundGap.floorKind) + ")";
    for (int c = 0; c < sim::kGapCauseCount; ++c)
        text += QByteArray(" ") + sim::toString(sim::GapCause(c)) + "="
            + QByteArray::number(s.boundGap.parts[std::size_t(c)].lossCycles, 'f', 1);
    return text;
}

} // namespace

class TestBoundGap : public QObject {
    Q_OBJECT

private slots:
    void partsAddUp_data();
    void partsAddUp();
    void floorFollowsThePhysics();
    void survivesTheCache();
};

void TestBoundGap::partsAddUp_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("chip");
    for (const char* chip : { "ipu-pod4-hbm", "ipu-pod4-hbm-mesh" })
        for (const char* model : { "llama2-13b", "llama2-70b", "opt-30b", "gemma2-27b" }) {
#ifdef ELK_SANITIZER_BUILD
            if (std::string(model) != "llama2-13b") // 10-20x slower; the Release suite runs all four
                continue;
#endif
            QTest::addRow("%s on %s", model, chip) << QString::fromLatin1(model) << QString::fromLatin1(chip);
        }
}

void TestBoundGap::partsAddUp()
{
    QFETCH(QString, model);
    QFETCH(QString, chip);
    const run::RunResult result = runOf(model.toStdString(), chip.toStdString());
    QVERIFY2(result.ok(), result.errors.empty() ? "stopped" : result.errors.front().c_str());
    QCOMPARE(result.designs.size(), std::size_t(5));
    for (const run::DesignRun& d : result.designs) {
        QVERIFY2(d.simulated, d.error.c_str());
        const sim::SimResult& s = *d.simulated;
        const sim::BoundGap& g = s.boundGap;
        const QByteArray what = QByteArray(schedule::toString(d.design)) + ": " + describeGap(s);
        const double latency = s.latencyCycles;
        QVERIFY2(g.floorCycles > 0 && g.floorCycles <= latency * (1 + 1e-9), what.constData());
        QCOMPARE(g.floorCycles, std::max({ g.hbmFloorCycles, g.computeFloorCycles, g.linkFloorCycles }));
        QVERIFY2(!g.floorResource.empty(), what.constData());
        double sum = g.floorCycles, durations = 0;
        for (const sim::GapPart& part : g.parts) {
            QVERIFY2(part.lossCycles >= -1e-9 * latency, what.constData());
            QVERIFY2(part.lossCycles <= part.durationCycles * (1 + 1e-9) + 1e-6, what.constData());
            sum += part.lossCycles;
            durations += part.durationCycles;
            double covered = 0, last = 0;
            for (const schedule::Interval& i : part.intervals) {
                QVERIFY2(i.startCycles >= last - 1e-6 && i.endCycles > i.startCycles, what.constData());
                QVERIFY2(i.endCycles <= latency * (1 + 1e-12), what.constData());
                covered += i.length();
                last = i.endCycles;
            }
            // Intervals are the segments that lose anything: they hold the loss.
            QVERIFY2(covered >= part.lossCycles * (1 - 1e-9) - 1e-6, what.constData());
        }
        // The issue asks for 0.5 %; the identity is exact up to rounding.
        QVERIFY2(std::abs(sum - latency) <= 1e-6 * latency, what.constData());
        QVERIFY2(std::abs(durations - latency) <= 1e-9 * latency, what.constData());
        // The engine's millisecond view agrees.
        const run::Waterfall w = run::waterfallOf(s, d.design);
        QVERIFY(std::abs(w.sumMs() - w.latencyMs) <= 1e-6 * w.latencyMs);
    }
}

void TestBoundGap::floorFollowsThePhysics()
{
    // A batch-1 decode step streams every weight once and computes little: HBM binds.
    const run::RunResult decode = runOf("llama2-13b", "ipu-pod4-hbm");
    QVERIFY(decode.ok());
    for (const run::DesignRun& d : decode.designs) {
        QVERIFY(d.simulated);
        QCOMPARE(d.simulated->boundGap.floorKind, sim::FloorKind::Hbm);
        QVERIFY(d.simulated->boundGap.computeFloorCycles > 0); // the ipu-mk2 model states its peak
    }
#ifndef ELK_SANITIZER_BUILD // a 512-token prefill takes minutes with sanitizers
    // A 512-token prefill reuses each weight 512 times: compute binds (at 256 tokens the hottest
    // all-to-all port still does), and compute below peak costs.
    const run::RunResult prefill = runOf("llama2-13b", "ipu-pod4-hbm", run::Phase::Prefill, 512);
    QVERIFY(prefill.ok());
    for (const run::DesignRun& d : prefill.designs) {
        QVERIFY(d.simulated);
        const sim::BoundGap& g = d.simulated->boundGap;
        QVERIFY2(g.floorKind == sim::FloorKind::Compute, describeGap(*d.simulated).constData());
        QVERIFY(g.parts[std::size_t(sim::GapCause::ComputeEfficiency)].lossCycles > 0);
    }
#endif
    // Basic preloads only while nothing executes (elk-design.md §4): on decode its HBM sits idle
    // behind full SRAM, which the waterfall must say, and Ideal loses less than Basic.
    const auto loss = [](const run::RunResult& r, schedule::Design design, sim::GapCause cause) {
        for (const run::DesignRun& d : r.designs)
            if (d.design == design)
                return d.simulated->boundGap.parts[std::size_t(cause)].lossCycles;
        return -1.0;
    };
    QVERIFY(loss(decode, schedule::Design::Basic, sim::GapCause::SramFullWait) > 0);
    QCOMPARE(loss(decode, schedule::Design::Ideal, sim::GapCause::SramFullWait), 0.0);
}

void TestBoundGap::survivesTheCache()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    store::OpenResult opened = store::ResultStore::open(dir.filePath(QStringLiteral("cache.sqlite")).toStdString());
    QVERIFY2(opened.store, opened.error.c_str());
    run::RunRequest request;
    request.modelPath = "llama2-13b";
    request.chip = "ipu-pod4-hbm-mesh";
    const run::RunSpecResult spec = run::resolveRunSpec(request);
    QVERIFY(spec.ok());
    NullRunControl control;
    run::CacheOutcome first, second;
    const run::RunResult computed = run::runCached(spec.spec, opened.store.get(), control, 0, nullptr, true, &first);
    const run::RunResult cached = run::runCached(spec.spec, opened.store.get(), control, 0, nullptr, true, &second);
    QVERIFY(!first.runHit);
    QVERIFY(second.runHit);
    QCOMPARE(run::explainJson(cached), run::explainJson(computed));
    for (std::size_t k = 0; k < computed.designs.size(); ++k) {
        const sim::BoundGap& a = computed.designs[k].simulated->boundGap;
        const sim::BoundGap& b = cached.designs[k].simulated->boundGap;
        for (std::size_t c = 0; c < a.parts.size(); ++c) {
            QCOMPARE(b.parts[c].intervals.size(), a.parts[c].intervals.size());
            for (std::size_t i = 0; i < a.parts[c].intervals.size(); ++i) {
                QCOMPARE(b.parts[c].intervals[i].startCycles, a.parts[c].intervals[i].startCycles);
                QCOMPARE(b.parts[c].intervals[i].endCycles, a.parts[c].intervals[i].endCycles);
            }
        }
    }
}

QTEST_GUILESS_MAIN(TestBoundGap)
#include "tst_bound_gap.moc"
