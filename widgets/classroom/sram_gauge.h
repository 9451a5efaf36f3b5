// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QColor>
#include <QString>
#include <QWidget>

#include "widgets/classroom/classroom_events.h"

namespace elk::widgets {

/// One part of the SRAM gauge, left to right: execute, preload, reserved, free.
struct GaugeSegment {
    QString name; ///< "execute", "preload", "reserved", "free"
    qint64 bytes = 0;
    double fraction = 0; ///< of the bar's width; the four add up to 1
    QColor color;
};

/// The four parts of `sram` (fractions of the capacity, or of the use should it ever exceed it).
std::vector<GaugeSegment> sramGaugeSegments(const ClassroomSram& sram);

/// SRAM per core at one instant as a stacked bar (execute / preload / reserved / free) with a legend
/// line that names each part's size: readable from the back of a classroom.
class SramGauge : public QWidget {
    Q_OBJECT
public:
    explicit SramGauge(QWidget* parent = nullptr);

    void setSram(const ClassroomSram& sram);
    void clear();
    const std::vector<GaugeSegment>& segments() const { return m_segments; }
    /// The legend line, e.g. "execute 3.1 MiB · preload 4.2 MiB · reserved 12 KiB · free 0.8 MiB of 8.0 MiB".
    QString legendText() const;
    /// What the gauge says before its design's first step (no SRAM state yet).
    static QString notStartedText();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int barHeight() const;

    ClassroomSram m_sram;
    std::vector<GaugeSegment> m_segments;
};

} // namespace elk::widgets
