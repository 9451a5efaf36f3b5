// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk reproduce's tables: the CSV of every raw number and the headline ratios beside the paper's.
#include "engine/export/paper_report.h"

#include "engine/export/csv_export.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
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

    const run::PaperDesignResult* designOf(const run::PaperPointResult& point, const std::string& design)
    {
        for (const run::PaperDesignResult& d : point.designs) {
            if (d.design == design && d.error.empty() && d.latencyMs > 0)
                return &d;
        }
        return nullptr;
    }

    struct RatioDef {
        const char* name;
        const char* metric;
        const char* numerator; ///< latency of this design …
        const char* denominator; ///< … over this one's
    };

    // Speedups are latency ratios (slower design over Elk-Full); the ideal fraction is ideal over elk-full,
    // "94 % of the ideal roofline" in the paper's abstract.
    const RatioDef kRatios[] = {
        { "elk-full speedup over basic", "speedup_over_basic", "basic", "elk-full" },
        { "elk-full speedup over static", "speedup_over_static", "static", "elk-full" },
        { "elk-full speedup over elk-dyn", "speedup_over_elk_dyn", "elk-dyn", "elk-full" },
        { "ideal fraction (ideal / elk-full latency)", "ideal_fraction", "ideal", "elk-full" },
        { "elk-dyn ideal fraction (ideal / elk-dyn latency)", "elk_dyn_ideal_fraction", "ideal", "elk-dyn" },
    };

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
    std::vector<HeadlineRatio> ratios;
    for (const RatioDef& def : kRatios) {
        HeadlineRatio ratio;
        ratio.name = def.name;
        ratio.metric = def.metric;
        double sum = 0;
        for (const run::PaperPointResult& point : points) {
            const auto* top = designOf(point, def.numerator);
            const auto* bottom = designOf(point, def.denominator);
            if (top == nullptr || bottom == nullptr)
                continue;
            sum += top->latencyMs / bottom->latencyMs;
            ++ratio.points;
        }
        ratio.ours = ratio.points > 0 ? sum / ratio.points : std::nan("");
        for (const PublishedValue& value : published.values) {
            // A headline of this figure, or the abstract's (compared with Fig. 17, the main evaluation).
            const bool mine = value.figure == figure || (value.figure == "abstract" && figure == "fig17");
            if (value.kind == "paper" && mine && value.point.empty() && value.metric == def.metric) {
                ratio.hasPaper = true;
                ratio.paper = value.value;
                ratio.paperSource = (value.figure == "abstract" ? "abstract" : value.figure + value.panel) + ", page "
                    + std::to_string(value.page)
                    + (value.readOffPlot ? ", read off the plot ±" + number(value.precision) : "") + ": "
                    + value.source;
            }
        }
        ratios.push_back(std::move(ratio));
    }
    return ratios;
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
        row["ours"] = std::isfinite(ratio.ours) ? nlohmann::ordered_json(ratio.ours) : nlohmann::ordered_json();
        row["points"] = ratio.points;
        row["paper"] = ratio.hasPaper ? nlohmann::ordered_json(ratio.paper) : nlohmann::ordered_json();
        row["paper_source"] = ratio.hasPaper ? ratio.paperSource : "not in the published values";
        ratios.push_back(std::move(row));
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
    md += ". Ratios are arithmetic means over the points where both designs have a latency.\n\n";
    md += "| headline | ours | points | paper | paper's source |\n|---|---|---|---|---|\n";
    for (const HeadlineRatio& ratio : headlineRatios(figure, points, published)) {
        md += "| " + ratio.name + " | " + (std::isfinite(ratio.ours) ? number(ratio.ours, "%.3f") : "—") + " | "
            + std::to_string(ratio.points) + " | " + (ratio.hasPaper ? number(ratio.paper, "%.3g") : "—") + " | "
            + (ratio.hasPaper ? ratio.paperSource : "not in the published values") + " |\n";
    }
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
