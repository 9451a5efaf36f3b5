// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Golden numbers: what every design gives for the four bundled LLMs (decode, batch 32, KV 2048) on
// ipu-pod4-hbm and on its mesh variant (latency, the four-way breakdown, stalls, traffic, SRAM peak),
// and the ResNet-50 train step's StableHLO report, pinned in tests/golden/numbers/. A change that
// moves a number fails here with a diff command; ELK_UPDATE_GOLDEN=1 rewrites the files (say why in
// the commit). Numbers are printed to 12 significant digits: Release, Debug and sanitizer builds, GCC
// and clang, give the same text.
#include "engine/hlo/hlo_run.h"
#include "engine/run/run_compile.h"
#include "engine/schedule/schedule.h"
#include "tests/engine/export_fixtures.h"

#include <cstdio>
#include <string>

#include <QTest>

using namespace elk;
using namespace Qt::Literals::StringLiterals;

namespace {

std::string number(double value)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.12g", value);
    return text;
}

std::string runText(const run::RunResult& result)
{
    std::string out = "# " + result.spec.model.path + " on " + result.spec.chip.name + ", decode b"
        + std::to_string(result.spec.batch) + " kv " + std::to_string(result.spec.kvLen) + "\n";
    // (The breakdown's fourth part, idle, is the latency less the other three: not printed, as its
    // value when there is no idle time is rounding noise.)
    out += "design,analytic_cycles,simulated_cycles,execute_only,preload_only,overlap,stall,hbm_bytes,noc_bytes,"
           "flops,sram_peak_bytes_per_core\n";
    for (const run::DesignRun& design : result.designs) {
        out += schedule::toString(design.design);
        if (!design.schedule || !design.simulated) {
            out += ",error: " + design.error + "\n";
            continue;
        }
        const sim::SimResult& sim = *design.simulated;
        for (double value : { design.metrics.latencyCycles, sim.latencyCycles, sim.executeOnlyCycles,
                 sim.preloadOnlyCycles, sim.overlapCycles, sim.interconnectStallCycles, double(sim.hbmBytes),
                 sim.nocBytes, double(sim.flops), double(sim.sramPeakBytesPerCore) })
            out += "," + number(value);
        out += "\n";
    }
    return out;
}

} // namespace

class TestGoldenNumbers : public QObject {
    Q_OBJECT
private slots:
    void designsOnTheLlms_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("chip");
        for (const char* model : { "llama2-13b", "llama2-70b", "opt-30b", "gemma2-27b" })
            for (const char* chip : { "ipu-pod4-hbm", "ipu-pod4-hbm-mesh" })
                QTest::addRow("%s on %s", model, chip) << QString::fromLatin1(model) << QString::fromLatin1(chip);
    }

    void designsOnTheLlms()
    {
        QFETCH(QString, model);
        QFETCH(QString, chip);
        run::RunRequest request;
        request.modelPath = model.toStdString();
        request.chip = chip.toStdString();
        request.batch = 32;
        request.kvLen = 2048;
        const run::RunSpecResult spec = run::resolveRunSpec(request);
        QVERIFY2(spec.ok(), spec.ok() ? "" : spec.errors.front().message.c_str());
        NullRunControl control;
        const run::RunResult result = run::executeRun(spec.spec, control, 0);
        QVERIFY2(result.ok(), result.errors.empty() ? "stopped" : result.errors.front().c_str());
        QVERIFY(test::matchesGolden(u"numbers/"_s + model + u'-' + chip + u".csv"_s, runText(result)));
    }

    void resnet50HloReport()
    {
        hlo::HloRunOptions options; // 4x-a100-sxm-40gb, roofline, dependency slicing, XLA fusion
        NullRunControl control;
        const hlo::HloRunResult result
            = hlo::runHloFile(ELK_TEST_DATA_DIR "/stablehlo/hespas/resnet_50_train_step_4_devices_1024_batch.mlir",
                options, nullptr, control);
        QVERIFY2(result.ok(), result.errors.empty() ? "stopped" : result.errors.front().c_str());
        std::string text = "# hespas ResNet-50 train step, 4 devices, batch 1024, on " + result.systemName + "\n";
        text += "step_s," + number(result.stepSeconds) + "\ncompute_s," + number(result.computeSeconds) + "\ncomm_s,"
            + number(result.commSeconds) + "\nexposed_comm_s," + number(result.exposedCommSeconds) + "\nflops,"
            + number(result.totalFlops) + "\nunfused_bytes," + number(result.unfusedBytes) + "\nfused_bytes,"
            + number(result.fusedBytes) + "\nops," + std::to_string(result.opCount) + "\nkernels,"
            + std::to_string(result.kernels.size()) + "\nregions," + std::to_string(result.regions.size()) + "\n";
        text += hlo::hloRegionsToCsv(result);
        QVERIFY(test::matchesGolden(u"numbers/resnet50-train-hlo.csv"_s, text));
    }
};

QTEST_GUILESS_MAIN(TestGoldenNumbers)
#include "tst_golden_numbers.moc"
