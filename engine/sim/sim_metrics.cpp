// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/sim/sim_metrics.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>

namespace elk::sim::detail {

namespace {

    void push(std::vector<CounterSample>& samples, double at, double value)
    {
        if (!samples.empty() && samples.back().value == value)
            return;
        if (!samples.empty() && samples.back().atCycles == at)
            samples.back().value = value;
        else
            samples.push_back({ at, value });
    }

} // namespace

MetricsRecorder::MetricsRecorder(const Topology& topology, const TrafficBuilder& traffic,
    const schedule::ScheduleProblem& problem, const std::vector<StepPlan>& plans, SimResult& result)
    : m_topology(topology)
    , m_traffic(traffic)
    , m_problem(problem)
    , m_plans(plans)
    , m_result(result)
    , m_preloaded(problem.steps.size(), 0)
{
    sampleSram(0);
}

void MetricsRecorder::sampleSram(double nowCycles)
{
    std::int64_t bytes = m_resident;
    if (m_executing >= 0)
        bytes += m_plans[static_cast<std::size_t>(m_executing)].executeBytes
            + m_problem.steps[static_cast<std::size_t>(m_executing)].reservedBytesPerCore;
    else if (m_nextStep < static_cast<int>(m_problem.steps.size()))
        bytes += m_problem.steps[static_cast<std::size_t>(m_nextStep)].reservedBytesPerCore;
    m_result.sramPeakBytesPerCore = std::max(m_result.sramPeakBytesPerCore, bytes);
    push(m_result.sramBytesPerCore, nowCycles, static_cast<double>(bytes));
}

void MetricsRecorder::preloadStarted(int step, double nowCycles)
{
    m_preloaded[static_cast<std::size_t>(step)] = 1;
    m_resident += m_plans[static_cast<std::size_t>(step)].preloadBytes;
    sampleSram(nowCycles);
}

void MetricsRecorder::executeStarted(int step, double nowCycles)
{
    if (m_preloaded[static_cast<std::size_t>(step)])
        m_resident -= m_plans[static_cast<std::size_t>(step)].preloadBytes; // now part of its execute state
    m_executing = step;
    sampleSram(nowCycles);
}

void MetricsRecorder::executeEnded(int step, double nowCycles)
{
    m_executing = -1;
    m_nextStep = step + 1;
    sampleSram(nowCycles);
}

void MetricsRecorder::span(
    double nowCycles, double dtCycles, bool preloadActive, bool executeActive, double hbm, double noc)
{
    if (preloadActive && executeActive)
        m_result.overlapCycles += dtCycles;
    else if (preloadActive)
        m_result.preloadOnlyCycles += dtCycles;
    else if (executeActive)
        m_result.executeOnlyCycles += dtCycles;
    push(m_result.hbmBytesPerCycle, nowCycles, hbm);
    push(m_result.nocBytesPerCycle, nowCycles, noc);
}

void MetricsRecorder::delivered(int vector, double fraction)
{
    if (m_delivered.size() <= static_cast<std::size_t>(vector))
        m_delivered.resize(static_cast<std::size_t>(m_traffic.count()), 0.0);
    m_delivered[static_cast<std::size_t>(vector)] += fraction;
}

void MetricsRecorder::finish(double latencyCycles, const SimOptions& options)
{
    SimResult& r = m_result;
    push(r.hbmBytesPerCycle, latencyCycles, 0.0);
    push(r.nocBytesPerCycle, latencyCycles, 0.0);
    push(r.sramBytesPerCore, latencyCycles, 0.0);
    r.links = m_topology.links();
    r.linkBytes.assign(r.links.size(), 0.0);
    for (std::size_t v = 0; v < m_delivered.size(); ++v) {
        const PhaseVector& vector = m_traffic.vector(static_cast<int>(v));
        for (std::size_t k = 0; k < vector.links.size(); ++k)
            r.linkBytes[vector.links[k]] += m_delivered[v] * vector.bytes[k];
    }
    double capacity = 0;
    double hbmCapacity = 0;
    for (std::size_t l = 0; l < r.links.size(); ++l) {
        const LinkKind kind = r.links[l].kind;
        if (kind == LinkKind::CoreIngress || kind == LinkKind::CoreEgress || kind == LinkKind::MeshLink) {
            r.nocBytes += r.linkBytes[l];
            capacity += r.links[l].bytesPerCycle;
        } else if (kind == LinkKind::HbmStack) {
            hbmCapacity += r.links[l].bytesPerCycle;
        }
    }
    for (std::size_t i = 0; i < m_problem.steps.size(); ++i) {
        r.stepNames.push_back(m_problem.steps[i].name);
        r.flops += m_problem.steps[i].flops;
        r.hbmBytes += m_plans[i].hbmBytes;
        r.interconnectStallCycles += r.steps[i].executeStallCycles;
    }
    if (latencyCycles > 0) {
        r.hbmUtilization = static_cast<double>(r.hbmBytes) / (hbmCapacity * latencyCycles);
        r.nocUtilization = capacity > 0 ? r.nocBytes / (capacity * latencyCycles) : 0.0;
        r.flopsPerCycle = static_cast<double>(r.flops) / latencyCycles;
    }
    linkBins(options);
}

void MetricsRecorder::linkBins(const SimOptions& options)
{
    SimResult& r = m_result;
    const double latency = r.latencyCycles;
    if (!(latency > 0))
        return;
    r.binCycles = options.timeBinCycles > 0 ? options.timeBinCycles : latency / 200.0;
    const auto bins = static_cast<std::size_t>(std::max(1.0, std::ceil(latency / r.binCycles - 1e-9)));
    std::vector<std::int32_t> column(r.links.size(), -1);
    for (std::size_t l = 0; l < r.links.size(); ++l)
        if (r.linkBytes[l] > 0) {
            column[l] = static_cast<std::int32_t>(r.binLinks.size());
            r.binLinks.push_back(static_cast<std::uint32_t>(l));
        }
    // Fraction of each vector per bin (time-proportional within a segment), then bytes per link.
    std::vector<std::vector<std::pair<int, double>>> perBin(bins);
    for (const Segment& s : m_segments) {
        const double length = s.endCycles - s.startCycles;
        auto b = static_cast<std::size_t>(s.startCycles / r.binCycles);
        for (; b < bins; ++b) {
            const double lo = std::max(s.startCycles, double(b) * r.binCycles);
            const double hi = std::min(s.endCycles, double(b + 1) * r.binCycles);
            if (hi > lo)
                perBin[b].emplace_back(s.vector, s.fraction * (hi - lo) / length);
            if (double(b + 1) * r.binCycles >= s.endCycles)
                break;
        }
    }
    // Links whose contributions are the same (vector, bytes) sequence and whose capacity is the same get
    // bit-identical rows in every bin (the same products summed in the same order), so each such class is
    // summed once through its first link and copied to the others: thousands of core ports share a few
    // classes.
    std::vector<std::uint32_t> classOfColumn(r.binLinks.size());
    std::vector<std::size_t> firstColumnOfClass;
    {
        using Contribution = std::pair<int, std::uint64_t>; // vector, bit pattern of its bytes on the link
        std::vector<std::vector<Contribution>> signature(r.binLinks.size());
        for (int vector = 0; vector < m_traffic.count(); ++vector) {
            const PhaseVector& v = m_traffic.vector(vector);
            for (std::size_t j = 0; j < v.links.size(); ++j)
                if (column[v.links[j]] >= 0)
                    signature[static_cast<std::size_t>(column[v.links[j]])].emplace_back(
                        vector, std::bit_cast<std::uint64_t>(v.bytes[j]));
        }
        std::map<std::pair<std::uint64_t, std::vector<Contribution>>, std::uint32_t> classOf;
        for (std::size_t c = 0; c < signature.size(); ++c) {
            const double capacity = r.links[r.binLinks[c]].bytesPerCycle;
            const auto [it, added] = classOf.try_emplace(
                { std::bit_cast<std::uint64_t>(capacity), std::move(signature[c]) }, std::uint32_t(classOf.size()));
            if (added)
                firstColumnOfClass.push_back(c);
            classOfColumn[c] = it->second;
        }
    }
    // By vector: the (class, bytes) terms of each class's first link, in the vector's link order.
    std::vector<std::vector<std::pair<std::uint32_t, double>>> classTerms(std::size_t(m_traffic.count()));
    for (int vector = 0; vector < m_traffic.count(); ++vector) {
        const PhaseVector& v = m_traffic.vector(vector);
        for (std::size_t j = 0; j < v.links.size(); ++j) {
            if (column[v.links[j]] < 0)
                continue;
            const auto c = static_cast<std::size_t>(column[v.links[j]]);
            if (firstColumnOfClass[classOfColumn[c]] == c)
                classTerms[std::size_t(vector)].emplace_back(classOfColumn[c], v.bytes[j]);
        }
    }
    r.linkUtilizationBins.assign(bins, std::vector<float> {});
    std::vector<double> row(firstColumnOfClass.size());
    std::vector<float> classUtilization(firstColumnOfClass.size());
    for (std::size_t b = 0; b < bins; ++b) {
        auto& entries = perBin[b];
        std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& c) { return a.first < c.first; });
        std::fill(row.begin(), row.end(), 0.0);
        for (std::size_t k = 0; k < entries.size();) {
            double fraction = 0;
            const int vector = entries[k].first;
            for (; k < entries.size() && entries[k].first == vector; ++k)
                fraction += entries[k].second;
            for (const auto& [linkClass, bytes] : classTerms[std::size_t(vector)])
                row[linkClass] += fraction * bytes;
        }
        for (std::size_t k = 0; k < row.size(); ++k) {
            const double capacity = r.links[r.binLinks[firstColumnOfClass[k]]].bytesPerCycle;
            classUtilization[k] = static_cast<float>(row[k] / (capacity * r.binCycles));
        }
        std::vector<float>& out = r.linkUtilizationBins[b];
        out.resize(r.binLinks.size());
        for (std::size_t c = 0; c < out.size(); ++c)
            out[c] = classUtilization[classOfColumn[c]];
    }
}

} // namespace elk::sim::detail
