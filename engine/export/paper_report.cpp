// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk reproduce's tables: the CSV of every raw number and the headline ratios beside the paper's.
#include "engine/export/paper_report.h"

#include "engine/export/csv_export.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace elk::exports {

namespace {

    std::string number(double value, const char* format = "%.6g")
    {
        if (!std::isfinite(value))
            return "";
        char text[40];
        std::snprintf(text, sizeof text, format, value);
        return text;
    }

    /// Ours in a table: three decimals, or three significant digits for a small share.
    std::string shown(double value)
    {
        if (!std::isfinite(value))
            return "—";
        return number(value, std::fabs(value) >= 0.1 ? "%.3f" : "%.3g");
    }

    const run::PaperDesignResult* designOf(const run::PaperPointResult& point, const std::string& design)
    {
        for (const run::PaperDesignResult& d : point.designs) {
            if (d.design == design && d.error.empty() && d.latencyMs > 0)
                return &d;
        }
        return nullptr;
    }

    using Field = double run::PaperDesignResult::*;

    /// How a headline folds its per-point numerator and denominator together.
    enum class Fold {
        MeanOfRatios, ///< arithmetic mean of numerator / denominator over the points
        MaxOfRatios, ///< the largest numerator / denominator ("up to")
        RatioOfSums, ///< Σ numerator / Σ denominator (shares of a breakdown)
        OneMinusRatioOfSums, ///< 1 − Σ numerator / Σ denominator (the share of a part removed)
    };

    struct HeadlineDef {
        const char* name;
        const char* metric; ///< the published values' metric name
        const char* numerator; ///< this design's field …
        Field numeratorField;
        const char* denominator; ///< … over this design's
        Field denominatorField;
        Fold fold;
    };

    constexpr Field kLatencyField = &run::PaperDesignResult::latencyMs;

    // Speedups are latency ratios (slower design over Elk-Full); the ideal fraction is ideal over elk-full,
    // "94.84 % of the ideal performance" in the paper's §6.2. The breakdown shares follow §6.2's Fig. 18 (a)
    // sentences; our "rest" (neither a preload nor an execution in progress) stands in for its
    // "interconnect" part (stalled by interconnect contention).
    const HeadlineDef kHeadlines[] = {
        { "elk-full speedup over basic (mean)", "speedup_over_basic", "basic", kLatencyField, "elk-full", kLatencyField,
            Fold::MeanOfRatios },
        { "elk-full speedup over basic (max)", "speedup_over_basic_max", "basic", kLatencyField, "elk-full",
            kLatencyField, Fold::MaxOfRatios },
        { "elk-full speedup over static (mean)", "speedup_over_static", "static", kLatencyField, "elk-full",
            kLatencyField, Fold::MeanOfRatios },
        { "elk-full speedup over static (max)", "speedup_over_static_max", "static", kLatencyField, "elk-full",
            kLatencyField, Fold::MaxOfRatios },
        { "elk-full speedup over elk-dyn (mean)", "speedup_over_elk_dyn", "elk-dyn", kLatencyField, "elk-full",
            kLatencyField, Fold::MeanOfRatios },
        { "ideal fraction (ideal / elk-full latency, mean)", "ideal_fraction", "ideal", kLatencyField, "elk-full",
            kLatencyField, Fold::MeanOfRatios },
        { "elk-dyn ideal fraction (ideal / elk-dyn latency, mean)", "elk_dyn_ideal_fraction", "ideal", kLatencyField,
            "elk-dyn", kLatencyField, Fold::MeanOfRatios },
        { "static overlap over basic overlap (sum / sum)", "static_overlap_over_basic", "static",
            &run::PaperDesignResult::overlapMs, "basic", &run::PaperDesignResult::overlapMs, Fold::RatioOfSums },
        { "stall (rest) removed by elk-full vs elk-dyn (1 - sum / sum)", "elk_full_stall_removed_vs_elk_dyn",
            "elk-full", &run::PaperDesignResult::restMs, "elk-dyn", &run::PaperDesignResult::restMs,
            Fold::OneMinusRatioOfSums },
        { "elk-full preload-only share of latency (sum / sum)", "elk_full_preload_only_share", "elk-full",
            &run::PaperDesignResult::preloadOnlyMs, "elk-full", kLatencyField, Fold::RatioOfSums },
    };

    /// The per-design figure means the paper states for Fig. 18 (b)–(d).
    struct MeanDef {
        const char* metric;
        Field field;
    };
    const MeanDef kMeans[] = {
        { "hbm_utilization", &run::PaperDesignResult::hbmUtilization },
        { "noc_utilization", &run::PaperDesignResult::nocUtilization },
        { "tflops", &run::PaperDesignResult::tflops },
    };
    const char* const kDesignNames[] = { "basic", "static", "elk-dyn", "elk-full", "ideal" };

    /// The points a figure's headlines average over: Fig. 23's speedups are the LLMs' (§6.4 (3) turns to
    /// DiT-XL only after them); every other figure, all its points.
    std::vector<const run::PaperPointResult*> headlinePoints(
        const std::string& figure, const std::vector<run::PaperPointResult>& points)
    {
        std::vector<const run::PaperPointResult*> chosen;
        for (const run::PaperPointResult& point : points) {
            if (figure != "fig23" || point.point.model != "vit-huge")
                chosen.push_back(&point);
        }
        return chosen;
    }

    void takePaper(PaperComparison& comparison, const PublishedValue* value)
    {
        if (value == nullptr)
            return;
        comparison.hasPaper = true;
        comparison.paper = value->value;
        comparison.paperSource = (value->figure == "abstract" ? "abstract" : value->figure + value->panel) + ", page "
            + std::to_string(value->page)
            + (value->readOffPlot ? ", read off the plot ±" + number(value->precision) : "") + ": " + value->source;
    }

    /// A comparison's JSON row fields (after the row's own name fields).
    void writeComparison(nlohmann::ordered_json& row, const PaperComparison& comparison)
    {
        row["ours"]
            = std::isfinite(comparison.ours) ? nlohmann::ordered_json(comparison.ours) : nlohmann::ordered_json();
        row["points"] = comparison.points;
        row["paper"] = comparison.hasPaper ? nlohmann::ordered_json(comparison.paper) : nlohmann::ordered_json();
        row["paper_source"] = comparison.hasPaper ? comparison.paperSource : "not in the published values";
    }

} // namespace

const PublishedValue* publishedHeadline(
    const PublishedValues& published, const std::string& figure, const std::string& metric, const std::string& design)
{
    // The figure's own number first; the abstract's stands for Fig. 17, the main evaluation.
    const PublishedValue* abstract = nullptr;
    for (const PublishedValue& value : published.values) {
        if (value.kind != "paper" || !value.point.empty() || value.metric != metric || value.design != design)
            continue;
        if (value.figure == figure)
            return &value;
        if (value.figure == "abstract" && figure == "fig17" && abstract == nullptr)
            abstract = &value;
    }
    return abstract;
}

std::string headlineScope(const std::string& figure)
{
    return figure == "fig23" ? "the LLMs' points (DiT-XL is drawn but not averaged, as in the paper's §6.4 (3))"
                             : "all the figure's points";
}

namespace {

    std::string topologyOf(const run::PaperPoint& point)
    {
        return point.mesh ? "mesh" : "all-to-all";
    }

    int failedPoints(const std::vector<run::PaperPointResult>& points)
    {
        return int(std::count_if(points.begin(), points.end(), [](const auto& point) { return !point.error.empty(); }));
    }

    /// A published latency at one of the figure's points, with ours (null when that design failed).
    struct PublishedLatency {
        const PublishedValue* published = nullptr;
        const run::PaperDesignResult* ours = nullptr;
    };

    std::vector<PublishedLatency> publishedLatencies(
        const std::vector<run::PaperPointResult>& points, const PublishedValues& published)
    {
        std::map<std::string, const run::PaperPointResult*> byKey;
        for (const run::PaperPointResult& point : points)
            byKey.emplace(point.point.key(), &point);
        std::vector<PublishedLatency> found;
        for (const PublishedValue& value : published.values) {
            const auto it = byKey.find(value.point);
            if (!value.point.empty() && it != byKey.end() && value.metric == "latency_ms")
                found.push_back({ &value, designOf(*it->second, value.design) });
        }
        return found;
    }

} // namespace

std::string reproduceCsv(const std::string& figure, const std::vector<run::PaperPointResult>& points)
{
    std::string csv = "figure,model,batch,seq,training,cores,hbm_gbps,topology,mesh_ratio,noc_scale,compute_scale,"
                      "design,latency_ms,overlap_ms,preload_only_ms,execute_only_ms,rest_ms,hbm_utilization,"
                      "noc_utilization,tflops,from_cache,error\n";
    for (const run::PaperPointResult& result : points) {
        const run::PaperPoint& p = result.point;
        const std::string prefix = figure + "," + p.model + "," + std::to_string(p.batch) + ","
            + std::to_string(p.seqLen) + "," + (p.training ? "1" : "0") + "," + std::to_string(p.cores) + ","
            + number(p.hbmGBps, "%.12g") + "," + topologyOf(p) + "," + number(p.mesh ? p.meshRatio : 0, "%.12g") + ","
            + number(p.nocScale, "%.12g") + "," + number(p.computeScale, "%.12g") + ",";
        if (result.designs.empty()) {
            csv += prefix + ",,,,,,,,,";
            csv += std::string(result.fromCache ? "1" : "0") + "," + csvField(result.error) + "\n";
            continue;
        }
        for (const run::PaperDesignResult& d : result.designs) {
            csv += prefix + d.design + ",";
            if (d.error.empty()) {
                csv += number(d.latencyMs, "%.9g") + "," + number(d.overlapMs, "%.9g") + ","
                    + number(d.preloadOnlyMs, "%.9g") + "," + number(d.executeOnlyMs, "%.9g") + ","
                    + number(d.restMs, "%.9g") + "," + number(d.hbmUtilization) + "," + number(d.nocUtilization) + ","
                    + number(d.tflops) + ",";
            } else {
                csv += ",,,,,,,,";
            }
            const std::string& error = d.error.empty() ? result.error : d.error;
            csv += std::string(result.fromCache ? "1" : "0") + "," + csvField(error) + "\n";
        }
    }
    return csv;
}

std::vector<HeadlineRatio> headlineRatios(
    const std::string& figure, const std::vector<run::PaperPointResult>& points, const PublishedValues& published)
{
    const std::vector<const run::PaperPointResult*> scope = headlinePoints(figure, points);
    std::vector<HeadlineRatio> ratios;
    for (const HeadlineDef& def : kHeadlines) {
        HeadlineRatio ratio;
        ratio.name = def.name;
        ratio.metric = def.metric;
        double sum = 0, top = 0, bottom = 0, largest = -std::numeric_limits<double>::infinity();
        for (const run::PaperPointResult* point : scope) {
            const auto* up = designOf(*point, def.numerator);
            const auto* down = designOf(*point, def.denominator);
            if (up == nullptr || down == nullptr)
                continue;
            const double numerator = (*up).*def.numeratorField, denominator = (*down).*def.denominatorField;
            top += numerator;
            bottom += denominator;
            if (denominator > 0) {
                sum += numerator / denominator;
                largest = std::max(largest, numerator / denominator);
            }
            ++ratio.points;
        }
        ratio.ours = std::nan("");
        if (ratio.points > 0) {
            switch (def.fold) {
            case Fold::MeanOfRatios:
                ratio.ours = sum / ratio.points;
                break;
            case Fold::MaxOfRatios:
                ratio.ours = largest;
                break;
            case Fold::RatioOfSums:
                ratio.ours = bottom > 0 ? top / bottom : std::nan("");
                break;
            case Fold::OneMinusRatioOfSums:
                ratio.ours = bottom > 0 ? 1 - top / bottom : std::nan("");
                break;
            }
        }
        takePaper(ratio, publishedHeadline(published, figure, def.metric, ""));
        ratios.push_back(std::move(ratio));
    }
    return ratios;
}

std::vector<DesignMean> designMeans(
    const std::string& figure, const std::vector<run::PaperPointResult>& points, const PublishedValues& published)
{
    const std::vector<const run::PaperPointResult*> scope = headlinePoints(figure, points);
    std::vector<DesignMean> means;
    for (const char* design : kDesignNames) {
        for (const MeanDef& def : kMeans) {
            DesignMean mean;
            mean.design = design;
            mean.metric = def.metric;
            double sum = 0;
            for (const run::PaperPointResult* point : scope) {
                if (const auto* d = designOf(*point, design)) {
                    sum += (*d).*def.field;
                    ++mean.points;
                }
            }
            mean.ours = mean.points > 0 ? sum / mean.points : std::nan("");
            takePaper(mean, publishedHeadline(published, figure, def.metric, design));
            means.push_back(std::move(mean));
        }
    }
    return means;
}

std::string summaryJson(const std::string& figure, run::ReproduceMode mode,
    const std::vector<run::PaperPointResult>& points, const PublishedValues& published)
{
    nlohmann::ordered_json root;
    root["schema"] = "elk.reproduce-summary/1";
    root["figure"] = figure;
    root["mode"] = run::toString(mode);
    if (const auto known = run::paperFigure(figure))
        root["title"] = known->title;
    root["points"] = points.size();
    root["points_failed"] = failedPoints(points);
    auto& ratios = root["headline_ratios"];
    ratios = nlohmann::ordered_json::array();
    for (const HeadlineRatio& ratio : headlineRatios(figure, points, published)) {
        nlohmann::ordered_json row;
        row["name"] = ratio.name;
        row["metric"] = ratio.metric;
        writeComparison(row, ratio);
        ratios.push_back(std::move(row));
    }
    root["headline_points"] = headlineScope(figure);
    auto& means = root["design_means"];
    means = nlohmann::ordered_json::array();
    for (const DesignMean& mean : designMeans(figure, points, published)) {
        nlohmann::ordered_json row;
        row["design"] = mean.design;
        row["metric"] = mean.metric;
        writeComparison(row, mean);
        means.push_back(std::move(row));
    }
    auto& compared = root["published_points"];
    compared = nlohmann::ordered_json::array();
    for (const auto& [entry, ours] : publishedLatencies(points, published)) {
        const PublishedValue& value = *entry;
        compared.push_back({ { "point", value.point }, { "design", value.design }, { "kind", value.kind },
            { "published_latency_ms", value.value },
            { "our_latency_ms", ours ? nlohmann::ordered_json(ours->latencyMs) : nlohmann::ordered_json() },
            { "relative_difference",
                ours ? nlohmann::ordered_json(ours->latencyMs / value.value - 1) : nlohmann::ordered_json() },
            { "source", value.source } });
    }
    return root.dump(2) + "\n";
}

std::string summaryMarkdown(const std::string& figure, run::ReproduceMode mode,
    const std::vector<run::PaperPointResult>& points, const PublishedValues& published)
{
    const auto known = run::paperFigure(figure);
    std::string md = "# " + figure + (known ? ": " + known->title : std::string()) + "\n\n";
    const int failed = failedPoints(points);
    md += "Mode: " + std::string(run::toString(mode)) + ". Points: " + std::to_string(points.size());
    md += failed > 0 ? " (" + std::to_string(failed) + " without a result; see the CSV's error column)" : std::string();
    md += ". Headlines over " + headlineScope(figure)
        + " where both designs have a result; how each folds "
          "the points is in its name.\n\n";
    md += "| headline | ours | points | paper | paper's source |\n|---|---|---|---|---|\n";
    for (const HeadlineRatio& ratio : headlineRatios(figure, points, published)) {
        md += "| " + ratio.name + " | " + shown(ratio.ours) + " | " + std::to_string(ratio.points) + " | "
            + (ratio.hasPaper ? number(ratio.paper, "%.4g") : "—") + " | "
            + (ratio.hasPaper ? ratio.paperSource : "not in the published values") + " |\n";
    }
    // Per-design means (Fig. 18 (b)-(d) in the paper), sources once each below the table.
    md += "\nPer-design means over the same points (ours / paper):\n\n"
          "| design | HBM utilisation | NoC utilisation | TFLOP/s |\n|---|---|---|---|\n";
    std::vector<std::string> sources;
    const std::vector<DesignMean> means = designMeans(figure, points, published);
    for (std::size_t i = 0; i + 2 < means.size(); i += 3) {
        md += "| " + means[i].design;
        for (std::size_t m = i; m < i + 3; ++m) {
            md += " | " + shown(means[m].ours) + " / " + (means[m].hasPaper ? number(means[m].paper, "%.4g") : "—");
            if (means[m].hasPaper && std::find(sources.begin(), sources.end(), means[m].paperSource) == sources.end())
                sources.push_back(means[m].paperSource);
        }
        md += " |\n";
    }
    for (const std::string& source : sources)
        md += "\n- paper: " + source;
    if (!sources.empty())
        md += "\n";
    std::string rows;
    for (const auto& [entry, ours] : publishedLatencies(points, published)) {
        const PublishedValue& value = *entry;
        rows += "| " + value.point + " | " + value.design + " | " + value.kind + " | " + number(value.value, "%.4g")
            + " | " + (ours ? number(ours->latencyMs, "%.4g") : "—") + " | "
            + (ours ? number(100 * (ours->latencyMs / value.value - 1), "%+.1f") + " %" : "—") + " |\n";
    }
    if (!rows.empty()) {
        md += "\nPublished latencies at our points:\n\n| point | design | kind | published ms | ours ms | difference "
              "|\n"
              "|---|---|---|---|---|---|\n"
            + rows;
    }
    return md;
}

} // namespace elk::exports
