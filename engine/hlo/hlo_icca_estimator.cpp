// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The ICCA estimator: a compute region's ops, lowered to the Graph IR, compiled by the Elk
// partitioner and scheduler for one chip and run through the event-driven simulator.
#include "engine/chip/chip_spec_json.h"
#include "engine/core/sha256.h"
#include "engine/cost/tile_cost.h"
#include "engine/hlo/hlo_estimator.h"
#include "engine/hlo/hlo_icca_lowering.h"
#include "engine/run/run_compile.h"
#include "engine/schedule/schedule.h"

#include <algorithm>
#include <array>
#include <map>

namespace elk::hlo {

namespace {

    // Elements per second the whole chip streams through an elementwise op, from its own tile cost
    // model (one 4096-element f32 add per core), so ops without a Graph IR form are priced from
    // the same model as the rest.
    double streamingElementsPerSecond(const chip::ChipSpec& chip, const cost::TileCostModel& costModel)
    {
        model::TensorExpr add;
        add.kind = model::OpKind::Elementwise;
        add.dimExtents = { 4096 };
        for (int i = 0; i < 3; ++i)
            add.operands.push_back(
                model::Operand { { model::Axis::loop(0) }, model::DType::F32, model::TensorRole::Activation });
        const std::array<std::int64_t, 1> tile { 4096 };
        const double cycles = costModel.tileCycles(add, tile);
        return cycles > 0 ? 4096.0 / cycles * chip.clockHz * double(chip.totalCores()) : 0;
    }

    class IccaEstimator final : public ComputeEstimator {
    public:
        IccaEstimator(std::string chipName, chip::ChipSpec chip, schedule::Design design, double streamingRate)
            : m_chipName(std::move(chipName))
            , m_chip(std::move(chip))
            , m_design(design)
            , m_streamingElementsPerSecond(streamingRate)
            , m_hash(sha256Hex(chip::chipSpecToJson(m_chip) + "\ndesign=" + schedule::toString(design)))
        {
        }

        std::string name() const override { return "icca:" + m_chipName; }
        std::string version() const override { return "1"; }
        std::string hardwareHash() const override { return m_hash; }
        bool supports(const Kernel& kernel, const HloProgram&) const override
        {
            return kernel.opClass == OpClass::Compute;
        }

        std::vector<KernelEstimate> estimate(const HloProgram& program, const FusionResult& fusion,
            const std::vector<std::uint32_t>& kernels, RunControl& control) override
        {
            std::vector<std::uint32_t> flatOps;
            std::map<std::uint32_t, std::size_t> slotOfFlatOp;
            std::vector<KernelEstimate> out;
            for (std::uint32_t k : kernels) {
                KernelEstimate estimate;
                estimate.kernel = k;
                estimate.estimator = name();
                for (std::uint32_t op : fusion.kernels.at(k).ops) {
                    flatOps.push_back(op);
                    slotOfFlatOp[op] = out.size();
                }
                out.push_back(estimate);
            }
            std::sort(flatOps.begin(), flatOps.end());
            LoweredRegion lowered = lowerToGraph(program, flatOps);
            std::vector<std::uint32_t> streamed = lowered.notLowered;
            if (!lowered.flatOpOfGraphOp.empty()) {
                std::string why;
                if (!simulate(lowered, slotOfFlatOp, out, control, why)) {
                    if (control.stopRequested())
                        return {};
                    streamed = flatOps; // the chip cannot run the region as lowered: price it all by streaming
                    for (KernelEstimate& estimate : out) {
                        estimate.seconds = 0;
                        estimate.note = why;
                    }
                }
            }
            std::vector<bool> simulatedSlot(out.size(), false);
            if (streamed.size() != flatOps.size())
                for (std::uint32_t op : lowered.flatOpOfGraphOp)
                    simulatedSlot[slotOfFlatOp.at(op)] = true;
            for (std::uint32_t op : streamed) {
                const std::size_t slot = slotOfFlatOp.at(op);
                KernelEstimate& estimate = out[slot];
                estimate.seconds += streamingSeconds(program.ops[op].cost);
                // Kernels with simulated and streamed ops say both.
                estimate.estimator = name() + (simulatedSlot[slot] ? "+streaming" : "/streaming");
                if (estimate.note.empty())
                    estimate.note = "no Graph IR form for " + program.ops[op].op->name + ": priced as streaming";
            }
            return out;
        }

    private:
        // Runs the lowered ops through compile → schedule → simulate; splits the simulated time over
        // the ops by execute end times (each op owns the time since the previous op finished).
        bool simulate(const LoweredRegion& lowered, const std::map<std::uint32_t, std::size_t>& slotOfFlatOp,
            std::vector<KernelEstimate>& out, RunControl& control, std::string& why)
        {
            if (const auto problems = lowered.graph.validate(); !problems.empty()) {
                why = "lowered graph: " + model::toString(problems.front());
                return false;
            }
            run::RunSpec spec;
            spec.model.path = "hlo-region";
            spec.model.format = "elk-graph";
            spec.chip = m_chip;
            spec.phase = run::Phase::Train;
            spec.designs = { schedule::toString(m_design) };
            spec.options.preloadIngressGBpsPerCore = m_chip.interconnect.linkBandwidthGBpsPerCore;
            run::LoadedModel model;
            model.graph = lowered.graph;
            model.description = "StableHLO region";
            const run::CompileResult compiled = run::compileLoadedModel(std::move(model), spec, control, 1);
            if (!compiled.ok()) {
                why = compiled.errors.empty() ? "compile stopped" : compiled.errors.front();
                return false;
            }
            const run::RunResult result = run::scheduleRun(compiled.compiled, spec, control, 1);
            if (!result.ok() || result.designs.empty() || !result.designs[0].simulated) {
                why = !result.errors.empty()                                      ? result.errors.front()
                    : !result.designs.empty() && !result.designs[0].error.empty() ? result.designs[0].error
                                                                                  : "no simulated schedule";
                return false;
            }
            const sim::SimResult& sim = *result.designs[0].simulated;
            const auto& steps = result.problemOf(result.designs[0]).steps;
            const auto& order = compiled.compiled->analysis.order;
            double previousEnd = 0;
            for (std::size_t s = 0; s < sim.steps.size() && s < steps.size(); ++s) {
                const double end = std::max(previousEnd, sim.steps[s].execute.endCycles);
                const model::OpId graphOp = order.at(std::size_t(steps[s].graphStep));
                const std::uint32_t flatOp = lowered.flatOpOfGraphOp.at(graphOp);
                out[slotOfFlatOp.at(flatOp)].seconds += (end - previousEnd) / sim.clockHz;
                previousEnd = end;
            }
            // Whatever follows the last execute (write-back) belongs to the last op.
            if (!sim.steps.empty() && sim.latencyCycles > previousEnd) {
                const model::OpId graphOp = order.at(std::size_t(steps[sim.steps.size() - 1].graphStep));
                out[slotOfFlatOp.at(lowered.flatOpOfGraphOp.at(graphOp))].seconds
                    += (sim.latencyCycles - previousEnd) / sim.clockHz;
            }
            return true;
        }

        double streamingSeconds(const OpCost& cost) const
        {
            const double hbm = m_chip.totalHbmBandwidthGBps() * 1e9;
            const double memory = hbm > 0 ? cost.bytes() / hbm : 0;
            const double elements = cost.flops + cost.transcendentals;
            const double compute = m_streamingElementsPerSecond > 0 ? elements / m_streamingElementsPerSecond : 0;
            return std::max(memory, compute);
        }

        std::string m_chipName;
        chip::ChipSpec m_chip;
        schedule::Design m_design;
        double m_streamingElementsPerSecond = 0;
        std::string m_hash;
    };

} // namespace

EstimatorResult makeIccaEstimator(const std::string& chipPresetOrPath, const std::string& design)
{
    EstimatorResult result;
    const auto chosen = schedule::designFromString(design);
    if (!chosen) {
        result.error = "icca:" + chipPresetOrPath + ": unknown design '" + design
            + "' (expected basic, static, elk-dyn, elk-full or ideal)";
        return result;
    }
    const run::ChipResolveResult chip = run::resolveChip(chipPresetOrPath, {});
    if (!chip.ok()) {
        result.error
            = "icca:" + chipPresetOrPath + ": " + chip.errors.front().field + ": " + chip.errors.front().message;
        return result;
    }
    const cost::TileCostModelResult costModel = cost::makeTileCostModel(chip.spec);
    if (!costModel.ok()) {
        result.error = "icca:" + chipPresetOrPath + ": " + costModel.error;
        return result;
    }
    std::string shortName = chipPresetOrPath;
    if (const auto slash = shortName.find_last_of('/'); slash != std::string::npos)
        shortName = shortName.substr(slash + 1);
    result.estimator = std::make_unique<IccaEstimator>(
        shortName, chip.spec, *chosen, streamingElementsPerSecond(chip.spec, *costModel.model));
    return result;
}

} // namespace elk::hlo
