// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/store/payload_codec.h"

#include "engine/store/cbor_payload.h"

namespace elk::store::detail {

namespace {
    // Every field of these structs is named in a mapping below. A new field changes the size: add it to
    // its mapping (one line), then update these numbers. Sizes are those of libstdc++ on x86-64.
#if defined(__GLIBCXX__) && defined(__x86_64__)
    static_assert(sizeof(partition::Plan) == 48 && sizeof(partition::PlanCost) == 56);
    static_assert(sizeof(partition::PreloadEntry) == 40 && sizeof(partition::OpPlans) == 112);
    static_assert(sizeof(run::InputSplit) == 8 && sizeof(run::DesignRun) == 1280);
    static_assert(sizeof(run::SplitChoice) == 48);
    static_assert(sizeof(schedule::StepSchedule) == 104 && sizeof(schedule::Schedule) == 208);
    static_assert(sizeof(schedule::ScheduleMetrics) == 96 && sizeof(schedule::Interval) == 16);
    static_assert(sizeof(sim::StepTrace) == 144 && sizeof(sim::LinkInfo) == 72);
    static_assert(sizeof(sim::CounterSample) == 16 && sizeof(sim::SimResult) == 840);
#endif

    constexpr const char* kPartitionTablesKind = "partition tables";
    constexpr const char* kDesignsKind = "designs";
} // namespace

namespace cbor {

    // ---- enumerations: stored as their number, checked against the last enumerator on reading ----

    template <> struct EnumRange<schedule::Design> {
        static constexpr schedule::Design last = schedule::Design::Ideal;
    };
    template <> struct EnumRange<sim::FloorKind> {
        static constexpr sim::FloorKind last = sim::FloorKind::Link;
    };
    template <> struct EnumRange<sim::LinkKind> {
        static constexpr sim::LinkKind last = sim::LinkKind::InterChip;
    };

    // ---- the mappings: each struct's fields once, by name, for writing and reading alike ----

    template <typename Io> void mapPlan(Io& io, partition::Plan& p)
    {
        io("spatial", p.spatial);
        io("temporal", p.temporal);
    }

    template <typename Io> void mapPlanCost(Io& io, partition::PlanCost& c)
    {
        io("executeBytes", c.executeBytes);
        io("preloadBytes", c.preloadBytes);
        io("iterations", c.iterations);
        io("computeCycles", c.computeCycles);
        io("shiftCycles", c.shiftCycles);
        io("reduceCycles", c.reduceCycles);
        io("partialSumCycles", c.partialSumCycles);
    }

    template <typename Io> void mapPreloadEntry(Io& io, partition::PreloadEntry& e)
    {
        io("preloadBytes", e.preloadBytes);
        io("executeBytes", e.executeBytes);
        io("preloadPlan", e.preloadPlan);
        io("executePlan", e.executePlan);
        io("warmupCycles", e.warmupCycles);
        io("totalCycles", e.totalCycles);
    }

    template <typename Io> void mapOpPlans(Io& io, partition::OpPlans& p)
    {
        io("plans", p.plans);
        io("costs", p.costs);
        io("pareto", p.pareto);
        io("table", p.table);
        io("hbmBytes", p.hbmBytes);
        io("enumeratedPlans", p.enumeratedPlans);
    }

    template <typename Io> void mapInputSplit(Io& io, run::InputSplit& s)
    {
        io("parts", s.parts);
        io("dim", s.dim);
    }

    template <typename Io> void mapPartitionTables(Io& io, run::PartitionTables& t)
    {
        io("plans", t.plans);
        io("splits", t.splits);
        io("inputOfPlanSet", t.inputOfPlanSet);
    }

    template <typename Io> void mapStepSchedule(Io& io, schedule::StepSchedule& s)
    {
        io("tableEntry", s.tableEntry);
        io("preloadBytes", s.preloadBytes);
        io("executeBytes", s.executeBytes);
        io("preload", s.preload);
        io("execute", s.execute);
        io("computeCycles", s.computeCycles);
        io("commCycles", s.commCycles);
        io("warmupCycles", s.warmupCycles);
        io("stallCycles", s.stallCycles);
        io("nocIdleCycles", s.nocIdleCycles);
        io("overlappedPreloads", s.overlappedPreloads);
        io("preloadPosition", s.preloadPosition);
    }

    template <typename Io> void mapOrderSearch(Io& io, schedule::OrderSearch& o)
    {
        io("prefixesVisited", o.prefixesVisited);
        io("validOrders", o.validOrders);
        io("movableOps", o.movableOps);
        io("truncated", o.truncated);
        io("movesFromIdentity", o.movesFromIdentity);
        io("minCycles", o.minCycles);
        io("medianCycles", o.medianCycles);
        io("maxCycles", o.maxCycles);
        io("orderLatencyCycles", o.orderLatencyCycles);
        io("chosenOrder", o.chosenOrder);
    }

    template <typename Io> void mapSchedule(Io& io, schedule::Schedule& s)
    {
        io("design", s.design);
        io("steps", s.steps);
        io("preloadOrder", s.preloadOrder);
        io("latencyCycles", s.latencyCycles);
        io("sramPeakBytesPerCore", s.sramPeakBytesPerCore);
        io("ordersTried", s.ordersTried);
        io("note", s.note);
        io("orders", s.orders);
        io("earlyPreloadRoomBytesPerCore", s.earlyPreloadRoomBytesPerCore);
    }

    template <typename Io> void mapScheduleMetrics(Io& io, schedule::ScheduleMetrics& m)
    {
        io("latencyCycles", m.latencyCycles);
        io("executeCycles", m.executeCycles);
        io("preloadCycles", m.preloadCycles);
        io("overlapCycles", m.overlapCycles);
        io("preloadOnlyCycles", m.preloadOnlyCycles);
        io("executeOnlyCycles", m.executeOnlyCycles);
        io("interconnectStallCycles", m.interconnectStallCycles);
        io("hbmBytes", m.hbmBytes);
        io("hbmUtilization", m.hbmUtilization);
        io("nocUtilization", m.nocUtilization);
        io("flops", m.flops);
        io("flopsPerCycle", m.flopsPerCycle);
    }

    template <typename Io> void mapStepTrace(Io& io, sim::StepTrace& t)
    {
        io("preload", t.preload);
        io("execute", t.execute);
        io("warmup", t.warmup);
        io("compute", t.compute);
        io("shift", t.shift);
        io("reduce", t.reduce);
        io("preloadStallCycles", t.preloadStallCycles);
        io("executeStallCycles", t.executeStallCycles);
        io("waitedFor", t.waitedFor);
    }

    template <typename Io> void mapLinkInfo(Io& io, sim::LinkInfo& l)
    {
        io("kind", l.kind);
        io("bytesPerCycle", l.bytesPerCycle);
        io("chip", l.chip);
        io("core", l.core);
        io("x", l.x);
        io("y", l.y);
        io("direction", l.direction);
        io("stack", l.stack);
        io("name", l.name);
    }

    template <typename Io> void mapCounterSample(Io& io, sim::CounterSample& c)
    {
        io("atCycles", c.atCycles);
        io("value", c.value);
    }

    template <typename Io> void mapGapPart(Io& io, sim::GapPart& p)
    {
        io("lossCycles", p.lossCycles);
        io("durationCycles", p.durationCycles);
        io("intervals", p.intervals);
    }

    template <typename Io> void mapBoundGap(Io& io, sim::BoundGap& g)
    {
        io("floorKind", g.floorKind);
        io("floorResource", g.floorResource);
        io("floorCycles", g.floorCycles);
        io("hbmFloorCycles", g.hbmFloorCycles);
        io("computeFloorCycles", g.computeFloorCycles);
        io("linkFloorCycles", g.linkFloorCycles);
        io("parts", g.parts);
    }

    template <typename Io> void mapSimResult(Io& io, sim::SimResult& s)
    {
        io("clockHz", s.clockHz);
        io("latencyCycles", s.latencyCycles);
        io("steps", s.steps);
        io("stepNames", s.stepNames);
        io("preloadOrder", s.preloadOrder);
        io("maxLinkUtilization", s.maxLinkUtilization);
        io("binCycles", s.binCycles);
        if (io.withDetail()) { // sweeps keep no per-link detail or counter curves
            io("links", s.links);
            io("linkBytes", s.linkBytes);
            io("binLinks", s.binLinks);
            io("linkUtilizationBins", s.linkUtilizationBins);
            io("hbmBytesPerCycle", s.hbmBytesPerCycle);
            io("nocBytesPerCycle", s.nocBytesPerCycle);
            io("sramBytesPerCore", s.sramBytesPerCore);
        }
        io("hbmBytes", s.hbmBytes);
        io("nocBytes", s.nocBytes);
        io("hbmUtilization", s.hbmUtilization);
        io("nocUtilization", s.nocUtilization);
        io("flops", s.flops);
        io("flopsPerCycle", s.flopsPerCycle);
        io("sramPeakBytesPerCore", s.sramPeakBytesPerCore);
        io("overlapCycles", s.overlapCycles);
        io("preloadOnlyCycles", s.preloadOnlyCycles);
        io("executeOnlyCycles", s.executeOnlyCycles);
        io("interconnectStallCycles", s.interconnectStallCycles);
        io("boundGap", s.boundGap);
        io("events", s.events);
    }

    template <typename Io> void mapSplitChoice(Io& io, run::SplitChoice& c)
    {
        io("variantOfInput", c.variantOfInput);
        io("evaluations", c.evaluations);
        io("judge", c.judge);
        io("analyticCycles", c.analyticCycles);
        io("unsplitAnalyticCycles", c.unsplitAnalyticCycles);
    }

    // DesignRun::problem is not stored: run::attachProblems() rebuilds it from `splits`.
    template <typename Io> void mapDesignRun(Io& io, run::DesignRun& d)
    {
        io("design", d.design);
        io("splits", d.splits);
        io("schedule", d.schedule);
        io("metrics", d.metrics);
        io("simulated", d.simulated);
        io("error", d.error);
        io("seconds", d.seconds);
        io("simulateSeconds", d.simulateSeconds);
    }

#define ELK_PAYLOAD_MAPPING(Type, map)                                                                                 \
    void fields(Encoder& io, Type& value)                                                                              \
    {                                                                                                                  \
        map(io, value);                                                                                                \
    }                                                                                                                  \
    void fields(Decoder& io, Type& value)                                                                              \
    {                                                                                                                  \
        map(io, value);                                                                                                \
    }                                                                                                                  \
    void fields(ColumnEncoder& io, Type& value)                                                                        \
    {                                                                                                                  \
        map(io, value);                                                                                                \
    }                                                                                                                  \
    void fields(ColumnDecoder& io, Type& value)                                                                        \
    {                                                                                                                  \
        map(io, value);                                                                                                \
    }
    ELK_PAYLOAD_MAPPING(partition::Plan, mapPlan)
    ELK_PAYLOAD_MAPPING(partition::PlanCost, mapPlanCost)
    ELK_PAYLOAD_MAPPING(partition::PreloadEntry, mapPreloadEntry)
    ELK_PAYLOAD_MAPPING(partition::OpPlans, mapOpPlans)
    ELK_PAYLOAD_MAPPING(run::InputSplit, mapInputSplit)
    ELK_PAYLOAD_MAPPING(run::PartitionTables, mapPartitionTables)
    ELK_PAYLOAD_MAPPING(schedule::StepSchedule, mapStepSchedule)
    ELK_PAYLOAD_MAPPING(schedule::OrderSearch, mapOrderSearch)
    ELK_PAYLOAD_MAPPING(schedule::Schedule, mapSchedule)
    ELK_PAYLOAD_MAPPING(schedule::ScheduleMetrics, mapScheduleMetrics)
    ELK_PAYLOAD_MAPPING(sim::StepTrace, mapStepTrace)
    ELK_PAYLOAD_MAPPING(sim::LinkInfo, mapLinkInfo)
    ELK_PAYLOAD_MAPPING(sim::CounterSample, mapCounterSample)
    ELK_PAYLOAD_MAPPING(sim::GapPart, mapGapPart)
    ELK_PAYLOAD_MAPPING(sim::BoundGap, mapBoundGap)
    ELK_PAYLOAD_MAPPING(sim::SimResult, mapSimResult)
    ELK_PAYLOAD_MAPPING(run::SplitChoice, mapSplitChoice)
    ELK_PAYLOAD_MAPPING(run::DesignRun, mapDesignRun)
#undef ELK_PAYLOAD_MAPPING

} // namespace cbor

std::string encodePartitionTables(const run::PartitionTables& tables)
{
    return cbor::encodePayload(kPartitionTablesKind, tables, true);
}

std::optional<run::PartitionTables> decodePartitionTables(std::string_view payload)
{
    return cbor::decodePayload<run::PartitionTables>(kPartitionTablesKind, payload);
}

std::string encodeDesigns(const std::vector<run::DesignRun>& designs, bool withDetail)
{
    return cbor::encodePayload(kDesignsKind, designs, withDetail);
}

std::optional<std::vector<run::DesignRun>> decodeDesigns(std::string_view payload)
{
    return cbor::decodePayload<std::vector<run::DesignRun>>(kDesignsKind, payload);
}

} // namespace elk::store::detail
