// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/hlo/hlo_roofline_data.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <QObject>

#include "engine/hlo/hlo_run.h"

namespace elk::widgets {

namespace {

    double decadeBelow(double value)
    {
        return std::pow(10.0, std::floor(std::log10(value) + 1e-9));
    }

    double decadeAbove(double value)
    {
        return std::pow(10.0, std::ceil(std::log10(value) - 1e-9));
    }

    /// Roofs of one device: a flat line per distinct peak among the kernels' element types.
    void addRoofs(HloRooflineData& data, int group, const elk::hlo::HloRunResult& result)
    {
        const elk::hlo::DevicePreset& device = result.device;
        const double computeEfficiency = device.computeEfficiency > 0 ? device.computeEfficiency : 1;
        const double memoryEfficiency = device.memoryEfficiency > 0 ? device.memoryEfficiency : 1;
        std::map<std::string, double> flopsByType;
        for (const elk::hlo::KernelPoint& kernel : result.kernels) {
            if (hasRooflinePoint(kernel))
                flopsByType[kernel.peakType.empty() ? std::string("f32") : kernel.peakType]
                    += kernel.flops * kernel.executions;
        }
        if (flopsByType.empty())
            return;
        const auto dominant = std::max_element(
            flopsByType.begin(), flopsByType.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        std::vector<std::pair<QString, double>> peaks; // type, peak FLOP/s
        for (const auto& [type, flops] : flopsByType) {
            peaks.emplace_back(QString::fromStdString(type), elk::hlo::peakFlopsPerSecond(device, type, false));
            // f32 matmuls run on tensor cores at the TF32 rate on such devices: their roof too.
            if (type == "f32" && device.f32MatmulUsesTf32)
                peaks.emplace_back(QStringLiteral("tf32"), elk::hlo::peakFlopsPerSecond(device, type, true));
        }
        const double dominantPeak = elk::hlo::peakFlopsPerSecond(
            device, dominant->first, dominant->first == "f32" && device.f32MatmulUsesTf32);
        std::vector<HloRoof> roofs;
        for (const auto& [type, peak] : peaks) {
            if (!(peak > 0))
                continue;
            auto same = std::find_if(roofs.begin(), roofs.end(),
                [&](const HloRoof& roof) { return roof.peakFlopsPerSecond == peak * computeEfficiency; });
            if (same != roofs.end()) {
                if (!same->types.contains(type))
                    same->types << type;
                continue;
            }
            HloRoof roof;
            roof.group = group;
            roof.device = QString::fromStdString(device.displayName.empty() ? device.name : device.displayName);
            roof.deviceId = QString::fromStdString(device.name);
            roof.types << type;
            roof.peakFlopsPerSecond = peak * computeEfficiency;
            roof.bandwidthBytesPerSecond = device.memoryBandwidthGBps * 1e9 * memoryEfficiency;
            roof.dominant = peak == dominantPeak;
            roofs.push_back(std::move(roof));
        }
        std::stable_sort(roofs.begin(), roofs.end(), [](const HloRoof& a, const HloRoof& b) {
            return a.dominant != b.dominant ? a.dominant : a.peakFlopsPerSecond > b.peakFlopsPerSecond;
        });
        data.roofs.insert(data.roofs.end(), roofs.begin(), roofs.end());
    }

} // namespace

int HloRooflineData::pointCount(int group) const
{
    return int(
        std::count_if(points.begin(), points.end(), [group](const HloRooflinePoint& p) { return p.group == group; }));
}

bool hasRooflinePoint(const elk::hlo::KernelPoint& kernel)
{
    return kernel.flops > 0 && kernel.bytes > 0 && kernel.seconds > 0 && std::isfinite(kernel.flops / kernel.seconds);
}

double rooflineMarkerDiameter(double timeShare, double largestShare)
{
    if (!(largestShare > 0) || !(timeShare > 0))
        return 3;
    return 3 + 10 * std::sqrt(std::clamp(timeShare / largestShare, 0.0, 1.0));
}

HloRooflineData buildHloRoofline(const HloResults& results)
{
    HloRooflineData data;
    for (const HloResultPtr& result : results) {
        if (!result || !result->ok())
            continue;
        const bool any = std::any_of(result->kernels.begin(), result->kernels.end(), hasRooflinePoint);
        if (!any)
            continue;
        data.groups.push_back(result);
        data.labels << hloResultLabel(*result);
    }
    QStringList devices;
    for (int g = 0; g < int(data.groups.size()); ++g) {
        const elk::hlo::HloRunResult& result = *data.groups[std::size_t(g)];
        double total = 0;
        for (const elk::hlo::KernelPoint& kernel : result.kernels)
            total += kernel.seconds * kernel.executions;
        for (std::size_t k = 0; k < result.kernels.size(); ++k) {
            const elk::hlo::KernelPoint& kernel = result.kernels[k];
            if (!hasRooflinePoint(kernel))
                continue;
            HloRooflinePoint point;
            point.group = g;
            point.kernel = int(k);
            point.intensity = kernel.flops / kernel.bytes;
            point.flopsPerSecond = kernel.flops / kernel.seconds;
            point.timeShare = total > 0 ? kernel.seconds * kernel.executions / total : 0;
            data.points.push_back(point);
        }
        // One set of roofs per device (and efficiency): two estimators on one system share it.
        const QString deviceKey = QString::fromStdString(result.device.name) + QLatin1Char('/')
            + QString::number(result.device.computeEfficiency) + QLatin1Char('/')
            + QString::number(result.device.memoryEfficiency);
        if (!devices.contains(deviceKey)) {
            devices << deviceKey;
            addRoofs(data, g, result);
        }
    }
    data.sharedDevice = devices.size() <= 1;
    if (data.points.empty())
        return data;

    double xMin = 1e300, xMax = 0, yMin = 1e300, yMax = 0;
    for (const HloRooflinePoint& point : data.points) {
        xMin = std::min(xMin, point.intensity);
        xMax = std::max(xMax, point.intensity);
        yMin = std::min(yMin, point.flopsPerSecond);
        yMax = std::max(yMax, point.flopsPerSecond);
    }
    for (const HloRoof& roof : data.roofs) {
        yMax = std::max(yMax, roof.peakFlopsPerSecond);
        xMax = std::max(xMax, roof.ridgeIntensity() * 3);
    }
    data.xLower = decadeBelow(xMin / 1.2);
    data.xUpper = decadeAbove(xMax * 1.5);
    data.yLower = decadeBelow(yMin / 1.2);
    // Room above the highest roof for its label (0.7 decades; not rounded up to a whole empty decade).
    data.yUpper = yMax * 5;
    return data;
}

QString hloKernelToolTip(const HloRooflineData& data, int index)
{
    if (index < 0 || std::size_t(index) >= data.points.size())
        return {};
    const HloRooflinePoint& point = data.points[std::size_t(index)];
    const elk::hlo::HloRunResult& result = *data.groups[std::size_t(point.group)];
    const elk::hlo::KernelPoint& kernel = result.kernels[std::size_t(point.kernel)];
    QStringList lines;
    lines << QString::fromStdString(kernel.label)
          << QObject::tr("estimator: %1 · %2-bound")
                 .arg(QString::fromStdString(kernel.estimator),
                     kernel.computeBound ? QObject::tr("compute") : QObject::tr("memory"));
    if (kernel.executions != 1)
        lines << QObject::tr("%1 per execution × %2 = %3 (%4 % of compute)")
                     .arg(hloSecondsText(kernel.seconds))
                     .arg(kernel.executions, 0, 'g', 6)
                     .arg(hloSecondsText(kernel.seconds * kernel.executions))
                     .arg(point.timeShare * 100, 0, 'f', 1);
    else
        lines << QObject::tr("%1 (%2 % of compute)")
                     .arg(hloSecondsText(kernel.seconds))
                     .arg(point.timeShare * 100, 0, 'f', 1);
    lines << QObject::tr("%1 FLOP/byte, attained %2")
                 .arg(QString::number(point.intensity, 'g', 3), hloRateText(point.flopsPerSecond))
          << QObject::tr("%1, %2 per execution (%3)")
                 .arg(hloFlopsText(kernel.flops), hloBytesText(kernel.bytes), QString::fromStdString(kernel.peakType))
          << data.labels[point.group];
    return lines.join(QLatin1Char('\n'));
}

} // namespace elk::widgets
