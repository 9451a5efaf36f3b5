// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Simulator invariants on every bundled model — the four LLMs' decode steps (batch 8, KV 512) on the
// 4-IPU all-to-all and mesh presets, DiT-XL/2's prefill and a Llama-2-13B training step — for every design: HBM bytes
// conserved, no link above 100 %, no SRAM overflow, latency above the HBM and compute bounds; and the Perfetto export
// of each run: slices on a lane never overlap and every op appears once on the execute lane. A sanitizer build
// (ELK_SANITIZER_BUILD, 10-20x slower) checks the same invariants on a lighter set: Llama-2-13B decode on both chips
// and the training step; the Release suite runs them all.
#include "engine/export/perfetto_trace.h"
#include "engine/run/run_compile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <map>

using namespace elk;

namespace {

/// Peak of the ipu-mk2 tile cost model: 64 fp16 MACs per cycle per core (elk-reference.md §3.2).
constexpr double kIpuPeakFlopPerCycle = 128;

} // namespace

class TestSimBundled : public QObject {
    Q_OBJECT

private slots:
    void invariants_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("chip");
        QTest::addColumn<int>("phase");
        QTest::addColumn<qint64>("tokens");
        const int decode = int(run::Phase::Decode);
#ifdef ELK_SANITIZER_BUILD
        const std::initializer_list<const char*> models = { "llama2-13b" };
#else
        const std::initializer_list<const char*> models = { "llama2-13b", "llama2-70b", "opt-30b", "gemma2-27b" };
#endif
        for (const char* model : models) {
            for (const char* chip : { "ipu-pod4-hbm", "ipu-pod4-hbm-mesh" })
                QTest::addRow("%s decode on %s", model, chip)
                    << QString::fromLatin1(model) << QString::fromLatin1(chip) << decode << qint64(512);
        }
        // The other phases: DiT-XL/2's prefill (256 patch tokens) and a Llama-2-13B training step
        // (forward, backward, Adam) of 128 tokens.
#ifndef ELK_SANITIZER_BUILD
        QTest::addRow("dit-xl prefill on ipu-pod4-hbm")
            << QStringLiteral("dit-xl") << QStringLiteral("ipu-pod4-hbm") << int(run::Phase::Prefill) << qint64(256);
#endif
        QTest::addRow("llama2-13b train on ipu-pod4-hbm-mesh")
            << QStringLiteral("llama2-13b") << QStringLiteral("ipu-pod4-hbm-mesh") << int(run::Phase::Train)
            << qint64(128);
    }

    void invariants()
    {
        QFETCH(QString, model);
        QFETCH(QString, chip);
        QFETCH(int, phase);
        QFETCH(qint64, tokens);
        run::RunRequest request;
        request.modelPath = model.toStdString();
        request.chip = chip.toStdString();
        request.phase = run::Phase(phase);
        if (request.phase == run::Phase::Decode) {
            request.batch = 8;
            request.kvLen = tokens;
        } else {
            request.batch = 1;
            request.seqLen = tokens;
        }
        const run::RunSpecResult spec = run::resolveRunSpec(request);
        QVERIFY(spec.ok());
        NullRunControl control;
        const run::RunResult result = run::executeRun(spec.spec, control);
        QVERIFY2(result.ok(), result.errors.empty() ? "stopped" : result.errors.front().c_str());

        std::int64_t hbmBytes = 0;
        std::int64_t flops = 0;
        for (const schedule::Step& step : result.problem.steps) {
            hbmBytes += result.problem.planSets[step.planSet]->hbmBytes;
            flops += step.flops;
        }
        const double hbmBound = double(hbmBytes) / result.problem.hbmBytesPerCycle;
        const double computeBound = double(flops) / (double(result.problem.cores) * kIpuPeakFlopPerCycle);
        std::vector<exports::NamedSimResult> named;
        for (const run::DesignRun& design : result.designs) {
            const std::string name = schedule::toString(design.design);
            QVERIFY2(design.simulated, (name + ": " + design.error).c_str());
            const sim::SimResult& simulated = *design.simulated;
            std::int64_t ownHbmBytes = 0; // of its own pipelined splits
            for (const schedule::Step& step : result.problemOf(design).steps)
                ownHbmBytes += result.problemOf(design).planSets[step.planSet]->hbmBytes;
            QCOMPARE(simulated.hbmBytes, ownHbmBytes); // every byte the preloads demand is read once
            QVERIFY2(simulated.latencyCycles >= hbmBound * (1 - 1e-9), name.c_str());
            QVERIFY2(simulated.latencyCycles >= computeBound, name.c_str());
            if (design.design != schedule::Design::Ideal) { // ideal: two networks and SRAM of its own
                QVERIFY2(simulated.maxLinkUtilization <= 1 + 1e-9, name.c_str());
                QVERIFY2(simulated.sramPeakBytesPerCore <= spec.spec.chip.sramBytesPerCore, name.c_str());
            }
            named.push_back({ name, &simulated, {}, {} });
        }

        const QJsonDocument trace
            = QJsonDocument::fromJson(QByteArray::fromStdString(exports::perfettoTraceJson(named)));
        QVERIFY(trace.isObject());
        std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> lanes;
        std::map<std::pair<int, int>, QString> laneNames;
        for (const QJsonValue& value : trace.object().value(QStringLiteral("traceEvents")).toArray()) {
            const QJsonObject event = value.toObject();
            const std::pair<int, int> lane { event.value(QStringLiteral("pid")).toInt(),
                event.value(QStringLiteral("tid")).toInt() };
            if (event.value(QStringLiteral("ph")).toString() == QStringLiteral("X")) {
                QVERIFY(lane.first >= 1 && lane.second >= 1);
                lanes[lane].push_back(
                    { event.value(QStringLiteral("ts")).toDouble(), event.value(QStringLiteral("dur")).toDouble() });
            } else if (event.value(QStringLiteral("name")).toString() == QStringLiteral("thread_name")) {
                laneNames[lane]
                    = event.value(QStringLiteral("args")).toObject().value(QStringLiteral("name")).toString();
            }
        }
        int executeLanes = 0;
        for (auto& [lane, slices] : lanes) {
            std::sort(slices.begin(), slices.end());
            for (std::size_t i = 1; i < slices.size(); ++i)
                QVERIFY2(
                    slices[i].first >= slices[i - 1].first + slices[i - 1].second - 1e-9, "slices overlap on a lane");
            if (laneNames[lane] == QStringLiteral("execute")) {
                ++executeLanes;
                // pid: the design's place in the trace, from 1; each has its own pipelined splits
                QCOMPARE(slices.size(), result.problemOf(result.designs.at(std::size_t(lane.first - 1))).steps.size());
            }
        }
        QCOMPARE(executeLanes, 5);
    }
};

QTEST_GUILESS_MAIN(TestSimBundled)
#include "tst_sim_bundled.moc"
