// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hlo/hlo_step.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace elk::hlo {

namespace {

    std::string where(std::size_t node)
    {
        return "simulateStep: node " + std::to_string(node);
    }

    /// JSON string literal (labels come from our own code, but a file name may carry anything).
    std::string quoted(const std::string& text)
    {
        std::string out = "\"";
        for (const char c : text) {
            switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
                    out += escaped;
                } else {
                    out += c;
                }
            }
        }
        return out + "\"";
    }

    std::string number(double value)
    {
        if (!std::isfinite(value))
            return "null";
        char text[32];
        std::snprintf(text, sizeof text, "%.17g", value);
        return text;
    }

    /// Whole nanoseconds as microseconds with three decimals: Perfetto reads ts × 1000 back exactly.
    std::string microsFromNanos(std::int64_t ns)
    {
        char text[32];
        std::snprintf(
            text, sizeof text, "%lld.%03lld", static_cast<long long>(ns / 1000), static_cast<long long>(ns % 1000));
        return text;
    }

    constexpr int kPid = 1;
    constexpr int kComputeTid = 1;
    constexpr int kCommTid = 2;

} // namespace

StepTimeline simulateStep(const std::vector<StepNode>& nodes)
{
    StepTimeline timeline;
    timeline.startSeconds.resize(nodes.size());
    timeline.endSeconds.resize(nodes.size());
    double computeFree = 0, commFree = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const StepNode& node = nodes[i];
        if (!std::isfinite(node.seconds) || node.seconds < 0)
            throw std::invalid_argument(
                where(i) + ": duration " + std::to_string(node.seconds) + " s is not a finite, non-negative time");
        double ready = 0;
        for (const std::uint32_t dependency : node.dependencies) {
            if (dependency >= i)
                throw std::invalid_argument(where(i) + ": dependency " + std::to_string(dependency)
                    + " is not an earlier node (nodes must be in topological order)");
            ready = std::max(ready, timeline.endSeconds[dependency]);
        }
        double& streamFree = node.kind == RegionKind::Compute ? computeFree : commFree;
        const double start = std::max(ready, streamFree);
        const double end = start + node.seconds;
        streamFree = end;
        timeline.startSeconds[i] = start;
        timeline.endSeconds[i] = end;
        timeline.stepSeconds = std::max(timeline.stepSeconds, end);
        (node.kind == RegionKind::Compute ? timeline.computeSeconds : timeline.commSeconds) += node.seconds;
    }
    // Communication that compute did not hide: what the step takes beyond the compute stream's busy time.
    timeline.exposedCommSeconds = std::max(0.0, timeline.stepSeconds - timeline.computeSeconds);
    return timeline;
}

std::string stepTimelineToPerfetto(
    const std::vector<StepNode>& nodes, const StepTimeline& timeline, const std::string& title)
{
    if (timeline.startSeconds.size() != nodes.size() || timeline.endSeconds.size() != nodes.size())
        throw std::invalid_argument("stepTimelineToPerfetto: the timeline has "
            + std::to_string(timeline.startSeconds.size()) + " start times for " + std::to_string(nodes.size())
            + " nodes");
    std::string out = "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"title\":" + quoted(title) + ",\"stepSeconds\":"
        + number(timeline.stepSeconds) + ",\"computeSeconds\":" + number(timeline.computeSeconds) + ",\"commSeconds\":"
        + number(timeline.commSeconds) + ",\"exposedCommSeconds\":" + number(timeline.exposedCommSeconds)
        + ",\"assumption\":\"all devices run the same SPMD program, so one timeline stands for every device\"}"
        + ",\"traceEvents\":[\n";
    out += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(kPid)
        + ",\"args\":{\"name\":" + quoted(title) + "}},\n";
    out += "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(kPid)
        + ",\"tid\":" + std::to_string(kComputeTid) + ",\"args\":{\"name\":\"compute\"}},\n";
    out += "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(kPid)
        + ",\"tid\":" + std::to_string(kCommTid) + ",\"args\":{\"name\":\"communication\"}}";
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const StepNode& node = nodes[i];
        const bool compute = node.kind == RegionKind::Compute;
        // Rounded to whole ns once, so slices of one stream never overlap in Perfetto's integer ns.
        const std::int64_t startNs = std::llround(timeline.startSeconds[i] * 1e9);
        const std::int64_t endNs = std::max(startNs, std::int64_t(std::llround(timeline.endSeconds[i] * 1e9)));
        const std::string name = node.label.empty()
            ? std::string(compute ? "compute " : "communication ") + std::to_string(i)
            : node.label;
        std::string args = "\"node\":" + std::to_string(i) + ",\"label\":" + quoted(node.label)
            + ",\"seconds\":" + number(node.seconds);
        if (compute) {
            args += ",\"flops\":" + number(node.flops) + ",\"bytes\":" + number(node.bytes);
        } else {
            args += ",\"commBytesPerDevice\":" + number(node.commBytesPerDevice);
            if (node.collective)
                args += std::string(",\"collective\":") + quoted(toString(node.collective->kind))
                    + ",\"groupSize\":" + std::to_string(node.collective->groupSize)
                    + ",\"groups\":" + std::to_string(node.collective->groups.size());
        }
        out += ",\n{\"ph\":\"X\",\"name\":" + quoted(name)
            + ",\"cat\":" + (compute ? "\"compute\"" : "\"communication\"") + ",\"pid\":" + std::to_string(kPid)
            + ",\"tid\":" + std::to_string(compute ? kComputeTid : kCommTid) + ",\"ts\":" + microsFromNanos(startNs)
            + ",\"dur\":" + microsFromNanos(endNs - startNs) + ",\"args\":{" + args + "}}";
    }
    out += "\n]}\n";
    return out;
}

} // namespace elk::hlo
