// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/sim/bound_gap.h"

#include <algorithm>
#include <cstdio>

namespace elk::sim {

const char* toString(FloorKind kind)
{
    switch (kind) {
    case FloorKind::Hbm:
        return "hbm";
    case FloorKind::Compute:
        return "compute";
    case FloorKind::Link:
        return "link";
    }
    return "?";
}

namespace {
    struct CauseNames {
        const char* key;
        const char* label;
    };
    constexpr CauseNames kCauseNames[kGapCauseCount] = {
        { "sram-full-wait", "preload held: SRAM full" },
        { "dependency-wait", "waiting for a preload" },
        { "interconnect-contention", "interconnect contention" },
        { "sram-port-contention", "SRAM-port contention" },
        { "warmup", "warm-up" },
        { "shift", "rotation shifts" },
        { "reduction", "reduction" },
        { "preload-path", "preload path" },
        { "compute-bound", "floor idle, computing" },
        { "compute-efficiency", "compute below peak" },
    };
} // namespace

const char* toString(GapCause cause)
{
    return kCauseNames[int(cause)].key;
}

const char* describe(GapCause cause)
{
    return kCauseNames[int(cause)].label;
}

} // namespace elk::sim

namespace elk::sim::detail {

BoundGapRecorder::BoundGapRecorder(const Topology& topology, const TrafficBuilder& traffic,
    const schedule::ScheduleProblem& problem, const std::vector<StepPlan>& plans, bool separatePlanes)
    : m_traffic(traffic)
    , m_plans(plans)
    , m_separatePlanes(separatePlanes)
    , m_bytesOnLink(std::size_t(traffic.count()), -1.0)
{
    const std::vector<LinkInfo>& links = topology.links();
    // What the run must move: every phase vector is delivered exactly once. Layers repeat, so count
    // the uses of each distinct vector first and walk its links once.
    std::vector<double> preloadUses(std::size_t(traffic.count()), 0.0), executeUses(std::size_t(traffic.count()), 0.0);
    m_computeWork.assign(plans.size(), 0.0);
    double computeFloor = 0;
    for (std::size_t i = 0; i < plans.size(); ++i) {
        if (plans[i].preload.vector >= 0)
            preloadUses[std::size_t(plans[i].preload.vector)] += 1;
        for (const StageSpec& stage : plans[i].stages)
            if (stage.vector >= 0)
                executeUses[std::size_t(stage.vector)] += 1;
        // A cost model never prices an op below its peak; the clamp keeps u ≤ 1 if one did.
        const double computeCycles = plans[i].stages[Compute].fixedCycles;
        const double peakCycles = std::min(problem.steps[i].peakComputeCycles, computeCycles);
        computeFloor += peakCycles;
        m_computeWork[i] = computeCycles > 0 ? peakCycles / computeCycles : 0.0;
    }
    std::vector<double> preloadBytes(links.size(), 0.0), executeBytes(links.size(), 0.0);
    double hbmBytes = 0;
    for (int id = 0; id < traffic.count(); ++id) {
        const PhaseVector& v = traffic.vector(id);
        for (auto [uses, perLink] : { std::pair { preloadUses[std::size_t(id)], &preloadBytes },
                 std::pair { executeUses[std::size_t(id)], &executeBytes } }) {
            if (uses == 0)
                continue;
            hbmBytes += uses * v.hbmBytes;
            for (std::size_t k = 0; k < v.links.size(); ++k)
                (*perLink)[v.links[k]] += uses * v.bytes[k];
        }
    }
    double hbmCapacity = 0;
    int stacks = 0;
    double linkFloor = 0;
    for (std::size_t l = 0; l < links.size(); ++l) {
        if (links[l].kind == LinkKind::HbmStack) {
            hbmCapacity += links[l].bytesPerCycle;
            ++stacks;
            continue;
        }
        const double bytes
            = separatePlanes ? std::max(preloadBytes[l], executeBytes[l]) : preloadBytes[l] + executeBytes[l];
        const double cycles = bytes / links[l].bytesPerCycle;
        if (cycles > linkFloor) {
            linkFloor = cycles;
            m_link = int(l);
        }
    }
    m_gap.hbmFloorCycles = hbmCapacity > 0 ? hbmBytes / hbmCapacity : 0.0;
    m_gap.computeFloorCycles = computeFloor;
    m_gap.linkFloorCycles = linkFloor;
    char text[160];
    if (m_gap.hbmFloorCycles >= computeFloor && m_gap.hbmFloorCycles >= linkFloor) {
        m_gap.floorKind = FloorKind::Hbm;
        m_gap.floorCycles = m_gap.hbmFloorCycles;
        m_capacity = hbmCapacity;
        std::snprintf(text, sizeof text, "HBM (%d stacks, %.0f B/cycle)", stacks, hbmCapacity);
        m_link = -1;
    } else if (computeFloor >= linkFloor) {
        m_gap.floorKind = FloorKind::Compute;
        m_gap.floorCycles = computeFloor;
        m_preloadFirst = false;
        std::snprintf(text, sizeof text, "compute (%d cores at peak FLOP/cycle)", topology.cores());
        m_link = -1;
    } else {
        const LinkInfo& link = links[std::size_t(m_link)];
        m_gap.floorKind = FloorKind::Link;
        m_gap.floorCycles = linkFloor;
        m_capacity = link.bytesPerCycle;
        m_linkPreloadPlane = preloadBytes[std::size_t(m_link)] >= executeBytes[std::size_t(m_link)];
        m_preloadFirst = m_linkPreloadPlane;
        std::snprintf(text, sizeof text, "%s%s", link.name.c_str(),
            separatePlanes ? (m_linkPreloadPlane ? " (preload plane)" : " (execute plane)") : "");
    }
    m_gap.floorResource = text;
}

double BoundGapRecorder::floorUse(const PipeState& pipe, bool preloadPipe, double dtCycles) const
{
    switch (m_gap.floorKind) {
    case FloorKind::Hbm:
        if (!(m_capacity > 0)) // a chip without HBM stacks: the floor is 0 and every segment a loss
            return 0.0;
        return preloadPipe && pipe.transferring
            ? pipe.rate * dtCycles * m_traffic.vector(pipe.vector).hbmBytes / m_capacity
            : 0.0;
    case FloorKind::Compute:
        return !preloadPipe && pipe.active && !pipe.transferring && pipe.stage == Compute
            ? dtCycles * pipe.fixedSpeed * m_computeWork[std::size_t(pipe.step)]
            : 0.0;
    case FloorKind::Link:
        if (!pipe.transferring || (m_separatePlanes && preloadPipe != m_linkPreloadPlane))
            return 0.0;
        double& bytes = m_bytesOnLink[std::size_t(pipe.vector)];
        if (bytes < 0) {
            const PhaseVector& v = m_traffic.vector(pipe.vector);
            const auto at = std::lower_bound(v.links.begin(), v.links.end(), std::uint32_t(m_link));
            bytes = at != v.links.end() && *at == std::uint32_t(m_link) ? v.bytes[std::size_t(at - v.links.begin())]
                                                                        : 0.0;
        }
        return pipe.rate * dtCycles * bytes / m_capacity;
    }
    return 0.0;
}

GapCause BoundGapRecorder::cause(const PipeState& pre, const PipeState& exe, bool preloadsLeft, bool awaitedHeld) const
{
    // What the execute pipe costs a floor that it does not feed (or, for compute, one it does).
    const auto executeCause = [&] {
        if (exe.contended())
            return GapCause::InterconnectContention;
        switch (exe.stage) {
        case Warmup:
            return GapCause::Warmup;
        case Shift:
            return GapCause::Shift;
        case Reduce:
            return GapCause::Reduction;
        default:
            if (!exe.transferring && exe.fixedSpeed < 1)
                return GapCause::SramPortContention;
            return m_gap.floorKind == FloorKind::Compute ? GapCause::ComputeEfficiency : GapCause::ComputeBound;
        }
    };
    if (m_preloadFirst) {
        // The floor is fed by preloads: the preload pipe's state says why it is not saturated.
        if (pre.active)
            return pre.contended() ? GapCause::InterconnectContention : GapCause::PreloadPath;
        if (preloadsLeft)
            return GapCause::SramFullWait;
        return executeCause(); // nothing left to preload: the tail is the executions'
    }
    if (!exe.active)
        return awaitedHeld ? GapCause::SramFullWait : GapCause::DependencyWait;
    return executeCause();
}

void BoundGapRecorder::segment(
    double nowCycles, double dtCycles, const PipeState& pre, const PipeState& exe, bool preloadsLeft, bool awaitedHeld)
{
    if (!(dtCycles > 0))
        return;
    const double used = floorUse(pre, true, dtCycles) + floorUse(exe, false, dtCycles);
    const double loss = dtCycles - used;
    GapPart& part = m_gap.parts[std::size_t(cause(pre, exe, preloadsLeft, awaitedHeld))];
    part.lossCycles += loss;
    part.durationCycles += dtCycles;
    if (loss <= 1e-9 * dtCycles)
        return;
    const double end = nowCycles + dtCycles;
    if (!part.intervals.empty() && part.intervals.back().endCycles >= nowCycles - 1e-9 * std::max(1.0, nowCycles))
        part.intervals.back().endCycles = end;
    else
        part.intervals.push_back({ nowCycles, end });
}

} // namespace elk::sim::detail
