// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk reproduce's engine parts without ../shared: the experiment matrix of elk-reference §6, the
// point → run mapping, the published-values reader, the CSV, headline ratios and chart layout, and
// an equal-terms run of Fig. 18's points through a result cache (a second run is served from it,
// bit-identical).
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>
#include <set>

#include "engine/export/paper_report.h"
#include "engine/run/paper_figures.h"
#include "engine/store/reproduce.h"
#include "engine/store/result_store.h"

using namespace elk;

namespace {

run::PaperPointResult syntheticPoint(const run::PaperPoint& point, std::vector<double> latencies)
{
    run::PaperPointResult result;
    result.point = point;
    const char* designs[] = { "basic", "static", "elk-dyn", "elk-full", "ideal" };
    for (std::size_t d = 0; d < latencies.size(); ++d) {
        run::PaperDesignResult row;
        row.design = designs[d];
        row.latencyMs = latencies[d];
        row.overlapMs = latencies[d] / 2;
        row.executeOnlyMs = latencies[d] / 2;
        result.designs.push_back(row);
    }
    return result;
}

} // namespace

class TestPaperReproduce : public QObject {
    Q_OBJECT

private slots:
    void matrix_data()
    {
        QTest::addColumn<QString>("figure");
        QTest::addColumn<int>("points");
        // elk-reference §6: 4 LLMs × 3 batches × 2 KV lengths; the b32 s2048 runs; 4 × 13 B_hbm × 2
        // topologies; 11 B_hbm; 4 × 17 × 2; 4 B_hbm × 4 x × 2; (4 × 5 + 6) × 2; 2 × 2 × 4 × 2.
        QTest::newRow("fig17") << u"fig17"_qs << 24;
        QTest::newRow("fig18") << u"fig18"_qs << 4;
        QTest::newRow("fig19") << u"fig19"_qs << 104;
        QTest::newRow("fig20") << u"fig20"_qs << 11;
        QTest::newRow("fig21") << u"fig21"_qs << 136;
        QTest::newRow("fig22") << u"fig22"_qs << 32;
        QTest::newRow("fig23") << u"fig23"_qs << 52;
        QTest::newRow("fig24") << u"fig24"_qs << 32;
    }

    void matrix()
    {
        QFETCH(QString, figure);
        QFETCH(int, points);
        const auto known = run::paperFigure(figure.toStdString());
        QVERIFY(known.has_value());
        QCOMPARE(int(known->points.size()), points);
        std::set<std::string> keys;
        for (const run::PaperPoint& point : known->points)
            keys.insert(point.key());
        QCOMPARE(int(keys.size()), points); // every point distinct
        // Each point resolves on equal terms (bundled model, the POD4 presets with its overrides).
        const run::PaperPoint& first = known->points.front();
        const run::RunSpecResult spec = run::resolveRunSpec(run::equalTermsRequest(first));
        QVERIFY2(spec.ok(), spec.ok() ? "" : (spec.errors.front().field + ": " + spec.errors.front().message).c_str());
        QCOMPARE(spec.spec.chip.totalCores(), first.cores);
        QCOMPARE(spec.spec.chip.totalHbmBandwidthGBps(), first.hbmGBps);
    }

    void pointDetails()
    {
        // Fig. 23's mesh points: r = sqrt(5888 / C); B_hbm = int(C · 4000 / 1472); a most-square mesh per chip.
        const auto fig23 = run::paperFigure("fig23");
        const run::PaperPoint* mesh2208 = nullptr;
        for (const run::PaperPoint& point : fig23->points) {
            if (point.model == "llama2-13" && point.mesh && point.cores == 2208)
                mesh2208 = &point;
        }
        QVERIFY(mesh2208 != nullptr);
        QCOMPARE(mesh2208->hbmGBps, 6000.0);
        QVERIFY(std::abs(mesh2208->meshRatio - std::sqrt(5888.0 / 2208.0)) < 1e-12);
        const run::RunSpecResult spec = run::resolveRunSpec(run::equalTermsRequest(*mesh2208));
        QVERIFY(spec.ok());
        QCOMPARE(spec.spec.chip.interconnect.topology, chip::Topology::Mesh2d);
        QCOMPARE(std::int64_t(spec.spec.chip.interconnect.meshWidth) * spec.spec.chip.interconnect.meshHeight, 552);
        // Fig. 24: the artifact's "training" is a prefill forward pass (b2, s2048); parity runs --training.
        const run::PaperPoint train = run::paperFigure("fig24")->points.front();
        QVERIFY(train.training);
        QCOMPARE(run::equalTermsRequest(train).phase, run::Phase::Prefill);
        QCOMPARE(run::parityRequest(train, "/x").phase, run::Phase::Train);
        QCOMPARE(run::parityRequest(train, "/x").modelPath, std::string("/x/llama2-13.json"));
        // Parity keeps the artifact's chip: 5.5 GB/s and 1.325 GHz whatever x and y are.
        const run::RunSpecResult paritySpec = run::resolveRunSpec(run::parityRequest(train, "/x"));
        QVERIFY(!paritySpec.ok()); // no such model file: the error names it
        QVERIFY(paritySpec.errors.front().message.find("/x/llama2-13.json") != std::string::npos
            || paritySpec.errors.front().field.find("model") != std::string::npos);
        QCOMPARE(run::bundledModelFor("vit-huge"), std::string("dit-xl"));
        QVERIFY(!run::paperFigure("fig16").has_value());
    }

    void publishedValues_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error"); // "" = parses
        const QString entry
            = uR"({"kind":"paper","figure":"fig17","panel":"a","page":10,"metric":"latency_ms",)"
              uR"("design":"basic","point":"p","value":12.5,"read_off_plot":true,"precision":0.25,"source":"Fig. 17a"})"_qs;
        QTest::newRow("ok") << uR"({"schema":"elk.published/1","values":[)"_qs + entry + u"]}"_qs << QString();
        QTest::newRow("syntax") << u"{\"schema\":\n  \"elk.published/1\",,}"_qs << u"f.json: line 2"_qs;
        QTest::newRow("schema") << uR"({"schema":"other","values":[]})"_qs << u"/schema"_qs;
        QTest::newRow("no page") << uR"({"schema":"elk.published/1","values":[)"_qs
                + QString(entry).replace(u"\"page\":10,"_qs, QString())
                + u"]}"_qs << u"/values/0/page: a paper value needs the page"_qs;
        QTest::newRow("no precision") << uR"({"schema":"elk.published/1","values":[)"_qs
                + QString(entry).replace(u"\"precision\":0.25,"_qs, QString())
                + u"]}"_qs << u"/values/0/precision"_qs;
        QTest::newRow("bad value") << uR"({"schema":"elk.published/1","values":[)"_qs
                + QString(entry).replace(u"12.5"_qs, u"\"12.5\""_qs)
                + u"]}"_qs << u"/values/0/value: expected a number"_qs;
        QTest::newRow("bad kind") << uR"({"schema":"elk.published/1","values":[)"_qs
                + QString(entry).replace(u"\"paper\""_qs, u"\"guess\""_qs)
                + u"]}"_qs << u"/values/0/kind"_qs;
    }

    void publishedValues()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const exports::PublishedValues values = exports::parsePublishedValues(text.toStdString(), "f.json");
        if (error.isEmpty()) {
            QVERIFY2(values.ok(), values.error.c_str());
            QCOMPARE(int(values.values.size()), 1);
            QCOMPARE(values.values.front().value, 12.5);
            QVERIFY(values.values.front().readOffPlot);
        } else {
            QVERIFY(!values.ok());
            QVERIFY2(QString::fromStdString(values.error).contains(error), values.error.c_str());
            QVERIFY(values.values.empty());
        }
    }

    void bundledValues()
    {
        const exports::PublishedValues values = exports::bundledPublishedValues();
        QVERIFY2(values.ok(), values.error.c_str());
        int artifact = 0, paper = 0;
        for (const exports::PublishedValue& value : values.values) {
            artifact += value.kind == "artifact";
            paper += value.kind == "paper";
            QVERIFY(!value.source.empty());
        }
        QCOMPARE(artifact, 10); // the two measured points of issue 14, five designs each
        QVERIFY(paper >= 1); // the abstract's 94 %
        // The numbers §6.2-§6.4 print, each where the reports look for it.
        const struct {
            const char* figure;
            const char* metric;
            const char* design;
            double value;
        } printed[] = {
            { "fig17", "speedup_over_basic", "", 1.87 },
            { "fig17", "speedup_over_static_max", "", 1.49 },
            { "fig17", "ideal_fraction", "", 0.9484 },
            { "fig18", "hbm_utilization", "ideal", 0.6438 },
            { "fig18", "noc_utilization", "elk-full", 0.8952 },
            { "fig18", "tflops", "elk-full", 81.06 },
            { "fig23", "speedup_over_static", "", 1.36 },
        };
        for (const auto& number : printed) {
            const exports::PublishedValue* found
                = exports::publishedHeadline(values, number.figure, number.metric, number.design);
            QVERIFY2(found != nullptr, number.metric);
            QCOMPARE(found->value, number.value);
            QVERIFY(!found->readOffPlot && found->page >= 10 && found->page <= 12);
        }
    }

    void tablesAndChart()
    {
        const auto fig17 = run::paperFigure("fig17");
        std::vector<run::PaperPointResult> results;
        for (const run::PaperPoint& point : fig17->points)
            results.push_back(syntheticPoint(point, { 20, 15, 12, 10, 9 }));
        results[1].designs[0].error = "too large";
        exports::PublishedValues published;
        published.values.push_back(
            { "paper", "fig17", "", 10, "speedup_over_basic", "", "", 1.9, true, 0.05, "Fig. 17" });
        published.values.push_back(
            { "artifact", "fig17", "", 0, "latency_ms", "elk-full", fig17->points[4].key(), 11, false, 0, "a run" });
        const auto ratios = exports::headlineRatios("fig17", results, published);
        QCOMPARE(ratios.front().metric, std::string("speedup_over_basic"));
        QCOMPARE(ratios.front().points, 23); // one point's basic failed
        QCOMPARE(ratios.front().ours, 2.0);
        QVERIFY(ratios.front().hasPaper);
        QCOMPARE(ratios.front().paper, 1.9);
        QCOMPARE(ratios[1].metric, std::string("speedup_over_basic_max"));
        QCOMPARE(ratios[1].ours, 2.0);
        QCOMPARE(ratios[5].metric, std::string("ideal_fraction"));
        QCOMPARE(ratios[5].ours, 0.9); // ideal / elk-full
        QVERIFY(!ratios[5].hasPaper); // no abstract entry in this file, and none of fig17's own

        const std::string csv = exports::reproduceCsv("fig17", results);
        QCOMPARE(int(std::count(csv.begin(), csv.end(), '\n')), 1 + 24 * 5);
        QVERIFY(csv.find("too large") != std::string::npos);
        const std::string md = exports::summaryMarkdown("fig17", run::ReproduceMode::EqualTerms, results, published);
        QVERIFY(md.find("| elk-full speedup over basic (mean) | 2.000 | 23 | 1.9 |") != std::string::npos);
        QVERIFY(md.find("-9.1 %") != std::string::npos); // 10 ms against the published 11 ms

        const run::PaperChart chart = exports::paperChart("fig17", run::ReproduceMode::EqualTerms, results, published);
        QCOMPARE(int(chart.panels.size()), 5); // four models and the headlines, since the paper's speedup is given
        const run::ChartPanel& headlines = chart.panels.back();
        QCOMPARE(headlines.categories.size(), std::size_t(5));
        QCOMPARE(headlines.series.size(), std::size_t(2));
        QCOMPARE(headlines.series[0].y[0], 2.0);
        QVERIFY(headlines.series[1].reference);
        QCOMPARE(headlines.series[1].y[0], 1.9);
        QVERIFY(std::isnan(headlines.series[1].y[1]));
        const run::ChartPanel& llama = chart.panels.front();
        QCOMPARE(llama.kind, run::ChartKind::GroupedBars);
        QCOMPARE(int(llama.categories.size()), 6);
        int references = 0;
        for (const run::ChartSeries& series : llama.series) {
            if (!series.reference)
                continue;
            ++references;
            QCOMPARE(series.design, std::string("elk-full"));
            QCOMPARE(series.y[4], 11.0); // b32 s4096? the point's own category
            QVERIFY(std::isnan(series.y[0]));
        }
        QCOMPARE(references, 1);
        for (const std::string& name : run::paperFigureNames()) {
            const auto figure = run::paperFigure(name);
            std::vector<run::PaperPointResult> rows;
            for (const run::PaperPoint& point : figure->points)
                rows.push_back(syntheticPoint(point, { 5, 4, 3, 2, 1 }));
            const run::PaperChart drawn = exports::paperChart(name, run::ReproduceMode::ArtifactParity, rows, {});
            QVERIFY2(!drawn.panels.empty(), name.c_str());
            for (const run::ChartPanel& panel : drawn.panels) {
                for (const run::ChartSeries& series : panel.series) {
                    const std::size_t expected
                        = panel.kind == run::ChartKind::Lines ? series.x.size() : panel.categories.size();
                    QCOMPARE(series.y.size(), expected);
                    QVERIFY2(!series.y.empty(), (name + ": " + panel.title).c_str());
                }
            }
        }
    }

    /// The figure-level numbers the paper's text states: Fig. 18's breakdown shares and per-design means
    /// (with the "mean" bar beside the paper's), Fig. 23's LLM-only scope, the figure's own ideal fraction
    /// before the abstract's.
    void figureLevelValues()
    {
        const auto fig18 = run::paperFigure("fig18");
        std::vector<run::PaperPointResult> results;
        for (std::size_t i = 0; i < fig18->points.size(); ++i) {
            run::PaperPointResult point = syntheticPoint(fig18->points[i], { 20, 15, 12, 10, 9 });
            for (run::PaperDesignResult& d : point.designs) {
                d.overlapMs = d.design == "basic" ? 1 : 10;
                d.restMs = d.design == "elk-dyn" ? 4 : 1;
                d.preloadOnlyMs = d.design == "elk-full" ? 0.1 : 2;
                d.hbmUtilization = 0.1 * double(i + 1);
                d.tflops = 80;
            }
            results.push_back(point);
        }
        exports::PublishedValues published;
        published.values.push_back(
            { "paper", "fig18", "b", 11, "hbm_utilization", "elk-full", "", 0.624, false, 0.00005, "§6.3" });
        published.values.push_back(
            { "paper", "fig18", "a", 11, "static_overlap_over_basic", "", "", 11.26, false, 0.005, "§6.2" });
        published.values.push_back(
            { "paper", "abstract", "", 1, "ideal_fraction", "", "", 0.94, false, 0.005, "abstract" });
        published.values.push_back(
            { "paper", "fig17", "", 10, "ideal_fraction", "", "", 0.9484, false, 0.00005, "§6.2" });

        std::map<std::string, exports::HeadlineRatio> byMetric;
        for (const exports::HeadlineRatio& ratio : exports::headlineRatios("fig18", results, published))
            byMetric[ratio.metric] = ratio;
        QCOMPARE(byMetric["static_overlap_over_basic"].ours, 10.0);
        QCOMPARE(byMetric["static_overlap_over_basic"].paper, 11.26);
        QCOMPARE(byMetric["elk_full_stall_removed_vs_elk_dyn"].ours, 0.75);
        QCOMPARE(byMetric["elk_full_preload_only_share"].ours, 0.01);
        QVERIFY(!byMetric["ideal_fraction"].hasPaper); // the abstract stands for Fig. 17 only

        const auto means = exports::designMeans("fig18", results, published);
        QCOMPARE(int(means.size()), 15);
        const auto elkFullHbm = std::find_if(means.begin(), means.end(),
            [](const auto& m) { return m.design == "elk-full" && m.metric == "hbm_utilization"; });
        QVERIFY(elkFullHbm != means.end());
        QCOMPARE(elkFullHbm->points, 4);
        QVERIFY(std::fabs(elkFullHbm->ours - 0.25) < 1e-12);
        QVERIFY(elkFullHbm->hasPaper);
        QCOMPARE(elkFullHbm->paper, 0.624);
        const std::string md = exports::summaryMarkdown("fig18", run::ReproduceMode::EqualTerms, results, published);
        QVERIFY(md.find("| elk-full | 0.250 / 0.624 | 0 / — | 80.000 / — |") != std::string::npos);

        const run::PaperChart chart = exports::paperChart("fig18", run::ReproduceMode::EqualTerms, results, published);
        const auto hbmPanel = std::find_if(chart.panels.begin(), chart.panels.end(),
            [](const run::ChartPanel& panel) { return panel.title == "(b) HBM utilisation"; });
        QVERIFY(hbmPanel != chart.panels.end());
        QCOMPARE(hbmPanel->categories.back(), std::string("mean"));
        int references = 0;
        for (const run::ChartSeries& series : hbmPanel->series) {
            QCOMPARE(series.y.size(), hbmPanel->categories.size());
            if (!series.reference)
                continue;
            ++references;
            QCOMPARE(series.design, std::string("elk-full"));
            QCOMPARE(series.name, std::string("paper"));
            QCOMPARE(series.y.back(), 0.624);
        }
        QCOMPARE(references, 1);

        // Fig. 17's ideal fraction: §6.2's 94.84 %, not the abstract's rounded 94 %.
        const auto fig17 = run::paperFigure("fig17");
        std::vector<run::PaperPointResult> decode;
        for (const run::PaperPoint& point : fig17->points)
            decode.push_back(syntheticPoint(point, { 20, 15, 12, 10, 9 }));
        for (const exports::HeadlineRatio& ratio : exports::headlineRatios("fig17", decode, published)) {
            if (ratio.metric == "ideal_fraction")
                QCOMPARE(ratio.paper, 0.9484);
        }

        // Fig. 23's headlines average the LLMs only: DiT-XL's points are drawn, not averaged.
        const auto fig23 = run::paperFigure("fig23");
        std::vector<run::PaperPointResult> cores;
        int llmPoints = 0;
        for (const run::PaperPoint& point : fig23->points) {
            const bool dit = point.model == "vit-huge";
            llmPoints += !dit;
            cores.push_back(syntheticPoint(
                point, dit ? std::vector<double> { 100, 15, 12, 10, 9 } : std::vector<double> { 20, 15, 12, 10, 9 }));
        }
        const auto fig23Ratios = exports::headlineRatios("fig23", cores, {});
        QCOMPARE(fig23Ratios.front().points, llmPoints);
        QCOMPARE(fig23Ratios.front().ours, 2.0);
    }

    void equalTermsThroughTheCache()
    {
        QTemporaryDir folder;
        const store::OpenResult opened = store::ResultStore::open(folder.filePath(u"cache.sqlite"_qs).toStdString());
        QVERIFY(opened.store != nullptr);
        const auto fig18 = run::paperFigure("fig18");
        std::vector<run::PaperPoint> points = fig18->points;
#ifdef ELK_SANITIZER_BUILD
        points.resize(1); // a point takes about 30 s with sanitizers; the cache path is the same for one
#endif
        const int distinctPoints = int(points.size());
        points.push_back(points.front()); // duplicates run once
        store::ReproduceOptions options;
        options.threads = 2;
        NullRunControl control;
        const store::ReproduceRun cold = store::reproducePoints(points, options, opened.store.get(), control);
        QCOMPARE(int(cold.points.size()), distinctPoints + 1);
        QCOMPARE(cold.fromCache, 0);
        for (const run::PaperPointResult& point : cold.points) {
            QVERIFY2(point.error.empty(), point.error.c_str());
            QCOMPARE(int(point.designs.size()), 5);
            for (const run::PaperDesignResult& design : point.designs) {
                QVERIFY2(design.error.empty(), design.error.c_str());
                // The rest is the latency minus the three simulated parts, so "they add up" would hold by
                // construction; what can fail is the parts exceeding the latency (a negative rest).
                // tst_run_pipeline checks each part against the traced intervals.
                const QString name = QString::fromStdString(design.design);
                QVERIFY2(
                    design.overlapMs >= 0 && design.preloadOnlyMs >= 0 && design.executeOnlyMs >= 0, qPrintable(name));
                QVERIFY2(design.restMs >= 0,
                    qPrintable(
                        u"%1: overlap %2 + preload-only %3 + execute-only %4 ms exceed the latency %5 ms"_qs.arg(name)
                            .arg(design.overlapMs)
                            .arg(design.preloadOnlyMs)
                            .arg(design.executeOnlyMs)
                            .arg(design.latencyMs)));
                QVERIFY(design.hbmUtilization > 0 && design.hbmUtilization <= 1 + 1e-9);
                QVERIFY(design.tflops > 0);
            }
        }
        const store::ReproduceRun warm = store::reproducePoints(points, options, opened.store.get(), control);
        QCOMPARE(warm.fromCache, distinctPoints);
        const std::string csv = exports::reproduceCsv("fig18", warm.points);
        QVERIFY(csv.find(",0,\n") == std::string::npos); // every row says from_cache 1
        // Bit-identical numbers (from_cache differs, so compare the latencies and parts directly).
        for (std::size_t p = 0; p < points.size(); ++p) {
            for (std::size_t d = 0; d < 5; ++d) {
                QCOMPARE(warm.points[p].designs[d].latencyMs, cold.points[p].designs[d].latencyMs);
                QCOMPARE(warm.points[p].designs[d].overlapMs, cold.points[p].designs[d].overlapMs);
                QCOMPARE(warm.points[p].designs[d].nocUtilization, cold.points[p].designs[d].nocUtilization);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestPaperReproduce)
#include "tst_paper_reproduce.moc"
