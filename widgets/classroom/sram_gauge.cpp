// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/classroom/sram_gauge.h"

#include <algorithm>

#include <QFontMetrics>
#include <QPainter>

#include "widgets/classroom/classroom_colors.h"

namespace elk::widgets {

std::vector<GaugeSegment> sramGaugeSegments(const ClassroomSram& sram)
{
    std::vector<GaugeSegment> segments = {
        { QStringLiteral("execute"), sram.executeBytes, 0, classroomExecuteColor() },
        { QStringLiteral("preload"), sram.preloadBytes, 0, classroomPreloadColor() },
        { QStringLiteral("reserved"), sram.reservedBytes, 0, QColor::fromRgb(0x999999) },
        { QStringLiteral("free"), sram.freeBytes(), 0, QColor(Qt::white) },
    };
    const double total = double(std::max(sram.capacityBytes, sram.usedBytes()));
    for (GaugeSegment& segment : segments)
        segment.fraction = total > 0 ? double(segment.bytes) / total : (segment.name == QLatin1String("free") ? 1 : 0);
    return segments;
}

SramGauge::SramGauge(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    clear();
}

void SramGauge::setSram(const ClassroomSram& sram)
{
    m_sram = sram;
    m_segments = sramGaugeSegments(sram);
    update();
}

void SramGauge::clear()
{
    setSram(ClassroomSram {});
}

QString SramGauge::legendText() const
{
    if (m_sram.capacityBytes <= 0)
        return notStartedText();
    QStringList parts;
    for (const GaugeSegment& segment : m_segments)
        parts << segment.name + QLatin1Char(' ') + QString::fromStdString(formatBytes(segment.bytes));
    return parts.join(QStringLiteral(" · ")) + QStringLiteral(" of ")
        + QString::fromStdString(formatBytes(m_sram.capacityBytes));
}

QString SramGauge::notStartedText()
{
    return QStringLiteral("SRAM per core: shown from this design's first step");
}

int SramGauge::barHeight() const
{
    return QFontMetrics(font()).height() + 4;
}

QSize SramGauge::sizeHint() const
{
    const QFontMetrics metrics(font());
    return { metrics.horizontalAdvance(legendText()) + 6 * metrics.height(), barHeight() + metrics.height() + 6 };
}

QSize SramGauge::minimumSizeHint() const
{
    const QFontMetrics metrics(font());
    return { 20 * metrics.height(), barHeight() + metrics.height() + 6 };
}

void SramGauge::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QFontMetrics metrics(font());
    const QRect bar(0, 0, width() - 1, barHeight());
    // Before the design's first step there is no SRAM state: say so rather than "free 0 B (of 0 B)".
    if (m_sram.capacityBytes <= 0) {
        painter.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
        painter.drawRect(bar);
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(bar, Qt::AlignCenter, notStartedText());
        return;
    }
    // The bar: one rectangle per part, proportional to its bytes.
    double x = bar.left();
    for (const GaugeSegment& segment : m_segments) {
        const double w = segment.fraction * bar.width();
        if (w <= 0)
            continue;
        painter.fillRect(QRectF(x, bar.top(), w, bar.height()), segment.color);
        // The percentage inside the part when it fits (the class reads "61 %" like the caption says).
        const QString percent = QStringLiteral("%1 %").arg(qRound(segment.fraction * 100));
        if (segment.name != QLatin1String("free") && metrics.horizontalAdvance(percent) + 8 < w) {
            painter.setPen(segment.color.lightnessF() < 0.5 ? QColor(Qt::white) : QColor(Qt::black));
            painter.drawText(QRectF(x, bar.top(), w, bar.height()), Qt::AlignCenter, percent);
        }
        x += w;
    }
    painter.setPen(QPen(Qt::black, 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);

    // The legend line: a swatch and "name size" per part.
    const int swatch = metrics.ascent() - 2;
    int lx = 0;
    const int baseline = bar.bottom() + 4 + metrics.ascent();
    for (const GaugeSegment& segment : m_segments) {
        const QString text = segment.name + QLatin1Char(' ') + QString::fromStdString(formatBytes(segment.bytes));
        painter.fillRect(QRect(lx, baseline - swatch, swatch, swatch), segment.color);
        painter.setPen(QPen(Qt::black, 1));
        painter.drawRect(QRect(lx, baseline - swatch, swatch, swatch));
        lx += swatch + metrics.horizontalAdvance(QLatin1Char(' ')) / 2 + 2;
        painter.drawText(lx, baseline, text);
        lx += metrics.horizontalAdvance(text) + metrics.height();
    }
    painter.drawText(lx, baseline,
        QStringLiteral("(of %1 per core)").arg(QString::fromStdString(formatBytes(m_sram.capacityBytes))));
}

} // namespace elk::widgets
