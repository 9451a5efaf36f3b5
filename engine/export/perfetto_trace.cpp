// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/export/perfetto_trace.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace elk::exports {
namespace {

    using nlohmann::json;

    enum LaneId { ExecuteLane = 1, PreloadLane = 2, PhaseLane = 3, StallLane = 4 };
    constexpr int kTidStride = 10; // tids stay globally unique across designs: 1..4, 11..14, ...

    std::string where(const NamedSimResult& design, int step = -1)
    {
        std::string text = "perfettoTraceJson: design '" + design.name + "'";
        if (step >= 0)
            text += ", step " + std::to_string(step);
        return text;
    }

    /// Cycles → whole nanoseconds. Perfetto stores ns and reads `ts` as round(µs × 1000), so emitting
    /// whole-ns values makes the clamping below exact in Perfetto as well.
    class Clock {
    public:
        explicit Clock(const NamedSimResult& design)
            : m_design(design)
            , m_nsPerCycle(1e9 / design.result->clockHz)
        {
        }
        std::int64_t ns(double cycles, int step) const
        {
            const double value = cycles * m_nsPerCycle;
            if (!std::isfinite(value) || std::abs(value) > 9e15)
                throw std::invalid_argument(
                    where(m_design, step) + ": time " + std::to_string(cycles) + " cycles is not a finite time");
            return std::llround(value);
        }

    private:
        const NamedSimResult& m_design;
        double m_nsPerCycle;
    };

    double microseconds(std::int64_t ns)
    {
        return static_cast<double>(ns) / 1000.0;
    }

    /// One thread track; remembers where its last slice ended so that slices never overlap.
    struct Lane {
        int pid = 1;
        int tid = 1;
        std::int64_t lastEndNs = std::numeric_limits<std::int64_t>::min();

        json slice(const std::string& name, const char* cat, std::int64_t startNs, std::int64_t endNs, json args)
        {
            startNs = std::max(startNs, lastEndNs);
            endNs = std::max(endNs, startNs);
            lastEndNs = endNs;
            return json { { "ph", "X" }, { "name", name }, { "cat", cat }, { "pid", pid }, { "tid", tid },
                { "ts", microseconds(startNs) }, { "dur", microseconds(endNs - startNs) },
                { "args", std::move(args) } };
        }
    };

    json metadata(const char* what, int pid, int tid, const std::string& name)
    {
        json event { { "ph", "M" }, { "name", what }, { "pid", pid }, { "args", { { "name", name } } } };
        if (tid > 0)
            event["tid"] = tid;
        return event;
    }

    const std::string& stepName(const sim::SimResult& result, std::size_t step)
    {
        static const std::string unnamed;
        return step < result.stepNames.size() ? result.stepNames[step] : unnamed;
    }

    /// Step indices sorted by the start of `interval` (ties: step order), keeping those `keep` accepts.
    template <typename Get, typename Keep>
    std::vector<std::size_t> stepsByStart(const sim::SimResult& result, Get interval, Keep keep)
    {
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < result.steps.size(); ++i)
            if (keep(result.steps[i]))
                order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return interval(result.steps[a]).startCycles < interval(result.steps[b]).startCycles;
        });
        return order;
    }

    void addBytes(json& args, const std::vector<std::int64_t>& bytesByStep, std::size_t step)
    {
        if (step < bytesByStep.size())
            args["bytes_per_core"] = bytesByStep[step];
    }

    void addSlices(std::vector<json>& events, const NamedSimResult& design, int pid, const PerfettoOptions& options)
    {
        const sim::SimResult& result = *design.result;
        const Clock clock(design);
        const int tidBase = kTidStride * (pid - 1);

        Lane execute { pid, tidBase + ExecuteLane };
        Lane phases { pid, tidBase + PhaseLane };
        Lane stalls { pid, tidBase + StallLane };
        const auto executeOrder = stepsByStart(
            result, [](const sim::StepTrace& s) { return s.execute; }, [](const sim::StepTrace&) { return true; });
        double previousEndCycles = 0;
        for (const std::size_t i : executeOrder) {
            const sim::StepTrace& step = result.steps[i];
            const int stepId = static_cast<int>(i);
            const std::string& name = stepName(result, i);

            if (options.stallLane && step.execute.startCycles > previousEndCycles) {
                // The first execution has no recorded cause ("") but waits for its own preload.
                const std::string reason = !step.waitedFor.empty() ? step.waitedFor
                    : step.preload.length() > 0                    ? std::string("preload")
                                                                   : std::string("start");
                json args { { "step", stepId }, { "op", name }, { "waited_for", step.waitedFor } };
                events.push_back(stalls.slice("wait " + reason, "stall", clock.ns(previousEndCycles, stepId),
                    clock.ns(step.execute.startCycles, stepId), std::move(args)));
            }
            previousEndCycles = std::max(previousEndCycles, step.execute.endCycles);

            json args { { "step", stepId }, { "stall_cycles", step.executeStallCycles },
                { "waited_for", step.waitedFor } };
            addBytes(args, design.executeBytesPerCore, i);
            events.push_back(execute.slice(name, "exec", clock.ns(step.execute.startCycles, stepId),
                clock.ns(step.execute.endCycles, stepId), std::move(args)));

            if (!options.phaseLane)
                continue;
            const std::pair<const char*, const schedule::Interval*> parts[] = { { "warmup", &step.warmup },
                { "compute", &step.compute }, { "shift", &step.shift }, { "reduce", &step.reduce } };
            for (const auto& [cat, interval] : parts) {
                if (!(interval->length() > 0))
                    continue; // an op without that phase
                events.push_back(phases.slice(name, cat, clock.ns(interval->startCycles, stepId),
                    clock.ns(interval->endCycles, stepId), json { { "step", stepId } }));
            }
        }

        // Ops that load nothing (start == end) get no preload slice: a zero-length bar is noise, and
        // "once per lane" then means once per op that has a preload.
        Lane preload { pid, tidBase + PreloadLane };
        const auto preloadOrder = stepsByStart(
            result, [](const sim::StepTrace& s) { return s.preload; },
            [](const sim::StepTrace& s) { return s.preload.length() > 0; });
        for (const std::size_t i : preloadOrder) {
            const sim::StepTrace& step = result.steps[i];
            const int stepId = static_cast<int>(i);
            json args { { "step", stepId }, { "stall_cycles", step.preloadStallCycles } };
            addBytes(args, design.preloadBytesPerCore, i);
            events.push_back(preload.slice(stepName(result, i), "preload", clock.ns(step.preload.startCycles, stepId),
                clock.ns(step.preload.endCycles, stepId), std::move(args)));
        }
    }

    void addCounter(std::vector<json>& events, const NamedSimResult& design, int pid, const char* name, const char* key,
        const std::vector<sim::CounterSample>& samples, double scale)
    {
        const Clock clock(design);
        std::int64_t lastNs = std::numeric_limits<std::int64_t>::min();
        double lastValue = std::numeric_limits<double>::quiet_NaN();
        for (const sim::CounterSample& sample : samples) {
            const double value = sample.value * scale;
            if (!std::isfinite(value))
                throw std::invalid_argument(where(design) + ": counter '" + name + "' has a non-finite value");
            if (value == lastValue)
                continue; // the step function does not change here
            lastNs = std::max(lastNs, clock.ns(sample.atCycles, -1));
            lastValue = value;
            events.push_back(json { { "ph", "C" }, { "name", name }, { "pid", pid }, { "ts", microseconds(lastNs) },
                { "args", { { key, value } } } });
        }
    }

    void checkDesign(const NamedSimResult& design)
    {
        if (!design.result)
            throw std::invalid_argument(where(design) + ": no simulation result");
        if (!(design.result->clockHz > 0) || !std::isfinite(design.result->clockHz))
            throw std::invalid_argument(where(design) + ": clockHz must be a finite number > 0");
    }

} // namespace

std::string perfettoTraceJson(std::span<const NamedSimResult> designs, const PerfettoOptions& options)
{
    std::vector<json> events;
    json designList = json::array();
    for (std::size_t d = 0; d < designs.size(); ++d) {
        const NamedSimResult& design = designs[d];
        checkDesign(design);
        const sim::SimResult& result = *design.result;
        const int pid = static_cast<int>(d) + 1;
        const int tidBase = kTidStride * (pid - 1);

        events.push_back(metadata("process_name", pid, 0, design.name));
        events.push_back(metadata("thread_name", pid, tidBase + ExecuteLane, "execute"));
        events.push_back(metadata("thread_name", pid, tidBase + PreloadLane, "preload"));
        if (options.phaseLane)
            events.push_back(metadata("thread_name", pid, tidBase + PhaseLane, "execute phases"));
        if (options.stallLane)
            events.push_back(metadata("thread_name", pid, tidBase + StallLane, "stalls"));

        addSlices(events, design, pid, options);
        if (options.counters) {
            const double gbpsPerBytesPerCycle = result.clockHz / 1e9;
            addCounter(events, design, pid, "HBM bandwidth", "GBps", result.hbmBytesPerCycle, gbpsPerBytesPerCycle);
            addCounter(events, design, pid, "NoC bandwidth", "GBps", result.nocBytesPerCycle, gbpsPerBytesPerCycle);
            addCounter(events, design, pid, "SRAM per core", "KiB", result.sramBytesPerCore, 1.0 / 1024.0);
        }

        const double latencyMs = result.latencyCycles / result.clockHz * 1e3;
        if (!std::isfinite(latencyMs))
            throw std::invalid_argument(where(design) + ": latencyCycles is not finite");
        designList.push_back(json { { "name", design.name }, { "pid", pid }, { "latency_ms", latencyMs },
            { "clock_hz", result.clockHz }, { "steps", result.steps.size() } });
    }

    json otherData { { "designs", designList }, { "time_unit", "us" },
        { "notes",
            "ts/dur in microseconds rounded to whole ns; slices on a lane clamped to start at or after the "
            "previous end; ops that load nothing have no preload slice" } };
    if (designs.size() == 1) {
        otherData["design"] = designList[0]["name"];
        otherData["latency_ms"] = designList[0]["latency_ms"];
    }
    if (!options.engineVersion.empty())
        otherData["engine_version"] = options.engineVersion;

    // One event per line, so that two traces diff readably; keys sorted by nlohmann → stable bytes.
    const auto dump = [](const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); };
    std::string text = "{";
    if (!options.displayTimeUnit.empty())
        text += "\"displayTimeUnit\":" + dump(options.displayTimeUnit) + ",";
    text += "\"otherData\":" + dump(otherData) + ",\n\"traceEvents\":[";
    for (std::size_t i = 0; i < events.size(); ++i) {
        text += i == 0 ? "\n" : ",\n";
        text += dump(events[i]);
    }
    text += "\n]}\n";
    return text;
}

std::string perfettoTraceJson(const sim::SimResult& result, const PerfettoOptions& options)
{
    const NamedSimResult design { options.designName, &result, {}, {} };
    return perfettoTraceJson(std::span<const NamedSimResult>(&design, 1), options);
}

} // namespace elk::exports
