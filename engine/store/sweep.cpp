// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Sweeps over ChipSpec fields: every grid point is one cached run (summaries only). Points that
// share partition tables share one compiled model, so a bandwidth sweep searches once.
#include "engine/run/sweep.h"

#include "engine/run/chips.h"

#include "engine/core/sha256.h"
#include "engine/run/run_compile.h"
#include "engine/store/parity_cache.h"
#include "engine/store/result_store.h"
#include "engine/store/run_points.h"
#include "engine/store/sweep_recorded.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

namespace elk::run {

namespace {

    constexpr std::size_t kMaxAxisPoints = 1000;
    constexpr std::size_t kMaxSweepPoints = 100000;

    std::string_view trimmed(std::string_view text)
    {
        while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
            text.remove_prefix(1);
        while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
            text.remove_suffix(1);
        return text;
    }

    std::optional<double> numberOf(std::string_view text)
    {
        text = trimmed(text);
        if (!text.empty() && text.front() == '+')
            text.remove_prefix(1);
        double value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
            return std::nullopt;
        return value;
    }

    /// A grid value as JSON: integers without a fraction, others with at most 12 significant digits
    /// (so 0.1 + 2 × 0.1 prints as 0.3, not 0.30000000000000004).
    std::string numberJson(double value)
    {
        if (value == std::floor(value) && std::abs(value) < 1e15)
            return std::to_string(std::int64_t(value));
        char text[32];
        std::snprintf(text, sizeof text, "%.12g", value);
        return text;
    }

    /// "/hbm/bandwidthGBpsPerStack" and "hbm.bandwidthGBpsPerStack" name the same field.
    std::string dotted(std::string_view field)
    {
        std::string name(field);
        if (!name.empty() && name.front() == '/') {
            name.erase(0, 1);
            std::replace(name.begin(), name.end(), '/', '.');
        }
        return name;
    }

    std::string labelOf(const std::string& field)
    {
        const std::string name = dotted(field);
        if (const chip::ChipField* row = chip::findChipField(name))
            return std::string(row->axisLabel); // declared once, in engine/chip/chip_fields.cpp
        if (name == "interconnect.topology")
            return "Interconnect topology";
        // Units are in the field names: say them.
        static const std::pair<const char*, const char*> units[] = { { "GBps", "GB/s" }, { "GiB", "GiB" },
            { "Bytes", "bytes" }, { "Cycles", "cycles" }, { "Hz", "Hz" }, { "Ns", "ns" } };
        for (const auto& [suffix, unit] : units) {
            if (name.find(suffix) != std::string::npos)
                return name + " (" + unit + ")";
        }
        return name;
    }

    bool isJsonLiteral(std::string_view text)
    {
        return numberOf(text).has_value() || text == "true" || text == "false" || text == "null"
            || (!text.empty() && (text.front() == '"' || text.front() == '[' || text.front() == '{'));
    }

    std::string quoted(std::string_view word)
    {
        std::string json = "\"";
        for (char c : word) {
            if (c == '"' || c == '\\')
                json += '\\';
            json += c;
        }
        return json + "\"";
    }

    /// A JSON string value without its quotes (overrides take string fields verbatim); other JSON as is.
    std::string overrideValue(const std::string& json)
    {
        if (json.size() < 2 || json.front() != '"' || json.back() != '"')
            return json;
        std::string text;
        for (std::size_t i = 1; i + 1 < json.size(); ++i) {
            if (json[i] == '\\' && i + 2 < json.size())
                ++i;
            text += json[i];
        }
        return text;
    }

    /// Text of a value for CSV cells and labels: strings without quotes.
    std::string plainValue(const std::string& json)
    {
        return overrideValue(json);
    }

    std::string csvCell(const std::string& text)
    {
        if (text.find_first_of(",\"\n\r") == std::string::npos)
            return text;
        std::string cell = "\"";
        for (char c : text)
            cell += c == '"' ? std::string("\"\"") : std::string(1, c);
        return cell + "\"";
    }

    std::string shortestNumber(double value)
    {
        char text[32];
        const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
        return ec == std::errc() ? std::string(text, end) : std::string();
    }

    /// Fields that must change together: a mesh needs width × height = cores per chip, edge
    /// controller placements need a mesh. When an axis changes one side and nobody set the other,
    /// the other follows (the most square mesh; controllers spread), so core-count and topology
    /// sweeps work from any base chip.
    std::vector<std::string> followUps(const chip::ChipSpec& chip, const std::set<std::string>& named)
    {
        std::vector<std::string> extra;
        const chip::InterconnectSpec& net = chip.interconnect;
        const bool meshNamed = named.count("interconnect.meshWidth") > 0 || named.count("interconnect.meshHeight") > 0;
        if (net.topology == chip::Topology::Mesh2d && !meshNamed && chip.coresPerChip > 0
            && std::int64_t(net.meshWidth) * net.meshHeight != chip.coresPerChip) {
            int height = int(std::sqrt(double(chip.coresPerChip)));
            while (height > 1 && chip.coresPerChip % height != 0)
                --height;
            height = std::max(height, 1);
            extra.push_back("interconnect.meshWidth=" + std::to_string(chip.coresPerChip / height));
            extra.push_back("interconnect.meshHeight=" + std::to_string(height));
        }
        const chip::ControllerPlacement placement = chip.hbm.controllerPlacement;
        const bool edge = placement == chip::ControllerPlacement::WestEdge
            || placement == chip::ControllerPlacement::WestEastEdges
            || placement == chip::ControllerPlacement::AllEdges;
        if (net.topology == chip::Topology::AllToAll && edge && named.count("hbm.controllerPlacement") == 0)
            extra.push_back("hbm.controllerPlacement=spread");
        return extra;
    }

    /// One point's spec. The model is hashed once (in `baseSpec`); each point only resolves its chip.
    /// Equal to resolveRunSpec() of the point's request (with the follow-ups as overrides).
    RunSpecResult pointSpec(const RunRequest& base, const RunSpecResult& baseSpec, std::vector<std::string> overrides,
        const std::set<std::string>& named)
    {
        ChipResolveResult chipResult = resolveChip(base.chip, overrides);
        if (chipResult.ok()) {
            const std::vector<std::string> extra = followUps(chipResult.spec, named);
            if (!extra.empty()) {
                overrides.insert(overrides.end(), extra.begin(), extra.end());
                chipResult = resolveChip(base.chip, overrides);
            }
        }
        RunSpecResult result;
        if (baseSpec.ok() && chipResult.ok()) {
            result.spec = baseSpec.spec;
            result.spec.chip = std::move(chipResult.spec);
            if (!base.preloadIngressGBpsPerCore)
                result.spec.options.preloadIngressGBpsPerCore = result.spec.chip.interconnect.linkBandwidthGBpsPerCore;
            if (validateRunSpec(result.spec).empty())
                return result;
        }
        // Errors (or a base that does not resolve alone): the full resolution says what is wrong and
        // which override did it.
        RunRequest request = base;
        request.chipOverrides = std::move(overrides);
        return resolveRunSpec(request);
    }

    /// The points in artifact parity, side by side (each parity run on one thread).
    void runParityPoints(const std::vector<RunSpecResult>& specs, const ParityOptions& parity,
        store::ResultStore* store, RunControl& control, int threads,
        const std::function<void(std::size_t, store::PointOutcome&&)>& finish)
    {
        ParityOptions onePoint = parity;
        onePoint.threads = 1;
        std::mutex mutex;
        std::int64_t done = 0;
        store::forEachPoint(specs.size(), threads, control, [&](std::size_t p) {
            store::PointOutcome outcome;
            if (!specs[p].ok()) {
                outcome.error = store::joinedFieldErrors(specs[p].errors);
            } else {
                store::StopOnlyControl quiet(control);
                store::ParityPointOutcome run = store::runParityCached(specs[p].spec, onePoint, store, quiet);
                if (run.status == RunStatus::Stopped)
                    return;
                outcome.error = std::move(run.error);
                outcome.fromCache = run.fromCache;
                for (const PaperDesignResult& design : run.designs)
                    outcome.latencyMs.push_back(
                        design.error.empty() ? design.latencyMs : std::numeric_limits<double>::quiet_NaN());
            }
            const std::lock_guard lock(mutex);
            finish(p, std::move(outcome));
            control.progress(++done, std::int64_t(specs.size()), "sweep");
        });
    }

} // namespace

SweepAxisParse parseSweepAxis(std::string_view text)
{
    SweepAxisParse parsed;
    const std::string shown = "--vary " + std::string(text);
    auto fail = [&](const std::string& message) {
        parsed.error = shown + ": " + message;
        return parsed;
    };
    const std::size_t equals = text.find('=');
    if (equals == std::string_view::npos)
        return fail("expected field=start:stop:step or field=a,b,c");
    const std::string_view field = trimmed(text.substr(0, equals));
    const std::string_view values = trimmed(text.substr(equals + 1));
    if (field.empty())
        return fail("no field before '='; expected e.g. hbm.bandwidthGBpsPerStack=125:1125:125");
    if (values.empty())
        return fail("no values after '='");
    parsed.axis.field = std::string(field);
    parsed.axis.label = labelOf(parsed.axis.field);

    if (values.find(':') != std::string_view::npos && values.find(',') == std::string_view::npos) {
        std::vector<std::string_view> parts;
        std::size_t start = 0;
        for (std::size_t colon = values.find(':');; colon = values.find(':', start)) {
            parts.push_back(values.substr(start, colon - start));
            if (colon == std::string_view::npos)
                break;
            start = colon + 1;
        }
        if (parts.size() != 3)
            return fail("a range is start:stop:step (three numbers), got " + std::to_string(parts.size()) + " parts");
        const char* names[] = { "start", "stop", "step" };
        double numbers[3] = {};
        for (int i = 0; i < 3; ++i) {
            const auto number = numberOf(parts[std::size_t(i)]);
            if (!number)
                return fail(
                    std::string(names[i]) + " '" + std::string(trimmed(parts[std::size_t(i)])) + "' is not a number");
            numbers[i] = *number;
        }
        const double first = numbers[0], last = numbers[1], step = numbers[2];
        if (step <= 0)
            return fail("step must be positive");
        if (last < first)
            return fail("stop below start");
        // The stop value is included when it lies on the grid (up to rounding of the decimal inputs).
        const double steps = std::floor((last - first) / step + 1e-9);
        if (steps + 1 > double(kMaxAxisPoints))
            return fail(numberJson(steps + 1) + " values; at most " + std::to_string(kMaxAxisPoints) + " per axis");
        for (int i = 0; i <= int(steps); ++i)
            parsed.axis.values.push_back(numberJson(first + i * step));
        return parsed;
    }

    std::size_t start = 0;
    while (true) {
        const std::size_t comma = values.find(',', start);
        const std::string_view one = trimmed(values.substr(start, comma - start));
        if (one.empty())
            return fail("an empty value in the list");
        std::string json = isJsonLiteral(one) ? std::string(one) : quoted(one);
        if (const auto number = numberOf(one))
            json = numberJson(*number);
        if (std::find(parsed.axis.values.begin(), parsed.axis.values.end(), json) != parsed.axis.values.end())
            return fail("value " + std::string(one) + " is listed twice");
        parsed.axis.values.push_back(std::move(json));
        if (parsed.axis.values.size() > kMaxAxisPoints)
            return fail("more than " + std::to_string(kMaxAxisPoints) + " values");
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return parsed;
}

const std::vector<SweepPreset>& sweepPresets()
{
    // Ranges are for the paper's base chip, ipu-pod4-hbm (4 chips × 4 HBM stacks, 1472 cores per
    // chip, 5.5 GB/s per core port): 125–1125 GB/s per stack is 2–18 TB/s in all.
    static const std::vector<SweepPreset> presets = {
        { "hbm-bandwidth", "Latency vs HBM bandwidth (2–18 TB/s on ipu-pod4-hbm)",
            { "hbm.bandwidthGBpsPerStack=125:1125:125" } },
        { "noc-bandwidth", "Latency vs NoC link bandwidth per core",
            { "interconnect.linkBandwidthGBpsPerCore=1.5:9.5:1" } },
        { "core-count", "Latency vs core count (¼× to 2× of 1472 cores per chip)", { "coresPerChip=368:2944:368" } },
        { "topology", "All-to-all vs 2D mesh", { "interconnect.topology=all-to-all,mesh2d" } },
    };
    return presets;
}

int SweepResult::doneCount() const
{
    return int(std::count_if(points.begin(), points.end(), [](const SweepPoint& p) { return p.done; }));
}

SweepResult runSweep(const RunRequest& base, const std::vector<SweepAxis>& axes, store::ResultStore* store,
    RunControl& control, int threads, const std::function<void(const SweepResult&, int pointIndex)>& onPoint,
    const ParityOptions* parity, SweepShard shard)
{
    SweepResult result;
    result.axes = axes;
    result.designs = base.designs.empty() ? knownDesigns() : base.designs;
    std::size_t total = 1;
    for (const SweepAxis& axis : axes)
        total = axis.values.empty() ? 0 : std::min(total * axis.values.size(), kMaxSweepPoints + 1);
    if (total > kMaxSweepPoints)
        total = 0; // the front ends bound axes; a grid this large is refused rather than run
    result.points.resize(total);

    // Specs up front (cheap: the model is hashed once), so points can be grouped by partition key.
    std::set<std::string> named;
    for (const std::string& text : base.chipOverrides)
        named.insert(dotted(text.substr(0, text.find('='))));
    for (const SweepAxis& axis : axes)
        named.insert(dotted(axis.field));
    const RunSpecResult baseSpec = resolveRunSpec(base);
    std::vector<RunSpecResult> specs(total);
    for (std::size_t p = 0; p < total; ++p) {
        SweepPoint& point = result.points[p];
        point.index.assign(axes.size(), 0);
        std::vector<std::string> overrides = base.chipOverrides;
        std::size_t rest = p;
        for (std::size_t a = axes.size(); a-- > 0;) {
            point.index[a] = int(rest % axes[a].values.size());
            rest /= axes[a].values.size();
        }
        for (std::size_t a = 0; a < axes.size(); ++a)
            overrides.push_back(axes[a].field + "=" + overrideValue(axes[a].values[std::size_t(point.index[a])]));
        specs[p] = pointSpec(base, baseSpec, std::move(overrides), named);
    }
    auto finish = [&](std::size_t p, store::PointOutcome&& outcome) {
        SweepPoint& point = result.points[p];
        point.error = std::move(outcome.error);
        point.latencyMs = std::move(outcome.latencyMs);
        point.fromCache = outcome.fromCache;
        point.done = true;
        if (onPoint)
            onPoint(result, int(p));
    };
    // The row each point's result goes to, so the cache can list and reopen the sweep on its own.
    std::vector<std::string> pointKeys(total);
    if (store != nullptr && baseSpec.ok()) {
        for (std::size_t p = 0; p < total; ++p) {
            if (!specs[p].ok() || !shard.contains(p))
                continue;
            try {
                pointKeys[p] = parity != nullptr ? sha256Hex(store::parityKey(specs[p].spec, *parity))
                                                 : runSpecHash(specs[p].spec);
            } catch (const std::exception&) {
                // no canonical form: the point's run is not stored either
            }
        }
    }
    // A shard runs its own points only (the others keep done == false).
    std::vector<std::size_t> mine;
    for (std::size_t p = 0; p < total; ++p) {
        if (shard.contains(p))
            mine.push_back(p);
    }
    std::vector<RunSpecResult> shardSpecs;
    if (mine.size() != total) {
        for (std::size_t p : mine)
            shardSpecs.push_back(std::move(specs[p]));
    }
    const std::vector<RunSpecResult>& run = mine.size() == total ? specs : shardSpecs;
    auto finishMine = [&](std::size_t i, store::PointOutcome&& outcome) { finish(mine[i], std::move(outcome)); };
    if (parity != nullptr)
        runParityPoints(run, *parity, store, control, threads, finishMine);
    else
        store::runPoints(run, store, control, threads, true, "sweep", finishMine);
    if (store != nullptr && baseSpec.ok())
        store::recordSweep(*store, baseSpec.spec, result, pointKeys,
            parity != nullptr ? store::parityKey(baseSpec.spec, *parity) : std::string());
    return result;
}

std::optional<SweepShard> parseSweepShard(std::string_view text, std::string& error)
{
    const std::size_t slash = text.find('/');
    int index = -1, count = 0;
    const auto parse = [](std::string_view part, int& value) {
        part = trimmed(part);
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
        return !part.empty() && ec == std::errc() && end == part.data() + part.size();
    };
    if (slash == std::string_view::npos || !parse(text.substr(0, slash), index)
        || !parse(text.substr(slash + 1), count)) {
        error = "--shard " + std::string(text) + ": expected K/N (e.g. 0/3: the first of three shards)";
        return std::nullopt;
    }
    if (count < 1 || index < 0 || index >= count) {
        error = "--shard " + std::string(text) + ": K must be 0 … N−1 and N at least 1";
        return std::nullopt;
    }
    return SweepShard { index, count };
}

std::string sweepCsv(const SweepResult& result)
{
    std::string csv;
    for (const SweepAxis& axis : result.axes)
        csv += csvCell(axis.field) + ",";
    csv += "design,latency_ms,from_cache,error\n";
    for (const SweepPoint& point : result.points) {
        if (!point.done)
            continue;
        std::string prefix;
        for (std::size_t a = 0; a < result.axes.size(); ++a)
            prefix += csvCell(plainValue(result.axes[a].values[std::size_t(point.index[a])])) + ",";
        for (std::size_t d = 0; d < result.designs.size(); ++d) {
            const double latency
                = d < point.latencyMs.size() ? point.latencyMs[d] : std::numeric_limits<double>::quiet_NaN();
            csv += prefix + csvCell(result.designs[d]) + "," + (std::isnan(latency) ? "" : shortestNumber(latency))
                + "," + (point.fromCache ? "1" : "0") + "," + csvCell(point.error) + "\n";
        }
    }
    return csv;
}

} // namespace elk::run
