// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to widgets/timeline (includes QCustomPlot): include only from .cpp files, after qcp.h.
#include "widgets/plots/qcp.h"

#include <cmath>

#include "widgets/timeline/timeline_geometry.h"

namespace elk::widgets {

/// Ticks a time axis whose coordinates are cycles, labelled in ns/µs/ms/s picked from the visible
/// span (timeScaleFor), at 1-2-5 steps of that unit.
class TimeAxisTicker : public QCPAxisTicker {
public:
    explicit TimeAxisTicker(double clockHz)
        : m_clockHz(clockHz > 0 ? clockHz : 1e9)
    {
    }
    void setClockHz(double clockHz) { m_clockHz = clockHz > 0 ? clockHz : 1e9; }
    double clockHz() const { return m_clockHz; }
    /// "time (µs)" for the axis showing `range`.
    QString axisLabel(const QCPRange& range) const
    {
        return QStringLiteral("time (%1)").arg(timeScaleFor(range.size(), m_clockHz).unit);
    }

protected:
    double getTickStep(const QCPRange& range) override
    {
        m_scale = timeScaleFor(range.size(), m_clockHz);
        const double stepInUnit = niceStep(range.size() / m_scale.cyclesPerUnit, tickCount());
        m_decimals = decimalsForStep(stepInUnit);
        m_mantissa = stepInUnit / std::pow(10.0, std::floor(std::log10(stepInUnit) + 1e-9));
        return stepInUnit * m_scale.cyclesPerUnit;
    }
    int getSubTickCount(double) override { return m_mantissa > 1.5 && m_mantissa < 3.5 ? 3 : 4; }
    QString getTickLabel(double tick, const QLocale& locale, QChar, int) override
    {
        double value = tick / m_scale.cyclesPerUnit;
        if (std::abs(value) < 1e-9)
            value = 0; // no "-0"
        return locale.toString(value, 'f', m_decimals);
    }

private:
    double m_clockHz;
    TimeScale m_scale { QStringLiteral("µs"), 1 };
    int m_decimals = 0;
    double m_mantissa = 1;
};

} // namespace elk::widgets
