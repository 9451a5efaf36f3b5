// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The aligned diff of two simulated runs: every op of both, the per-op Δ wait + Δ execute adding up
// to the latency difference, sorted by |Δ|; a run against itself has no differences; runs on chips with
// other links get no per-link delta.
#include "engine/run/run_compile.h"
#include "engine/run/run_diff.h"

#include <QTest>

#include <cmath>

using namespace elk;

namespace {

run::RunResult runOn(const std::string& chip)
{
    run::RunRequest request;
    request.modelPath = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";
    request.chip = chip;
    request.batch = 16;
    const run::RunSpecResult spec = run::resolveRunSpec(request);
    if (!spec.ok())
        qFatal("%s", spec.errors.front().message.c_str());
    NullRunControl control;
    return run::executeRun(spec.spec, control);
}

} // namespace

class TestRunDiff : public QObject {
    Q_OBJECT

private slots:
    void designsOfOneRun()
    {
        const run::RunResult result = runOn("ipu-mk2-hbm");
        QVERIFY(result.ok());
        const sim::SimResult& basic = *result.designs.front().simulated;
        const sim::SimResult& ideal = *result.designs.back().simulated;
        const run::RunDiff diff = run::diffRuns(basic, ideal);
        // Every step of each side once; the two may run an operator as other parts (each design's own
        // pipelined splits), and such parts are ops of one side only.
        std::size_t onA = 0, onB = 0;
        double sum = 0;
        for (std::size_t k = 0; k < diff.ops.size(); ++k) {
            QVERIFY(diff.ops[k].stepA >= 0 || diff.ops[k].stepB >= 0);
            onA += diff.ops[k].stepA >= 0;
            onB += diff.ops[k].stepB >= 0;
            if (k > 0)
                QVERIFY(std::abs(diff.ops[k].deltaMs()) <= std::abs(diff.ops[k - 1].deltaMs()));
            sum += diff.ops[k].deltaMs();
        }
        QCOMPARE(onA, basic.steps.size());
        QCOMPARE(onB, ideal.steps.size());
        QVERIFY(std::abs(sum - (diff.latencyMsB - diff.latencyMsA)) <= 1e-9 * diff.latencyMsA);
        QVERIFY(diff.sameLinks);
        QVERIFY(!diff.links.empty());

        const run::RunDiff self = run::diffRuns(basic, basic);
        for (const run::OpDelta& op : self.ops)
            QVERIFY(op.deltaMs() == 0 && op.deltaPreloadMs() == 0);
        for (const run::LinkDelta& link : self.links)
            QCOMPARE(link.bytesA, link.bytesB);
        QVERIFY(run::runDiffJson(self, "a", "b").find("\"delta_latency_ms\": 0.0") != std::string::npos);
    }

    void otherChip()
    {
        const run::RunResult a = runOn("ipu-mk2-hbm");
        const run::RunResult b = runOn("ipu-pod4-hbm");
        QVERIFY(a.ok() && b.ok());
        const run::RunDiff diff = run::diffRuns(*a.designs[2].simulated, *b.designs[2].simulated);
        QVERIFY(!diff.sameLinks);
        QVERIFY(diff.links.empty());
        QVERIFY(run::runDiffJson(diff, "a", "b").find("links_note") != std::string::npos);
        // Every op of either side is listed once.
        std::size_t fromA = 0, fromB = 0;
        for (const run::OpDelta& op : diff.ops) {
            fromA += op.stepA >= 0;
            fromB += op.stepB >= 0;
        }
        QCOMPARE(fromA, a.designs[2].simulated->steps.size());
        QCOMPARE(fromB, b.designs[2].simulated->steps.size());
    }
};

QTEST_GUILESS_MAIN(TestRunDiff)
#include "tst_run_diff.moc"
