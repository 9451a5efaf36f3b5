// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Pipelined splits on equal terms (issue 42 item 1): every design runs with the splits its own analytic
// latency prefers among the candidates (the greedy choices judged by Basic, Static and Elk-Dyn, and no
// pipelined splits); Elk-Full takes Elk-Dyn's, Ideal the fastest simulated candidate. Checked here, on
// the paper's configurations (the 4-IPU part at b32 / KV 2048 and the artifact's 1-IPU point):
// - what a run reports per design (its judge's analytic latency with and without its splits) against
//   schedules made here from the reported choice and from no pipelined splits;
// - that no design would do better with its own greedy choice, or with Elk-Dyn's, than with the one it
//   runs: for Elk-Full, judged by its whole order search, this is not true by construction;
// - Ideal, simulated, at or below every design.
// On the 1-IPU point it also searches every combination of variants and prints how far each design's
// choice is from the best one.
#include "engine/run/run_compile.h"

#include <QTest>

#include <limits>

using namespace elk;

namespace {

double analytic(const run::CompiledModel& c, const run::RunSpec& spec, const std::vector<std::uint32_t>& variants,
    schedule::Design design)
{
    run::SplitChoice choice;
    choice.variantOfInput = variants;
    const schedule::ScheduleProblem problem = run::scheduleProblemFor(c, spec, choice);
    NullRunControl control;
    const schedule::ScheduleResult scheduled = schedule::scheduleDesign(problem, design, control);
    return scheduled.ok() ? scheduled.schedule->latencyCycles : std::numeric_limits<double>::infinity();
}

/// The paper's decode step: batch 32, KV 2048.
run::RunSpecResult specOf(const std::string& model, const std::string& chip)
{
    run::RunRequest request;
    request.modelPath = model;
    request.chip = chip;
    request.batch = 32;
    request.kvLen = 2048;
    return run::resolveRunSpec(request);
}

} // namespace

class TestSplitChoice : public QObject {
    Q_OBJECT

private slots:
    void everyDesignOnItsOwnTerms_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("chip");
        QTest::addRow("llama2-13b on ipu-mk2-hbm") << u"llama2-13b"_qs << u"ipu-mk2-hbm"_qs;
#ifndef ELK_SANITIZER_BUILD
        for (const char* model : { "llama2-13b", "llama2-70b", "opt-30b", "gemma2-27b" })
            QTest::addRow("%s on ipu-pod4-hbm", model) << QString::fromLatin1(model) << u"ipu-pod4-hbm"_qs;
#endif
    }

    void everyDesignOnItsOwnTerms()
    {
        QFETCH(QString, model);
        QFETCH(QString, chip);
        const run::RunSpecResult spec = specOf(model.toStdString(), chip.toStdString());
        QVERIFY(spec.ok());
        NullRunControl control;
        const run::CompileResult compiled = run::compileModel(spec.spec, control, 2);
        QVERIFY2(compiled.ok(), compiled.errors.empty() ? "stopped" : compiled.errors.front().c_str());
        const run::CompiledModel& c = *compiled.compiled;
        const run::RunResult result = run::scheduleRun(compiled.compiled, spec.spec, control, 2);
        QVERIFY(result.ok());
        const std::vector<std::uint32_t> none = run::noPipelinedSplits(c).variantOfInput;
        const std::vector<std::uint32_t> elkDyn = run::chooseSplits(c, spec.spec).variantOfInput;
        const double ms = 1e3 / spec.spec.chip.clockHz;
        double fastest = std::numeric_limits<double>::infinity();
        for (const run::DesignRun& design : result.designs) {
            QVERIFY2(design.simulated, design.error.c_str());
            fastest = std::min(fastest, design.simulated->latencyCycles);
            const char* name = schedule::toString(design.design);
            const std::vector<std::uint32_t>& chosen = design.splits.variantOfInput;
            QCOMPARE(result.problemOf(design).steps.size(),
                run::scheduleProblemFor(c, spec.spec, design.splits).steps.size());
            if (design.design == schedule::Design::Ideal) {
                QVERIFY2(design.simulated->latencyCycles <= fastest * (1 + 1e-9), "ideal above another design");
                continue;
            }
            const schedule::Design judge = design.splits.judge;
            QCOMPARE(judge, run::splitJudgeOf(design.design));
            if (design.splits.evaluations > 0) { // what the run reports, made again here
                QCOMPARE(design.splits.analyticCycles, analytic(c, spec.spec, chosen, judge));
                QCOMPARE(design.splits.unsplitAnalyticCycles, analytic(c, spec.spec, none, judge));
            }
            // Its own terms: its own greedy search (Elk-Full: judged by its whole order search), Elk-Dyn's
            // choice and no pipelined splits do not beat what it runs, by its own analytic latency. For
            // Basic, Static and Elk-Dyn these are among the candidates it took the best of (a guard of the
            // rule); for Elk-Full, which runs Elk-Dyn's pick, it can fail.
            const double runs = analytic(c, spec.spec, chosen, design.design);
            const double own
                = analytic(c, spec.spec, run::chooseSplits(c, spec.spec, design.design).variantOfInput, design.design);
            const double shared = analytic(c, spec.spec, elkDyn, design.design);
            const double unsplit = analytic(c, spec.spec, none, design.design);
            qInfo("%-8s runs %.4f ms (simulated %.4f); own greedy %.4f, elk-dyn's %.4f, none %.4f", name, runs * ms,
                design.simulated->latencyCycles * ms, own * ms, shared * ms, unsplit * ms);
            for (const double other : { own, shared, unsplit })
                QVERIFY2(runs <= other * (1 + 1e-4), name); // the greedy search's 0.01 % step
        }
    }

    /// Every combination of variants on the 1-IPU point: how far each design's choice is from the best.
    void againstEveryCombination()
    {
        const run::RunSpecResult spec = specOf("llama2-13b", "ipu-mk2-hbm");
        QVERIFY(spec.ok());
        NullRunControl control;
        const run::CompileResult compiled = run::compileModel(spec.spec, control, 2);
        QVERIFY(compiled.ok());
        const run::CompiledModel& c = *compiled.compiled;
        std::size_t combinations = 1;
        for (const auto& variants : c.variants)
            combinations *= variants.size();
        if (combinations > 512)
            QSKIP(qPrintable(u"%1 combinations: too many to try"_qs.arg(combinations)));
        const run::RunResult result = run::scheduleRun(compiled.compiled, spec.spec, control, 2);
        QVERIFY(result.ok());
        for (const run::DesignRun& design : result.designs) {
            if (design.design == schedule::Design::Ideal || design.design == schedule::Design::ElkFull)
                continue; // Ideal: simulated choice; Elk-Full: an order search per combination is too slow
            double best = std::numeric_limits<double>::infinity();
            std::vector<std::uint32_t> variants(c.variants.size(), 0);
            for (std::size_t k = 0; k < combinations; ++k) {
                std::size_t rest = k;
                for (std::size_t i = 0; i < variants.size(); ++i) {
                    variants[i] = std::uint32_t(rest % c.variants[i].size());
                    rest /= c.variants[i].size();
                }
                best = std::min(best, analytic(c, spec.spec, variants, design.design));
            }
            const double chosen = analytic(c, spec.spec, design.splits.variantOfInput, design.design);
            qInfo("%-8s chosen %.4f ms, best of %zu combinations %.4f ms (%+.3f %%)", schedule::toString(design.design),
                chosen / spec.spec.chip.clockHz * 1e3, combinations, best / spec.spec.chip.clockHz * 1e3,
                100 * (chosen / best - 1));
            QVERIFY(chosen >= best * (1 - 1e-12)); // the search space holds the choice
            QVERIFY2(chosen <= best * 1.01, schedule::toString(design.design)); // within 1 % of the best
        }
    }
};

QTEST_GUILESS_MAIN(TestSplitChoice)
#include "tst_split_choice.moc"
