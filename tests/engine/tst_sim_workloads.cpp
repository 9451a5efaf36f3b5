// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The simulator on a bundled workload, every design: invariants, and the built-in validation
// (contention off on an all-to-all chip reproduces the analytic schedule within 1 %).
#include "engine/run/run_compile.h"
#include "engine/schedule/program.h"
#include "engine/sim/simulator.h"

#include <QtTest>

#include "tests/support/compare_near.h"
#include <cstring>
#include <map>

using namespace elk;

class TestSimWorkloads : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void invariants_data();
    void invariants();
    void contentionOffMatchesAnalytic_data();
    void contentionOffMatchesAnalytic();
    void wrongEstimateShowsInSimulation();
    void stopIsHonoured();

private:
    std::map<std::string, run::RunResult> m_runs;
};

namespace {

/// Peak of the ipu-mk2 tile cost model: 64 fp16 MACs per cycle per core (elk-reference.md §3.2).
constexpr double kIpuPeakFlopPerCycle = 128;
const char* const kChips[] = { "ipu-mk2-hbm", "ipu-pod4-hbm-mesh" };

run::RunResult runOf(const std::string& chip)
{
    run::RunRequest request;
    request.modelPath = "llama2-13b";
    request.chip = chip;
    request.batch = 4;
    request.kvLen = 512;
    run::RunSpecResult spec = run::resolveRunSpec(request);
    if (!spec.ok())
        qFatal("cannot resolve: %s", spec.errors.front().message.c_str());
    NullRunControl control;
    run::RunResult result = run::executeRun(spec.spec, control);
    if (!result.ok())
        qFatal("run failed on %s", chip.c_str());
    return result;
}

sim::SimResult simulated(const run::RunResult& run, const run::DesignRun& design, bool contention)
{
    const schedule::ScheduleProblem& problem = run.problemOf(design); // its own pipelined splits
    const schedule::Program program = schedule::lowerProgram(problem, *design.schedule);
    sim::SimOptions options;
    options.contention = contention;
    NullRunControl control;
    sim::SimRunResult r = sim::simulate(run.spec.chip, problem, program, options, control);
    if (!r.ok())
        qFatal("simulate failed: %s", r.error.c_str());
    return *r.result;
}

} // namespace

void TestSimWorkloads::initTestCase()
{
    for (const char* chip : kChips)
        m_runs.emplace(chip, runOf(chip));
}

void TestSimWorkloads::invariants_data()
{
    QTest::addColumn<QString>("chip");
    QTest::addColumn<int>("design");
    for (const char* chip : kChips)
        for (int d = 0; d < 5; ++d)
            QTest::addRow("%s %s", chip, std::string(schedule::toString(schedule::kAllDesigns[d])).c_str())
                << QString::fromLatin1(chip) << d;
}

void TestSimWorkloads::invariants()
{
    QFETCH(QString, chip);
    QFETCH(int, design);
    const run::RunResult& run = m_runs.at(chip.toStdString());
    const run::DesignRun& d = run.designs[static_cast<std::size_t>(design)];
    QVERIFY2(d.schedule.has_value(), d.error.c_str());
    const sim::SimResult r = simulated(run, d, true);
    const chip::ChipSpec& spec = run.spec.chip;

    // Bytes conserved: HBM channels carried exactly what the preloads read.
    double hbmLinks = 0;
    std::int64_t demanded = 0;
    for (std::size_t l = 0; l < r.links.size(); ++l)
        if (r.links[l].kind == sim::LinkKind::HbmStack)
            hbmLinks += r.linkBytes[l];
    for (const auto& step : run.problemOf(d).steps)
        demanded += run.problemOf(d).planSets[step.planSet]->hbmBytes;
    QCOMPARE(r.hbmBytes, demanded);
    QVERIFY2(qAbs(hbmLinks - double(demanded)) <= 1e-9 * double(demanded), qPrintable(QString::number(hbmLinks)));
    // No link above 100 %; no SRAM overflow (ideal gives every op the whole SRAM on its own).
    QVERIFY2(r.maxLinkUtilization <= 1 + 1e-9, qPrintable(QString::number(r.maxLinkUtilization, 'g', 17)));
    if (d.design != schedule::Design::Ideal)
        QVERIFY(r.sramPeakBytesPerCore <= spec.sramBytesPerCore);
    // (ideal's preloads and executions have interconnects of their own: its bins add both up.)
    if (d.design != schedule::Design::Ideal)
        for (const auto& bin : r.linkUtilizationBins)
            for (float u : bin)
                QVERIFY(u <= 1.0f + 1e-4f);
    // Lower bounds: HBM time and compute time at the ipu-mk2 peak.
    const double hbmBound = double(r.hbmBytes) / (spec.totalHbmBandwidthGBps() * 1e9 / spec.clockHz);
    const double flopBound = double(r.flops) / (double(spec.totalCores()) * kIpuPeakFlopPerCycle);
    QVERIFY(r.latencyCycles >= std::max(hbmBound, flopBound));
    // Breakdown sums to the latency; steps are ordered.
    ELK_COMPARE_NEAR(
        r.overlapCycles + r.preloadOnlyCycles + r.executeOnlyCycles, r.latencyCycles, 1e-6 * r.latencyCycles + 1e-9);
    for (std::size_t i = 0; i < r.steps.size(); ++i) {
        const sim::StepTrace& s = r.steps[i];
        QVERIFY(s.preload.endCycles <= s.execute.startCycles + 1e-9);
        if (i > 0)
            QVERIFY(r.steps[i - 1].execute.endCycles <= s.execute.startCycles + 1e-9);
    }
    // Bit-identical on a second run.
    const sim::SimResult again = simulated(run, d, true);
    QCOMPARE(again.latencyCycles, r.latencyCycles);
    QCOMPARE(again.events, r.events);
    QVERIFY(again.linkBytes == r.linkBytes);
    QVERIFY(again.linkUtilizationBins == r.linkUtilizationBins);
    for (std::size_t i = 0; i < r.steps.size(); ++i)
        QCOMPARE(again.steps[i].execute.endCycles, r.steps[i].execute.endCycles);
}

void TestSimWorkloads::contentionOffMatchesAnalytic_data()
{
    QTest::addColumn<int>("design");
    for (int d = 0; d < 5; ++d)
        QTest::addRow("ipu-mk2-hbm %s", std::string(schedule::toString(schedule::kAllDesigns[d])).c_str()) << d;
}

void TestSimWorkloads::contentionOffMatchesAnalytic()
{
    QFETCH(int, design);
    const run::RunResult& run = m_runs.at("ipu-mk2-hbm");
    // Both sides without contention: the scheduler without its NoC-stall model, the simulator with
    // every phase at its solo rate, and the scheduler's preload knobs set to what the hardware does
    // (θ = 1, κ = the port). The simulator derives its traffic from the plans' geometry, not from the
    // scheduler's cycles, so the same decisions giving the same latency within 1 % is a real check.
    schedule::ScheduleProblem problem = run.problem;
    problem.nocContention = false;
    problem.preloadNocThreshold = 1;
    problem.preloadIngressBytesPerCycle = run.spec.chip.linkBytesPerCycle();
    NullRunControl control;
    const schedule::ScheduleResult scheduled
        = schedule::scheduleDesign(problem, schedule::kAllDesigns[design], control);
    QVERIFY2(scheduled.ok(), scheduled.error.c_str());
    const schedule::Program program = schedule::lowerProgram(problem, *scheduled.schedule);
    sim::SimOptions options;
    options.contention = false;
    const sim::SimRunResult r = sim::simulate(run.spec.chip, problem, program, options, control);
    QVERIFY2(r.ok(), r.error.c_str());
    const double analytic = scheduled.schedule->latencyCycles;
    const double difference = (r.result->latencyCycles - analytic) / analytic;
    qInfo("%s: simulated %.1f analytic %.1f cycles (%+.4f %%)", schedule::toString(schedule::kAllDesigns[design]),
        r.result->latencyCycles, analytic, 100 * difference);
    QVERIFY2(qAbs(difference) <= 0.01, qPrintable(QString::number(100 * difference) + QStringLiteral(" %")));
}

void TestSimWorkloads::wrongEstimateShowsInSimulation()
{
    // The scheduler is told that every exchange (rotation shifts, reductions, warm-up) is free. Its
    // analytic latency drops; the simulated latency of the program it emits does not follow the
    // estimate: simulating that program against the true or the falsified plan tables gives the same
    // number, above the estimate by about the communication the estimate left out.
    const run::RunResult& run = m_runs.at("ipu-mk2-hbm");
    schedule::ScheduleProblem truth = run.problem;
    truth.nocContention = false;
    truth.preloadNocThreshold = 1;
    truth.preloadIngressBytesPerCycle = run.spec.chip.linkBytesPerCycle();
    std::vector<partition::OpPlans> falsified;
    for (const partition::OpPlans* plans : truth.planSets)
        falsified.push_back(*plans);
    for (partition::OpPlans& plans : falsified) {
        for (partition::PlanCost& cost : plans.costs) {
            cost.shiftCycles = 0;
            cost.reduceCycles = cost.partialSumCycles;
        }
        for (partition::PreloadEntry& entry : plans.table) {
            entry.warmupCycles = 0;
            entry.totalCycles = plans.costs[entry.executePlan].executeCycles();
        }
    }
    schedule::ScheduleProblem wrong = truth;
    for (std::size_t p = 0; p < falsified.size(); ++p)
        wrong.planSets[p] = &falsified[p];
    NullRunControl control;
    const schedule::ScheduleResult scheduled = schedule::scheduleDesign(wrong, schedule::Design::ElkDyn, control);
    QVERIFY2(scheduled.ok(), scheduled.error.c_str());
    const schedule::Program program = schedule::lowerProgram(wrong, *scheduled.schedule);
    sim::SimOptions options;
    options.contention = false;
    const sim::SimRunResult onWrong = sim::simulate(run.spec.chip, wrong, program, options, control);
    const sim::SimRunResult onTruth = sim::simulate(run.spec.chip, truth, program, options, control);
    QVERIFY2(onWrong.ok() && onTruth.ok(), onWrong.error.c_str());
    QCOMPARE(onWrong.result->latencyCycles, onTruth.result->latencyCycles);
    // Execution time: what the estimate assumed, what the true tables say for the same entries, what
    // the simulator measured.
    double estimated = 0, trueEstimate = 0, measured = 0;
    for (std::size_t i = 0; i < truth.steps.size(); ++i) {
        const std::uint32_t entry = scheduled.schedule->steps[i].tableEntry;
        estimated += falsified[truth.steps[i].planSet].table[entry].totalCycles;
        trueEstimate += truth.planSets[truth.steps[i].planSet]->table[entry].totalCycles;
        measured += onWrong.result->steps[i].execute.length();
    }
    const double leftOut = trueEstimate - estimated;
    qInfo("execution: estimated %.0f cycles, true tables %.0f, simulated %.0f; latency estimate %.0f, simulated %.0f",
        estimated, trueEstimate, measured, scheduled.schedule->latencyCycles, onWrong.result->latencyCycles);
    QVERIFY(leftOut > 0.05 * estimated);
    QVERIFY2(measured > estimated + 0.5 * leftOut, qPrintable(QString::number(measured - estimated)));
    ELK_COMPARE_NEAR(measured, trueEstimate, 0.05 * trueEstimate);
    QVERIFY(onWrong.result->latencyCycles >= scheduled.schedule->latencyCycles);
}

void TestSimWorkloads::stopIsHonoured()
{
    const run::RunResult& run = m_runs.at("ipu-mk2-hbm");
    const schedule::ScheduleProblem& problem = run.problemOf(run.designs.front());
    const schedule::Program program = schedule::lowerProgram(problem, *run.designs.front().schedule);
    AtomicRunControl control;
    control.requestStop();
    const sim::SimRunResult r = sim::simulate(run.spec.chip, problem, program, {}, control);
    QVERIFY(!r.ok());
    QCOMPARE(r.error, std::string("stopped"));
}

QTEST_GUILESS_MAIN(TestSimWorkloads)
#include "tst_sim_workloads.moc"
