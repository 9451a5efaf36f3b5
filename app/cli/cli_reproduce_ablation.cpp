// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk reproduce ablation: where the paper's speedups come from. From artifact parity, each quirk is
// switched off alone and then cumulatively, ending at Elk Studio's equal-terms pipeline; at every step
// the Elk-Full ratios of the four LLMs at the Fig. 17 point.
#include <chrono>
#include <cmath>
#include <cstdio>

#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_reproduce.h"
#include "engine/export/csv_export.h"
#include "engine/store/reproduce.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    struct Step {
        std::string label; ///< "parity", "without hbm-mib-per-ms", "− … hbm-mib-per-ms", "equal terms"
        std::string shortLabel; ///< the chart's category: "parity", "−MiB/ms", "Σ−MiB/ms", "equal terms"
        std::string kind; ///< parity, one-at-a-time, cumulative, equal-terms
        std::string quirksOff; ///< names joined by '+'
        store::ReproduceOptions options;
    };

    struct Ratios {
        double overBasic = NAN, overStatic = NAN, idealFraction = NAN;
        double latency[5] = { NAN, NAN, NAN, NAN, NAN };
    };

    const char* const kDesigns[] = { "basic", "static", "elk-dyn", "elk-full", "ideal" };

    /// A few characters per quirk, so twelve categories fit under a bar chart.
    std::string shortName(const std::string& quirk)
    {
        if (quirk == "reload-earlier-activations")
            return "reload";
        if (quirk == "drop-gatherv2")
            return "gather";
        if (quirk == "capacity-split")
            return "split";
        if (quirk == "temporal-scramble")
            return "scramble";
        if (quirk == "hbm-mib-per-ms")
            return "MiB/ms";
        if (quirk == "per-design-constants")
            return "κθ";
        if (quirk == "chooser-undercharge")
            return "charge";
        if (quirk == "basic-preload-stretch")
            return "stretch";
        return quirk;
    }

    Ratios ratiosOf(const run::PaperPointResult& point)
    {
        Ratios r;
        for (const run::PaperDesignResult& d : point.designs) {
            for (int i = 0; i < 5; ++i) {
                if (d.design == kDesigns[i] && d.error.empty() && d.latencyMs > 0)
                    r.latency[i] = d.latencyMs;
            }
        }
        r.overBasic = r.latency[0] / r.latency[3];
        r.overStatic = r.latency[1] / r.latency[3];
        r.idealFraction = r.latency[4] / r.latency[3];
        return r;
    }

    std::string num(double value, const char* format = "%.4f")
    {
        if (!std::isfinite(value))
            return "";
        char text[32];
        std::snprintf(text, sizeof text, format, value);
        return text;
    }

} // namespace

int runAblation(const store::ReproduceOptions& base, store::ResultStore* store, const QString& outDir,
    const QString& command, Io io)
{
    std::vector<run::PaperPoint> points;
    for (const char* model : { "llama2-13", "llama2-70", "opt-30", "gemma2" }) {
        run::PaperPoint point;
        point.model = model;
        points.push_back(point);
    }
    std::vector<Step> steps;
    store::ReproduceOptions parity = base;
    parity.mode = run::ReproduceMode::ArtifactParity;
    parity.quirks = run::ParityQuirks {};
    steps.push_back({ "artifact parity", "parity", "parity", "", parity });
    for (const std::string& name : run::parityQuirkNames()) {
        store::ReproduceOptions one = parity;
        run::setParityQuirk(one.quirks, name, false);
        steps.push_back({ "without " + name, "−" + shortName(name), "one-at-a-time", name, one });
    }
    store::ReproduceOptions cumulative = parity;
    std::string off;
    for (const std::string& name : run::parityQuirkNames()) {
        run::setParityQuirk(cumulative.quirks, name, false);
        off += (off.empty() ? "" : "+") + name;
        steps.push_back({ "cumulative − " + name, "Σ−" + shortName(name), "cumulative", off, cumulative });
    }
    store::ReproduceOptions equal = base;
    equal.mode = run::ReproduceMode::EqualTerms;
    steps.push_back({ "equal terms (Elk Studio)", "equal\nterms", "equal-terms", "", equal });

    const auto start = std::chrono::steady_clock::now();
    std::string csv = "step,kind,quirks_off,model,basic_ms,static_ms,elk_dyn_ms,elk_full_ms,ideal_ms,"
                      "speedup_over_basic,speedup_over_static,ideal_fraction,error\n";
    std::string md
        = "# Ablation: where Elk-Full's speedups come from\n\nThe Fig. 17 point (batch 32, KV 2048, 5888 "
          "cores, B_hbm 16000) for the four LLMs. Ratios: basic ÷ elk-full and static ÷ elk-full latency "
          "(speedups), ideal ÷ elk-full (fraction of ideal); means over the models that have both.\n\n"
          "| step | quirks off | speedup over basic | speedup over static | ideal fraction |\n|---|---|---|---|---|\n";
    run::PaperChart chart;
    chart.name = "ablation";
    chart.title = "Ablation of the artifact's quirks: Elk-Full ratios from parity to equal terms";
    chart.caption = "Fig. 17 point (b32, KV 2048, 5888 cores, 16 TB/s). −X: quirk X off alone; Σ−X: X and every quirk "
                    "left of it off. reload: reload-earlier-activations, gather: drop-gatherv2, split: capacity-split, "
                    "scramble: temporal-scramble, MiB/ms: hbm-mib-per-ms, κθ: per-design-constants, "
                    "charge: chooser-undercharge, stretch: basic-preload-stretch. Equal terms: Elk Studio's pipeline "
                    "and simulator on the bundled models.";
    chart.columns = 1;
    const char* panelTitles[]
        = { "Elk-Full speedup over Basic", "Elk-Full speedup over Static", "fraction of Ideal (ideal ÷ elk-full)" };
    for (const char* title : panelTitles) {
        run::ChartPanel panel { title, run::ChartKind::GroupedBars, "", "ratio", {}, {}, true };
        for (const run::PaperPoint& point : points)
            panel.series.push_back({ point.model, "", {}, {}, false });
        chart.panels.push_back(std::move(panel));
    }
    for (std::size_t s = 0; s < steps.size(); ++s) {
        const Step& step = steps[s];
        io.err << command << ": step " << (s + 1) << "/" << steps.size() << ": " << QString::fromStdString(step.label)
               << "\n";
        TerminalProgress progress(io.err);
        const store::ReproduceRun run = store::reproducePoints(points, step.options, store, progress);
        double sums[3] = { 0, 0, 0 };
        int counts[3] = { 0, 0, 0 };
        for (run::ChartPanel& panel : chart.panels)
            panel.categories.push_back(step.shortLabel);
        for (std::size_t p = 0; p < run.points.size(); ++p) {
            const run::PaperPointResult& point = run.points[p];
            const Ratios r = ratiosOf(point);
            csv += step.label + "," + step.kind + "," + step.quirksOff + "," + point.point.model;
            for (double latency : r.latency)
                csv += "," + num(latency, "%.6g");
            csv += "," + num(r.overBasic) + "," + num(r.overStatic) + "," + num(r.idealFraction) + ",";
            csv += exports::csvField(point.error) + "\n";
            const double values[3] = { r.overBasic, r.overStatic, r.idealFraction };
            for (int k = 0; k < 3; ++k) {
                chart.panels[std::size_t(k)].series[p].y.push_back(values[k]);
                if (std::isfinite(values[k])) {
                    sums[k] += values[k];
                    ++counts[k];
                }
            }
        }
        md += "| " + step.label + " | " + (step.quirksOff.empty() ? "—" : step.quirksOff) + " | ";
        for (int k = 0; k < 3; ++k)
            md += (counts[k] > 0 ? num(sums[k] / counts[k], "%.3f") : "—") + (k < 2 ? " | " : " |\n");
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    md += "\n" + std::to_string(steps.size()) + " steps in " + num(seconds, "%.1f") + " s.\n";
    const QString basePath = outDir + u"/ablation"_s;
    if (!writeFile(basePath + u".csv"_s, csv, command, io) || !writeFile(basePath + u".md"_s, md, command, io))
        return int(ExitCode::InternalError);
    const QString chartError = writeChart(chart, basePath);
    if (!chartError.isEmpty())
        io.err << command << ": " << chartError << "\n";
    io.out << QString::fromStdString(md);
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
