// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The reproduced figures' layouts (panels, axes, series), following the artifact's figure scripts
// (elk-reference.md §6) but with raw values: no running minima, clamps or re-assigned breakdowns.
#include "engine/export/paper_report.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>

namespace elk::exports {

namespace {

    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    const std::vector<std::string> kDesigns = { "basic", "static", "elk-dyn", "elk-full", "ideal" };
    const std::vector<std::string> kLlms = { "llama2-13", "llama2-70", "opt-30", "gemma2" };
    const std::vector<std::string> kParts = { "overlapped", "preload only", "execute only", "rest" };

    using Metric = std::function<double(const run::PaperDesignResult&)>;
    using Filter = std::function<bool(const run::PaperPoint&)>;

    std::string number(double value)
    {
        char text[32];
        std::snprintf(text, sizeof text, "%.4g", value);
        return text;
    }

    double valueOf(const run::PaperPointResult& point, const std::string& design, const Metric& metric)
    {
        for (const run::PaperDesignResult& d : point.designs) {
            if (d.design == design && d.error.empty())
                return metric(d);
        }
        return kNaN;
    }

    std::optional<double> publishedAt(const PublishedValues& published, const std::string& pointKey,
        const std::string& design, const std::string& metric, std::string& kind)
    {
        for (const PublishedValue& value : published.values) {
            if (value.point == pointKey && value.design == design && value.metric == metric) {
                kind = value.kind;
                return value.value;
            }
        }
        return std::nullopt;
    }

    /// The paper calls the artifact's vit-huge graph "DiT-XL"; equal terms runs the bundled DiT-XL/2.
    std::string displayModel(const std::string& model, run::ReproduceMode mode)
    {
        if (model != "vit-huge")
            return model;
        return mode == run::ReproduceMode::EqualTerms ? "DiT-XL (bundled)" : "vit-huge (\"DiT-XL\")";
    }

    class ChartBuilder {
    public:
        ChartBuilder(const std::string& figure, const std::vector<run::PaperPointResult>& points,
            const PublishedValues& published)
            : m_figure(figure)
            , m_points(points)
            , m_published(published)
        {
        }

        /// A line per design over the points that pass `filter`, x from `xOf`; reference markers where
        /// the published values have `metricName` at a point.
        run::ChartPanel lines(const std::string& title, const std::string& xLabel, const std::string& yLabel,
            const Filter& filter, const std::function<double(const run::PaperPoint&)>& xOf, const Metric& metric,
            const std::string& metricName, const std::vector<std::string>& designs = kDesigns) const
        {
            run::ChartPanel panel { title, run::ChartKind::Lines, xLabel, yLabel, {}, {}, true };
            for (const std::string& design : designs) {
                run::ChartSeries ours { design, design, {}, {}, false };
                run::ChartSeries reference { design, design, {}, {}, true };
                for (const run::PaperPointResult& point : m_points) {
                    if (!filter(point.point))
                        continue;
                    ours.x.push_back(xOf(point.point));
                    ours.y.push_back(valueOf(point, design, metric));
                    std::string kind;
                    if (const auto value = publishedAt(m_published, point.point.key(), design, metricName, kind)) {
                        reference.name = kind;
                        reference.x.push_back(xOf(point.point));
                        reference.y.push_back(*value);
                    }
                }
                panel.series.push_back(std::move(ours));
                if (!reference.y.empty())
                    panel.series.push_back(std::move(reference));
            }
            return panel;
        }

        /// Grouped bars: one category per point that passes `filter` (label from `labelOf`), a bar per design;
        /// with `withMean` a last category "mean", ours over the shown points beside the paper's figure-level value.
        run::ChartPanel bars(const std::string& title, const std::string& yLabel, const Filter& filter,
            const std::function<std::string(const run::PaperPoint&)>& labelOf, const Metric& metric,
            const std::string& metricName, const std::vector<std::string>& designs = kDesigns,
            bool withMean = false) const
        {
            run::ChartPanel panel { title, run::ChartKind::GroupedBars, "", yLabel, {}, {}, true };
            std::vector<const run::PaperPointResult*> shown;
            for (const run::PaperPointResult& point : m_points) {
                if (filter(point.point)) {
                    shown.push_back(&point);
                    panel.categories.push_back(labelOf(point.point));
                }
            }
            if (withMean)
                panel.categories.push_back("mean");
            for (const std::string& design : designs) {
                run::ChartSeries ours { design, design, {}, {}, false };
                run::ChartSeries reference { design, design, {}, {}, true };
                bool anyReference = false;
                for (const run::PaperPointResult* point : shown) {
                    ours.y.push_back(valueOf(*point, design, metric));
                    std::string kind;
                    const auto value = publishedAt(m_published, point->point.key(), design, metricName, kind);
                    reference.y.push_back(value ? *value : kNaN);
                    if (value) {
                        anyReference = true;
                        reference.name = kind;
                    }
                }
                if (withMean) {
                    double sum = 0;
                    int count = 0;
                    for (const double value : ours.y) {
                        if (std::isfinite(value)) {
                            sum += value;
                            ++count;
                        }
                    }
                    ours.y.push_back(count > 0 ? sum / count : kNaN);
                    const PublishedValue* paper = publishedHeadline(m_published, m_figure, metricName, design);
                    reference.y.push_back(paper ? paper->value : kNaN);
                    if (paper) {
                        anyReference = true;
                        reference.name = paper->kind;
                    }
                }
                panel.series.push_back(std::move(ours));
                if (anyReference)
                    panel.series.push_back(std::move(reference));
            }
            return panel;
        }

        /// The figure's headline speedups and ideal fraction that the paper states: ours (Elk-Full's colour)
        /// beside the paper's; no panel when the published values have none of them.
        std::optional<run::ChartPanel> headlines() const
        {
            static const std::vector<std::pair<std::string, std::string>> shownRatios = {
                { "speedup_over_basic", "basic" },
                { "speedup_over_basic_max", "basic max" },
                { "speedup_over_static", "static" },
                { "speedup_over_static_max", "static max" },
                { "ideal_fraction", "ideal" },
            };
            run::ChartPanel panel { "elk-full speedups · ideal fraction", run::ChartKind::GroupedBars, "",
                "latency ratio", {}, {}, true };
            run::ChartSeries ours { "elk-full", "elk-full", {}, {}, false };
            run::ChartSeries reference { "paper", "elk-full", {}, {}, true };
            const std::vector<HeadlineRatio> ratios = headlineRatios(m_figure, m_points, m_published);
            bool anyPaper = false;
            for (const auto& [metric, label] : shownRatios) {
                for (const HeadlineRatio& ratio : ratios) {
                    if (ratio.metric != metric)
                        continue;
                    panel.categories.push_back(label);
                    ours.y.push_back(ratio.ours);
                    reference.y.push_back(ratio.hasPaper ? ratio.paper : kNaN);
                    anyPaper = anyPaper || ratio.hasPaper;
                }
            }
            if (!anyPaper)
                return std::nullopt;
            panel.series.push_back(std::move(ours));
            panel.series.push_back(std::move(reference));
            return panel;
        }

        /// Stacked breakdown: one category per (point, design) from `categories`.
        run::ChartPanel breakdown(const std::string& title,
            const std::vector<std::pair<std::string, std::pair<const run::PaperPointResult*, std::string>>>& categories,
            const std::string& xLabel = "") const
        {
            run::ChartPanel panel { title, run::ChartKind::StackedBars, xLabel, "time (ms)", {}, {}, true };
            const Metric parts[] = {
                [](const run::PaperDesignResult& d) { return d.overlapMs; },
                [](const run::PaperDesignResult& d) { return d.preloadOnlyMs; },
                [](const run::PaperDesignResult& d) { return d.executeOnlyMs; },
                [](const run::PaperDesignResult& d) { return d.restMs; },
            };
            for (const auto& category : categories)
                panel.categories.push_back(category.first);
            for (std::size_t part = 0; part < kParts.size(); ++part) {
                run::ChartSeries series { kParts[part], "", {}, {}, false };
                for (const auto& category : categories)
                    series.y.push_back(valueOf(*category.second.first, category.second.second, parts[part]));
                panel.series.push_back(std::move(series));
            }
            return panel;
        }

        const run::PaperPointResult* find(const Filter& filter) const
        {
            for (const run::PaperPointResult& point : m_points) {
                if (filter(point.point))
                    return &point;
            }
            return nullptr;
        }

    private:
        const std::string& m_figure;
        const std::vector<run::PaperPointResult>& m_points;
        const PublishedValues& m_published;
    };

    const Metric kLatency = [](const run::PaperDesignResult& d) { return d.latencyMs; };
    const Metric kHbm = [](const run::PaperDesignResult& d) { return d.hbmUtilization; };
    const Metric kNoc = [](const run::PaperDesignResult& d) { return d.nocUtilization; };
    const Metric kTflops = [](const run::PaperDesignResult& d) { return d.tflops; };

    std::string topology(bool mesh)
    {
        return mesh ? "mesh" : "all-to-all";
    }
    double hbmTBps(const run::PaperPoint& p)
    {
        return p.hbmGBps / 1000.0;
    }

} // namespace

run::PaperChart paperChart(const std::string& figure, run::ReproduceMode mode,
    const std::vector<run::PaperPointResult>& points, const PublishedValues& published)
{
    run::PaperChart chart;
    chart.name = figure;
    const auto known = run::paperFigure(figure);
    chart.title = (known ? "Fig. " + figure.substr(3) + " · " + known->title : figure)
        + (mode == run::ReproduceMode::EqualTerms ? " · equal terms" : " · artifact parity");
    chart.caption = std::string(mode == run::ReproduceMode::EqualTerms
                            ? "Elk Studio's pipeline and simulator on the bundled models"
                            : "Artifact parity on the artifact's model files")
        + "; raw values (no running minima or clamps).";
    const ChartBuilder build(figure, points, published);

    if (figure == "fig17") {
        chart.columns = 2;
        for (const std::string& model : kLlms) {
            chart.panels.push_back(build.bars(
                model, "per-token latency (ms)", [&](const run::PaperPoint& p) { return p.model == model; },
                [](const run::PaperPoint& p) {
                    return "b" + std::to_string(p.batch) + "\nKV " + std::to_string(p.seqLen);
                },
                kLatency, "latency_ms"));
        }
    } else if (figure == "fig18") {
        chart.columns = 4;
        for (const std::string& model : kLlms) {
            const run::PaperPointResult* point = build.find([&](const run::PaperPoint& p) { return p.model == model; });
            if (point == nullptr)
                continue;
            std::vector<std::pair<std::string, std::pair<const run::PaperPointResult*, std::string>>> categories;
            for (const std::string& design : kDesigns)
                categories.push_back({ design, { point, design } });
            chart.panels.push_back(build.breakdown("(a) breakdown · " + model, categories));
        }
        auto all = [](const run::PaperPoint&) { return true; };
        auto byModel = [](const run::PaperPoint& p) { return p.model; };
        chart.panels.push_back(
            build.bars("(b) HBM utilisation", "utilisation", all, byModel, kHbm, "hbm_utilization", kDesigns, true));
        chart.panels.push_back(
            build.bars("(c) NoC utilisation", "utilisation", all, byModel, kNoc, "noc_utilization", kDesigns, true));
        chart.panels.push_back(build.bars("(d) TFLOP/s", "TFLOP/s", all, byModel, kTflops, "tflops", kDesigns, true));
    } else if (figure == "fig19" || figure == "fig21") {
        chart.columns = 4;
        const bool noc = figure == "fig21";
        for (int mesh = 0; mesh < 2; ++mesh) {
            for (const std::string& model : kLlms) {
                chart.panels.push_back(build.lines(
                    model + " · " + topology(mesh), "HBM bandwidth (TB/s)",
                    noc ? "interconnect utilisation" : "per-token latency (ms)",
                    [&](const run::PaperPoint& p) { return p.model == model && p.mesh == bool(mesh); }, hbmTBps,
                    noc ? kNoc : kLatency, noc ? "noc_utilization" : "latency_ms"));
            }
        }
    } else if (figure == "fig20") {
        chart.columns = 3;
        for (const std::string& design : kDesigns) {
            std::vector<std::pair<std::string, std::pair<const run::PaperPointResult*, std::string>>> categories;
            for (const run::PaperPointResult& point : points)
                categories.push_back({ number(hbmTBps(point.point)), { &point, design } });
            chart.panels.push_back(build.breakdown(design, categories, "HBM bandwidth (TB/s)"));
        }
    } else if (figure == "fig22") {
        chart.columns = 4;
        for (int mesh = 0; mesh < 2; ++mesh) {
            for (double hbm : { 8000.0, 10000.0, 12000.0, 14000.0 }) {
                chart.panels.push_back(build.lines(
                    "HBM " + number(hbm / 1000) + " TB/s · " + topology(mesh), "NoC (32·x TB/s)",
                    "per-token latency (ms)",
                    [&](const run::PaperPoint& p) { return p.hbmGBps == hbm && p.mesh == bool(mesh); },
                    [](const run::PaperPoint& p) { return 32.0 * p.nocScale; }, kLatency, "latency_ms"));
            }
        }
    } else if (figure == "fig23") {
        chart.columns = 5;
        std::vector<std::string> models = kLlms;
        models.push_back("vit-huge");
        for (int mesh = 0; mesh < 2; ++mesh) {
            for (const std::string& model : models) {
                chart.panels.push_back(build.lines(
                    displayModel(model, mode) + " · " + topology(mesh), "cores", "per-token latency (ms)",
                    [&](const run::PaperPoint& p) { return p.model == model && p.mesh == bool(mesh); },
                    [](const run::PaperPoint& p) { return double(p.cores); }, kLatency, "latency_ms"));
            }
        }
    } else if (figure == "fig24") {
        chart.columns = 1;
        for (int mesh = 0; mesh < 2; ++mesh) {
            chart.panels.push_back(build.bars(
                topology(mesh), "TFLOP/s", [&](const run::PaperPoint& p) { return p.mesh == bool(mesh); },
                [](const run::PaperPoint& p) {
                    return number(p.hbmGBps) + "\nx" + number(p.nocScale) + "\ny" + number(p.computeScale);
                },
                kTflops, "tflops", { "static", "elk-full", "ideal" }));
            chart.panels.back().xLabel = "HBM bandwidth (GB/s) · NoC ×x · compute ×y";
        }
    }
    if (auto headline = build.headlines()) {
        chart.panels.push_back(std::move(*headline));
        chart.caption += " Last panel: Elk-Full's mean and largest speedup over Basic and Static and Ideal ÷ Elk-Full "
                         "latency (ours as bars, the paper's text as hollow markers).";
    }
    if ((figure == "fig18" || figure == "fig21") && mode == run::ReproduceMode::ArtifactParity)
        chart.caption += " NoC utilisation as the artifact computes it ((Σ preload NoC time + Σ comm) ÷ latency): "
                         "Ideal's preloads have a NoC of their own, so it may exceed 1.";
    // Say what the hollow markers are, when there are any.
    bool paper = false, artifact = false;
    for (const run::ChartPanel& panel : chart.panels) {
        for (const run::ChartSeries& series : panel.series) {
            paper = paper || (series.reference && series.name == "paper");
            artifact = artifact || (series.reference && series.name == "artifact");
        }
    }
    if (paper)
        chart.caption += " Hollow \"paper\" markers: values published in the paper (resources/paper; figure, page and "
                         "reading precision there).";
    if (artifact)
        chart.caption += " Hollow \"artifact\" markers: the published artifact's own runs (commit 8c6e814), in the "
                         "design's colour.";
    return chart;
}

} // namespace elk::exports
