// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/export/csv_export.h"

#include <array>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

namespace elk::exports {
namespace {

    // Local copy of the names sim::toString(LinkKind) documents, so the exporter does not depend on
    // the simulator's translation unit.
    const char* linkKindName(sim::LinkKind kind)
    {
        switch (kind) {
        case sim::LinkKind::CoreIngress:
            return "core-ingress";
        case sim::LinkKind::CoreEgress:
            return "core-egress";
        case sim::LinkKind::MeshLink:
            return "mesh";
        case sim::LinkKind::HbmStack:
            return "hbm";
        case sim::LinkKind::InterChip:
            return "inter-chip";
        }
        return "unknown";
    }

    void appendRow(std::string& out, std::initializer_list<std::string> fields)
    {
        bool first = true;
        for (const std::string& field : fields) {
            if (!first)
                out += ',';
            out += field;
            first = false;
        }
        out += '\n';
    }

} // namespace

std::string csvField(std::string_view field)
{
    if (field.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(field);
    std::string quoted = "\"";
    for (const char c : field) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

std::string csvNumber(double value, int decimals)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    std::array<char, 400> buffer {}; // fixed notation of the largest double fits
    const auto [end, error]
        = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::fixed, decimals);
    if (error != std::errc())
        return "nan";
    std::string text(buffer.data(), end);
    // A value that rounds to zero must not print as "-0.000000".
    if (text.front() == '-' && text.find_first_not_of("-0.") == std::string::npos)
        text.erase(0, 1);
    return text;
}

std::string intervalsCsv(const std::vector<NamedSimResult>& designs)
{
    std::string out = "design,step,op,lane,start_us,end_us,duration_us,stall_us\n";
    for (const NamedSimResult& design : designs) {
        if (!design.result)
            throw std::invalid_argument("intervalsCsv: design '" + design.name + "': no simulation result");
        const sim::SimResult& result = *design.result;
        if (!(result.clockHz > 0) || !std::isfinite(result.clockHz))
            throw std::invalid_argument(
                "intervalsCsv: design '" + design.name + "': clockHz must be a finite number > 0");
        const double usPerCycle = 1e6 / result.clockHz;
        const std::string designField = csvField(design.name);

        for (std::size_t i = 0; i < result.steps.size(); ++i) {
            const sim::StepTrace& step = result.steps[i];
            const std::string op = csvField(i < result.stepNames.size() ? result.stepNames[i] : std::string());
            const auto row = [&](const char* lane, const schedule::Interval& interval, const std::string& stall) {
                appendRow(out,
                    { designField, std::to_string(i), op, lane, csvNumber(interval.startCycles * usPerCycle),
                        csvNumber(interval.endCycles * usPerCycle), csvNumber(interval.length() * usPerCycle), stall });
            };
            if (step.preload.length() > 0)
                row("preload", step.preload, csvNumber(step.preloadStallCycles * usPerCycle));
            row("execute", step.execute, csvNumber(step.executeStallCycles * usPerCycle));
            const std::pair<const char*, const schedule::Interval*> phases[] = { { "warmup", &step.warmup },
                { "compute", &step.compute }, { "shift", &step.shift }, { "reduce", &step.reduce } };
            for (const auto& [lane, interval] : phases)
                if (interval->length() > 0)
                    row(lane, *interval, std::string());
        }
    }
    return out;
}

std::string linkUtilizationCsv(const sim::SimResult& result)
{
    std::string out = "link,kind,chip,x,y,direction,bytes,utilization\n";
    for (std::size_t i = 0; i < result.links.size(); ++i) {
        const sim::LinkInfo& link = result.links[i];
        const double bytes = i < result.linkBytes.size() ? result.linkBytes[i] : 0.0;
        const double capacityBytes = link.bytesPerCycle * result.latencyCycles;
        const double utilization = capacityBytes > 0 ? bytes / capacityBytes : 0.0;
        const bool mesh = link.kind == sim::LinkKind::MeshLink;
        appendRow(out,
            { csvField(link.name), linkKindName(link.kind), std::to_string(link.chip),
                mesh && link.x >= 0 ? std::to_string(link.x) : std::string(),
                mesh && link.y >= 0 ? std::to_string(link.y) : std::string(),
                mesh && link.direction != 0 ? csvField(std::string(1, link.direction)) : std::string(),
                csvNumber(bytes, 3), csvNumber(utilization, 6) });
    }
    return out;
}

} // namespace elk::exports
