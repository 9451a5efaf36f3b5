// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/run/paper_chart.h"
#include "engine/run/paper_figures.h"

#include <string>
#include <string_view>
#include <vector>

// What elk reproduce writes per figure: the CSV of every raw number, the headline ratios next to
// the paper's, and the chart with the published values beside ours.

namespace elk::exports {

/// One published number (resources/paper/elk-micro25-published.json, or a user's file).
struct PublishedValue {
    std::string kind; ///< "paper" (printed in the paper) or "artifact" (the artifact's own run)
    std::string figure; ///< "fig17", "abstract", or "" (a point no figure shows)
    std::string panel;
    int page = 0; ///< 0: not from the PDF
    std::string metric; ///< latency_ms, hbm_utilization, noc_utilization, tflops, or a ratio name
    std::string design;
    std::string point; ///< run::PaperPoint::key(), or "" for a headline over a figure
    double value = 0;
    bool readOffPlot = false;
    double precision = 0; ///< half-interval of the reading, in the value's unit
    std::string source;
};

struct PublishedValues {
    std::string paper;
    std::vector<PublishedValue> values;
    std::string error; ///< "FILE: line L, column C: …" or "FILE: /values/3/value: expected a number"
    bool ok() const { return error.empty(); }
};

/// The bundled file, and a user's (same schema, elk.published/1).
PublishedValues bundledPublishedValues();
PublishedValues readPublishedValues(const std::string& path);
PublishedValues parsePublishedValues(std::string_view text, const std::string& fileName);

/// One CSV row per point and design with every raw number (header included).
std::string reproduceCsv(const std::string& figure, const std::vector<run::PaperPointResult>& points);

/// One of our numbers over a figure's points, and the paper's when the published values have it.
struct PaperComparison {
    double ours = 0; ///< NaN when no point has the designs it needs
    int points = 0;
    bool hasPaper = false;
    double paper = 0;
    std::string paperSource;
};

/// A headline of a figure (folded over its headline points as its name says).
struct HeadlineRatio : PaperComparison {
    std::string name; ///< "elk-full speedup over basic (mean)", "… (max)", "ideal fraction (…)"
    std::string metric; ///< the published values' metric name: speedup_over_basic, …, ideal_fraction
};
std::vector<HeadlineRatio> headlineRatios(
    const std::string& figure, const std::vector<run::PaperPointResult>& points, const PublishedValues& published);

/// A per-design mean over a figure's headline points (the paper's Fig. 18 (b)-(d)).
struct DesignMean : PaperComparison {
    std::string design;
    std::string metric; ///< hbm_utilization, noc_utilization, tflops
};
std::vector<DesignMean> designMeans(
    const std::string& figure, const std::vector<run::PaperPointResult>& points, const PublishedValues& published);

/// The paper's figure-level number for (figure, metric, design; "" for a ratio), the figure's own entry
/// before the abstract's (which stands for Fig. 17); null when the published values lack it.
const PublishedValue* publishedHeadline(
    const PublishedValues& published, const std::string& figure, const std::string& metric, const std::string& design);

/// Which of a figure's points its headlines average over, in words.
std::string headlineScope(const std::string& figure);

/// The summary of one figure: JSON (schema elk.reproduce-summary/1) and Markdown.
std::string summaryJson(const std::string& figure, run::ReproduceMode mode,
    const std::vector<run::PaperPointResult>& points, const PublishedValues& published);
std::string summaryMarkdown(const std::string& figure, run::ReproduceMode mode,
    const std::vector<run::PaperPointResult>& points, const PublishedValues& published);

/// The figure: panels as the paper lays them out, reference markers for every published value of a
/// point and design the panel shows.
run::PaperChart paperChart(const std::string& figure, run::ReproduceMode mode,
    const std::vector<run::PaperPointResult>& points, const PublishedValues& published);

} // namespace elk::exports
