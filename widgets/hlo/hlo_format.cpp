// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/hlo/hlo_format.h"

#include <array>
#include <cmath>

#include "engine/hlo/hlo_run.h"
#include "widgets/plots/figure_style.h"

namespace elk::widgets {

namespace {

    /// `value` with an SI prefix and 3 significant digits: "12.3 G" + unit.
    QString siText(double value, const QString& unit)
    {
        if (!std::isfinite(value))
            return QStringLiteral("–");
        if (value == 0)
            return QStringLiteral("0 ") + unit;
        static constexpr std::array<const char*, 7> kPrefixes { "", "k", "M", "G", "T", "P", "E" };
        double scaled = std::abs(value);
        std::size_t prefix = 0;
        while (scaled >= 999.5 && prefix + 1 < kPrefixes.size()) {
            scaled /= 1000;
            ++prefix;
        }
        const int decimals = scaled >= 99.95 ? 0 : scaled >= 9.995 ? 1 : 2;
        const QString number
            = QString::number(value < 0 ? -scaled : scaled, 'f', prefix == 0 && scaled >= 1 ? 0 : decimals);
        return number + QLatin1Char(' ') + QLatin1String(kPrefixes[prefix]) + unit;
    }

} // namespace

QString hloEstimatorChainText(const elk::hlo::HloRunResult& result)
{
    QStringList names;
    for (const std::string& name : result.estimators)
        names << QString::fromStdString(name);
    return names.isEmpty() ? QStringLiteral("roofline") : names.join(QStringLiteral(" → "));
}

QString hloResultLabel(const elk::hlo::HloRunResult& result)
{
    const QString system = QString::fromStdString(result.systemName.empty() ? result.system.name : result.systemName);
    return (system.isEmpty() ? QStringLiteral("?") : system) + QStringLiteral(" · ") + hloEstimatorChainText(result);
}

QColor hloResultColor(int index)
{
    return paletteColor(index);
}

QString hloSecondsText(double seconds)
{
    if (!std::isfinite(seconds))
        return QStringLiteral("–");
    const double magnitude = std::abs(seconds);
    if (magnitude == 0)
        return QStringLiteral("0 s");
    const auto scaled = [seconds](double factor, const char* unit) -> QString {
        const double value = seconds * factor;
        const double a = std::abs(value);
        const int decimals = a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2;
        return QString::number(value, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(unit);
    };
    if (magnitude < 1e-6)
        return scaled(1e9, "ns");
    if (magnitude < 1e-3)
        return scaled(1e6, "µs");
    if (magnitude < 1)
        return scaled(1e3, "ms");
    return scaled(1, "s");
}

QString hloFlopsText(double flops)
{
    return siText(flops, QStringLiteral("FLOP"));
}

QString hloBytesText(double bytes)
{
    return siText(bytes, QStringLiteral("B"));
}

QString hloRateText(double flopsPerSecond)
{
    return siText(flopsPerSecond, QStringLiteral("FLOP/s"));
}

QString hloBandwidthText(double bytesPerSecond)
{
    return siText(bytesPerSecond, QStringLiteral("B/s"));
}

} // namespace elk::widgets
