// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Pipelined splits on equal terms (issue 42 item 1). The split choice is made once, greedily by
// Elk-Dyn's analytic latency, and every design runs with it. This checks whether any design would do
// better with the choice the same greedy search makes by that design's own analytic latency, on the
// paper's configurations (the 4-IPU part at b32 / KV 2048 and the artifact's 1-IPU point), and prints
// each design's latency with the shared choice, its own, and no pipelined splits.
#include "engine/run/run_compile.h"

#include <QTest>

using namespace elk;

class TestSplitChoice : public QObject {
    Q_OBJECT

private slots:
    void noDesignPrefersItsOwnSplits_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("chip");
        QTest::addRow("llama2-13b on ipu-mk2-hbm") << u"llama2-13b"_qs << u"ipu-mk2-hbm"_qs;
#ifndef ELK_SANITIZER_BUILD
        for (const char* model : { "llama2-13b", "llama2-70b", "opt-30b", "gemma2-27b" })
            QTest::addRow("%s on ipu-pod4-hbm", model) << QString::fromLatin1(model) << u"ipu-pod4-hbm"_qs;
#endif
    }

    void noDesignPrefersItsOwnSplits()
    {
        QFETCH(QString, model);
        QFETCH(QString, chip);
        run::RunRequest request;
        request.modelPath = model.toStdString();
        request.chip = chip.toStdString();
        request.batch = 32;
        request.kvLen = 2048;
        const run::RunSpecResult spec = run::resolveRunSpec(request);
        QVERIFY(spec.ok());
        NullRunControl control;
        const run::CompileResult compiled = run::compileModel(spec.spec, control, 2);
        QVERIFY2(compiled.ok(), compiled.errors.empty() ? "stopped" : compiled.errors.front().c_str());
        const run::CompiledModel& c = *compiled.compiled;
        const run::SplitChoice shared = run::chooseSplits(c, spec.spec);
        const run::SplitChoice none = run::noPipelinedSplits(c);
        const auto analytic = [&](const run::SplitChoice& choice, schedule::Design design) {
            const schedule::ScheduleProblem problem = run::scheduleProblemFor(c, spec.spec, choice);
            const schedule::ScheduleResult scheduled = schedule::scheduleDesign(problem, design, control);
            return scheduled.ok() ? scheduled.schedule->latencyCycles : std::numeric_limits<double>::infinity();
        };
        // Elk-Full judges by its whole order search; it starts from Elk-Dyn's schedule (the identity
        // order), so it is checked too, on the same terms.
        QString worse;
        for (schedule::Design design : schedule::kAllDesigns) {
            const run::SplitChoice own = run::chooseSplits(c, spec.spec, design);
            const double withShared = analytic(shared, design), withOwn = analytic(own, design),
                         withNone = analytic(none, design);
            const double ms = 1e3 / spec.spec.chip.clockHz;
            qInfo("%-8s shared %.4f ms, own choice %.4f ms (%s), no pipelined splits %.4f ms",
                schedule::toString(design), withShared * ms, withOwn * ms,
                own.variantOfInput == shared.variantOfInput ? "the same" : "another", withNone * ms);
            if (!(withShared <= withOwn * (1 + 1e-4))) // the search's 0.01 % step
                worse += QString::fromLatin1(schedule::toString(design)) + u" "_qs;
        }
        // Known defect (issue 42 item 1, open): Basic does better with its own choice on three of the five
        // points (analytic, measured 2026-12-07: llama2-13b on ipu-mk2-hbm 27.681 -> 25.172 ms, opt-30b on
        // ipu-pod4-hbm 15.526 -> 14.267 ms, gemma2-27b 10.867 -> 10.856 ms), so the shared choice leans
        // against it; on gemma2-27b Ideal too is 0.13 % faster without pipelined splits (6.046 -> 6.038 ms). The fix is
        // a split choice per design, which needs a schedule problem per design.
        const QString row = QString::fromLatin1(QTest::currentDataTag());
        const bool known = (worse == u"basic "_qs
                               && (row == u"llama2-13b on ipu-mk2-hbm"_qs || row == u"opt-30b on ipu-pod4-hbm"_qs))
            || (worse == u"basic ideal "_qs && row == u"gemma2-27b on ipu-pod4-hbm"_qs);
        if (known)
            QEXPECT_FAIL("", "basic prefers its own pipelined splits (issue 42 item 1)", Continue);
        QVERIFY2(worse.isEmpty(), qPrintable(u"better with their own split choice: "_qs + worse));
    }
};

QTEST_GUILESS_MAIN(TestSplitChoice)
#include "tst_split_choice.moc"
