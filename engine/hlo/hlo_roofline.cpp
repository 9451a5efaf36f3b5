// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hlo/hlo_estimator.h"
#include "engine/hlo/hlo_presets.h"

#include <algorithm>
#include <utility>

namespace elk::hlo {

namespace {

    class RooflineEstimator final : public ComputeEstimator {
    public:
        explicit RooflineEstimator(DevicePreset device)
            : m_device(std::move(device))
            , m_hash(deviceHash(m_device))
        {
        }

        std::string name() const override { return "roofline"; }
        // 2: per-kernel boundary bytes, transcendental rate, efficiency factors and launch overhead.
        std::string version() const override { return "2"; }
        std::string hardwareHash() const override { return m_hash; }
        bool supports(const Kernel& kernel, const HloProgram&) const override
        {
            return kernel.opClass == OpClass::Compute;
        }

        std::vector<KernelEstimate> estimate(const HloProgram&, const FusionResult& fusion,
            const std::vector<std::uint32_t>& kernels, RunControl&) override
        {
            std::vector<KernelEstimate> out;
            out.reserve(kernels.size());
            for (std::uint32_t index : kernels)
                out.push_back(estimateOne(index, fusion.kernels.at(index)));
            return out;
        }

    private:
        KernelEstimate estimateOne(std::uint32_t index, const Kernel& kernel) const
        {
            const double peak = peakFlopsPerSecond(m_device, kernel.peakType, kernel.matrixUnit)
                * std::max(1e-6, m_device.computeEfficiency);
            const double bandwidth = m_device.memoryBandwidthGBps * 1e9 * std::max(1e-6, m_device.memoryEfficiency);
            const double computeSeconds = peak > 0 ? kernel.flops / peak : 0;
            const double memorySeconds = bandwidth > 0 ? kernel.bytes / bandwidth : 0;
            // Special functions run on their own units where the device names a rate; otherwise they
            // are charged as vector FLOPs at the fallback rate.
            const double transcendentalRate = m_device.transcendentalTeraPerSecond > 0
                ? m_device.transcendentalTeraPerSecond * 1e12
                : m_device.fallbackTflops * 1e12;
            const double transcendentalSeconds
                = transcendentalRate > 0 ? kernel.transcendentals / transcendentalRate : 0;
            KernelEstimate estimate;
            estimate.kernel = index;
            estimate.computeBound = computeSeconds + transcendentalSeconds >= memorySeconds;
            estimate.seconds
                = std::max(computeSeconds + transcendentalSeconds, memorySeconds) + m_device.kernelLaunchMicros * 1e-6;
            estimate.estimator = name();
            return estimate;
        }

        DevicePreset m_device;
        std::string m_hash;
    };

} // namespace

std::unique_ptr<ComputeEstimator> makeRooflineEstimator(const DevicePreset& device)
{
    return std::make_unique<RooflineEstimator>(device);
}

EstimatorResult makeEstimator(const std::string& spec, const DevicePreset& device)
{
    EstimatorResult result;
    if (spec == "roofline") {
        result.estimator = makeRooflineEstimator(device);
        return result;
    }
    if (spec.rfind("table:", 0) == 0)
        return makeTableEstimator(spec.substr(6));
    if (spec.rfind("icca:", 0) == 0) {
        std::string chip = spec.substr(5);
        std::string design = "elk-full";
        if (const auto comma = chip.find(",design="); comma != std::string::npos) {
            design = chip.substr(comma + 8);
            chip.resize(comma);
        }
        if (chip.empty()) {
            result.error = "estimator '" + spec + "': expected a chip preset or file after 'icca:'";
            return result;
        }
        return makeIccaEstimator(chip, design);
    }
    result.error = "unknown estimator '" + spec + "': expected roofline, table:CSV or icca:CHIP";
    return result;
}

} // namespace elk::hlo
