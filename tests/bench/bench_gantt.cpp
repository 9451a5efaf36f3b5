// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// How fast the Gantt timeline pans (issue 6 target: ≥ 30 fps with 4,000 ops). Builds a timeline of
// --ops synthetic steps (or a real run with --model/--chip), then renders --frames pans at 1600 × 400
// pixels, zoomed out (every op visible: sub-pixel bars merge) and zoomed to 10 % of the run, both
// through QCustomPlot::toPixmap and through a replot of the shown widget; prints the median frame
// time and frames per second. With --export DIR it also writes PNGs of the Gantt, bandwidth and link
// heatmap views of the run (to look at).
//   bench_gantt [--ops N] [--frames N] [--model NAME --chip C [--batch B] [--kv K] [--design D]
//               [--set FIELD=VALUE]...] [--export DIR]
#include "widgets/plots/qcp.h" // first: see qcp.h

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QPixmap>

#include "engine/chip/presets.h"
#include "engine/core/run_control.h"
#include "engine/run/run_compile.h"
#include "widgets/timeline/bandwidth_view.h"
#include "widgets/timeline/gantt_view.h"
#include "widgets/timeline/link_heatmap_view.h"
#include "widgets/timeline/timeline_sync.h"

using namespace elk;
using namespace elk::widgets;

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

/// A decode-like timeline: preloads back to back, each execution after its preload and the previous
/// execution, phase lengths varying with a fixed pseudo-random sequence (deterministic).
std::shared_ptr<const run::RunResult> syntheticRun(int ops)
{
    auto result = std::make_shared<run::RunResult>();
    result->spec.chip = *chip::findBuiltinPreset("ipu-pod4-hbm");
    run::DesignRun design;
    design.design = schedule::Design::ElkFull;
    sim::SimResult sim;
    sim.clockHz = result->spec.chip.clockHz;
    unsigned state = 12345;
    const auto next = [&state] {
        state = state * 1103515245u + 12345u;
        return double((state >> 8) % 1000) / 1000.0;
    };
    double preloadEnd = 0, executeEnd = 0;
    for (int i = 0; i < ops; ++i) {
        sim::StepTrace step;
        const double preload = i % 3 == 0 ? 0 : 500 + 20000 * next();
        step.preload = { preloadEnd, preloadEnd + preload };
        preloadEnd += preload;
        const double start = std::max(step.preload.endCycles, executeEnd);
        const double warmup = 200 * next(), compute = 300 + 8000 * next(), comm = 1500 * next();
        step.execute = { start, start + warmup + compute + comm };
        step.warmup = { start, start + warmup };
        step.compute = { start + warmup, start + warmup + compute };
        step.shift = { start + warmup + compute, start + warmup + compute + comm };
        step.reduce = { step.shift.endCycles, step.shift.endCycles };
        step.executeStallCycles = next() < 0.3 ? comm * 0.5 : 0;
        step.waitedFor = i == 0 ? "" : start > executeEnd ? "preload" : "execute";
        executeEnd = step.execute.endCycles;
        sim.steps.push_back(step);
        sim.stepNames.push_back("layer" + std::to_string(i / 45) + ".op" + std::to_string(i % 45));
    }
    sim.latencyCycles = executeEnd;
    design.simulated = std::move(sim);
    result->designs.push_back(std::move(design));
    return result;
}

std::shared_ptr<const run::RunResult> realRun(const std::string& model, const std::string& chip, std::int64_t batch,
    std::int64_t kv, const std::string& design, const std::vector<std::string>& overrides)
{
    run::RunRequest request;
    request.chipOverrides = overrides;
    request.modelPath = model;
    request.chip = chip;
    request.batch = batch;
    request.kvLen = kv;
    if (!design.empty())
        request.designs = { design };
    const run::RunSpecResult spec = run::resolveRunSpec(request);
    if (!spec.ok()) {
        std::fprintf(stderr, "%s: %s\n", spec.errors.front().field.c_str(), spec.errors.front().message.c_str());
        return nullptr;
    }
    NullRunControl control;
    auto result = std::make_shared<run::RunResult>(run::executeRun(spec.spec, control));
    if (!result->ok()) {
        for (const std::string& error : result->errors)
            std::fprintf(stderr, "%s\n", error.c_str());
        return nullptr;
    }
    return result;
}

struct FrameStats {
    double medianMs = 0;
    double fps = 0;
};

/// Pans back and forth by 5 % of the span per frame; `render` draws one frame.
template <typename Render> FrameStats panFrames(GanttView& view, int frames, Render render)
{
    std::vector<double> ms;
    double direction = 0.05;
    for (int i = 0; i < frames; ++i) {
        const double before = view.lowerCycles();
        view.panBy(direction);
        if (view.lowerCycles() == before) { // hit an end: turn round
            direction = -direction;
            view.panBy(direction);
        }
        const auto begin = std::chrono::steady_clock::now();
        render();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count());
    }
    const double m = median(ms);
    return { m, 1000.0 / m };
}

int exportViews(const std::shared_ptr<const run::RunResult>& run, const QString& dir, int design)
{
    QDir().mkpath(dir);
    GanttView gantt;
    BandwidthView bandwidth;
    LinkHeatmapView heatmap;
    gantt.resize(1400, 420);
    bandwidth.resize(1400, 520);
    heatmap.resize(1100, 900);
    for (PlotView* view :
        { static_cast<PlotView*>(&gantt), static_cast<PlotView*>(&bandwidth), static_cast<PlotView*>(&heatmap) }) {
        view->setRun(run);
        view->setDesignIndex(design);
        view->show();
    }
    shareTimeAxis(&gantt, &bandwidth);
    const auto save = [&](PlotView& view, const QString& name, const FigureStyle& style) {
        const QString error = view.exportFigure(dir + QLatin1Char('/') + name, style);
        if (!error.isEmpty())
            std::fprintf(stderr, "%s\n", qPrintable(error));
        view.plot()->savePng(dir + QStringLiteral("/screen-") + name, view.plot()->width(), view.plot()->height());
    };
    // Pick the op with the longest execution to show selected.
    int step = 0;
    double longest = 0;
    for (const GanttOp& op : gantt.data().ops) {
        if (op.executeEnd - op.executeStart > longest) {
            longest = op.executeEnd - op.executeStart;
            step = op.step;
        }
    }
    save(gantt, QStringLiteral("gantt.png"), FigureStyle::wide());
    save(bandwidth, QStringLiteral("bandwidth.png"), FigureStyle::wide());
    save(heatmap, QStringLiteral("heatmap-average.png"), FigureStyle::column());
    gantt.setSelectedStep(step);
    bandwidth.setSelectedStep(step);
    heatmap.setSelectedStep(step);
    const GanttOp& op = gantt.data().ops[std::size_t(step)];
    const double span = std::max(op.executeEnd - op.executeStart, op.preloadEnd - op.preloadStart) * 12;
    gantt.setTimeRange(op.executeStart - span / 2, op.executeStart + span / 2);
    save(gantt, QStringLiteral("gantt-zoom.png"), FigureStyle::wide());
    save(bandwidth, QStringLiteral("bandwidth-zoom.png"), FigureStyle::wide());
    save(heatmap, QStringLiteral("heatmap-bin.png"), FigureStyle::column());
    int busiest = -1;
    double most = -1;
    for (std::size_t link = 0; link < heatmap.mapLayout().shapeOfLink.size(); ++link) {
        if (heatmap.shownUtilization(int(link)) > most) {
            most = heatmap.shownUtilization(int(link));
            busiest = int(link);
        }
    }
    heatmap.selectLink(busiest);
    heatmap.plot()->replot(); // no event loop runs here: flush the queued replots before grabbing
    heatmap.timePlot()->replot();
    heatmap.grab().save(dir + QStringLiteral("/screen-heatmap-widget.png"));
    std::printf("wrote PNGs of design %d to %s (selected step %d, link %d)\n", design, qPrintable(dir), step, busiest);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int ops = 4000, frames = 60, design = -1;
    std::string model, chipName, designName, exportDir;
    std::vector<std::string> overrides;
    std::int64_t batch = 32, kv = 2048;
    for (int i = 1; i < argc; ++i) {
        const auto value = [&](const char* flag) { return std::strcmp(argv[i], flag) == 0 && i + 1 < argc; };
        if (value("--ops"))
            ops = std::atoi(argv[++i]);
        else if (value("--frames"))
            frames = std::atoi(argv[++i]);
        else if (value("--model"))
            model = argv[++i];
        else if (value("--chip"))
            chipName = argv[++i];
        else if (value("--batch"))
            batch = std::atoll(argv[++i]);
        else if (value("--kv"))
            kv = std::atoll(argv[++i]);
        else if (value("--design"))
            designName = argv[++i];
        else if (value("--design-index"))
            design = std::atoi(argv[++i]);
        else if (value("--set"))
            overrides.push_back(argv[++i]);
        else if (value("--export"))
            exportDir = argv[++i];
        else {
            std::fprintf(stderr,
                "usage: bench_gantt [--ops N] [--frames N] [--model NAME --chip C [--batch B] [--kv K] [--design D] "
                "[--set FIELD=VALUE]...] [--export DIR]\n");
            return 2;
        }
    }
    const auto begin = std::chrono::steady_clock::now();
    std::shared_ptr<const run::RunResult> run;
    if (!model.empty())
        run = realRun(model, chipName.empty() ? "ipu-pod4-hbm" : chipName, batch, kv, designName, overrides);
    else
        run = syntheticRun(ops);
    if (!run)
        return 1;
    const double setupSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (design < 0)
        design = int(run->designs.size()) - 1 >= 3 ? 3 : 0; // elk-full of a full run
    if (!exportDir.empty())
        return exportViews(run, QString::fromStdString(exportDir), design);

    GanttView view;
    view.resize(1600, 400);
    view.setRun(run);
    view.setDesignIndex(design);
    view.show();
    QCustomPlot* plot = view.plot();
    plot->replot();
    const GanttData& data = view.data();
    std::printf("%zu ops (%zu preloads, %zu executions), latency %.3f ms, %s; setup %.2f s\n", data.ops.size(),
        data.preloadLane.size(), data.executeLane.size(), data.latencyCycles / data.clockHz * 1e3,
        model.empty() ? "synthetic" : model.c_str(), setupSeconds);
    const auto toPixmap = [&] { (void)plot->toPixmap(1600, 400); };
    const auto replot = [&] { plot->replot(QCustomPlot::rpImmediateRefresh); };
    view.resetTimeRange();
    const FrameStats allPixmap = panFrames(view, frames, toPixmap);
    view.zoomBy(1.5); // pans need room to move
    const FrameStats mostPixmap = panFrames(view, frames, toPixmap);
    const FrameStats mostReplot = panFrames(view, frames, replot);
    view.resetTimeRange();
    view.zoomBy(10);
    const FrameStats tenthPixmap = panFrames(view, frames, toPixmap);
    const FrameStats tenthReplot = panFrames(view, frames, replot);
    // The frames above must have drawn the bars: count non-white pixels of one more frame.
    const QImage frame = plot->toPixmap(1600, 400).toImage();
    long long inked = 0;
    for (int y = 0; y < frame.height(); ++y)
        for (int x = 0; x < frame.width(); ++x)
            inked += frame.pixel(x, y) != qRgb(255, 255, 255) ? 1 : 0;
    std::printf("pan at 1600 x 400, median of %d frames (last frame %.0f %% inked):\n", frames,
        100.0 * double(inked) / (1600.0 * 400.0));
    std::printf("  whole run        toPixmap %6.2f ms  %6.0f fps\n", allPixmap.medianMs, allPixmap.fps);
    std::printf("  2/3 of the run   toPixmap %6.2f ms  %6.0f fps | replot %6.2f ms  %6.0f fps\n", mostPixmap.medianMs,
        mostPixmap.fps, mostReplot.medianMs, mostReplot.fps);
    std::printf("  1/10 of the run  toPixmap %6.2f ms  %6.0f fps | replot %6.2f ms  %6.0f fps\n", tenthPixmap.medianMs,
        tenthPixmap.fps, tenthReplot.medianMs, tenthReplot.fps);
    return 0;
}
