// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/model/quantity_format.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <initializer_list>

namespace elk::widgets {

QString formatBytes(std::int64_t bytes)
{
    if (std::llabs(bytes) < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    static constexpr std::array<const char*, 5> kUnits = { "KiB", "MiB", "GiB", "TiB", "PiB" };
    double value = double(bytes) / 1024.0;
    std::size_t unit = 0;
    // 1023.995 KiB would print as "1024.00 KiB": move to the next unit before rounding gets there.
    while (std::abs(value) >= 1023.995 && unit + 1 < kUnits.size()) {
        value /= 1024.0;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(value, 0, 'f', 2).arg(QLatin1String(kUnits[unit]));
}

QString formatFlops(std::int64_t flops)
{
    const double giga = double(flops) / 1e9;
    if (flops != 0 && std::abs(giga) < 0.01)
        return QStringLiteral("%1 MFLOP").arg(double(flops) / 1e6, 0, 'f', 3);
    return QStringLiteral("%1 GFLOP").arg(giga, 0, 'f', 2);
}

namespace {

    /// `value` scaled by `base` until below 999.5 (so rounding never shows "1000"), with 3 significant digits.
    QString threeDigits(
        std::int64_t value, double base, const char* unit, std::initializer_list<const char*> prefixedUnits)
    {
        if (std::llabs(value) < std::int64_t(base))
            return QStringLiteral("%1 %2").arg(value).arg(QLatin1String(unit));
        double scaled = double(value) / base;
        const char* const* prefixed = prefixedUnits.begin();
        while (std::abs(scaled) >= 999.5 && prefixed + 1 < prefixedUnits.end()) {
            scaled /= base;
            ++prefixed;
        }
        const int decimals = std::abs(scaled) >= 99.95 ? 0 : std::abs(scaled) >= 9.995 ? 1 : 2;
        return QStringLiteral("%1 %2").arg(scaled, 0, 'f', decimals).arg(QLatin1String(*prefixed));
    }

} // namespace

QString formatOpFlops(std::int64_t flops)
{
    return threeDigits(flops, 1000.0, "FLOP", { "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP" });
}

QString formatOpBytes(std::int64_t bytes)
{
    return threeDigits(bytes, 1024.0, "B", { "KiB", "MiB", "GiB", "TiB", "PiB" });
}

QString formatCount(std::int64_t count)
{
    // A fixed separator rather than the locale's, so the panel reads the same everywhere (and in tests).
    QString digits = QString::number(std::llabs(count));
    if (digits.size() > 4) {
        for (qsizetype at = digits.size() - 3; at > 0; at -= 3)
            digits.insert(at, QChar(0x2009)); // thin space
    }
    return count < 0 ? QLatin1Char('-') + digits : digits;
}

} // namespace elk::widgets
