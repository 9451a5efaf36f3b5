// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/link_map.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "engine/run/chips.h"
#include "engine/run/results.h"

namespace elk::widgets {

namespace {

    double distanceToRect(const QPointF& p, const QRectF& r)
    {
        const double dx = std::max({ r.left() - p.x(), 0.0, p.x() - r.right() });
        const double dy = std::max({ r.top() - p.y(), 0.0, p.y() - r.bottom() });
        return std::hypot(dx, dy);
    }

    /// Panels per row giving the whole map an aspect ratio near 1.4 (a plot area with a colour bar).
    int panelColumns(int chips, double pitchX, double pitchY)
    {
        int best = 1;
        double bestError = std::numeric_limits<double>::infinity();
        for (int columns = 1; columns <= chips; ++columns) {
            const int rows = (chips + columns - 1) / columns;
            const double error = std::abs(std::log((columns * pitchX) / (rows * pitchY) / 1.4));
            if (error < bestError - 1e-9) {
                best = columns;
                bestError = error;
            }
        }
        return best;
    }

} // namespace

QPolygonF arrowPolygon(const QPointF& a, const QPointF& b, double halfWidth)
{
    const double length = std::hypot(b.x() - a.x(), b.y() - a.y());
    const QPointF d = length > 0 ? (b - a) / length : QPointF(1, 0);
    const QPointF n(-d.y(), d.x());
    const double head = std::min(length * 0.5, 2.2 * halfWidth);
    const QPointF base = b - d * head;
    return QPolygonF({ a + n * halfWidth, base + n * halfWidth, base + n * (2 * halfWidth), b,
        base - n * (2 * halfWidth), base - n * halfWidth, a - n * halfWidth });
}

int LinkMapLayout::shapeAt(const QPointF& point, double tolerance) const
{
    int best = -1;
    double bestDistance = tolerance;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const LinkShape& shape = shapes[i];
        const double distance = distanceToRect(point, shape.rect);
        if (distance > bestDistance)
            continue;
        if (distance == 0
            && (shape.form != LinkShape::Form::Arrow || shape.polygon.containsPoint(point, Qt::OddEvenFill)))
            return int(i);
        if (distance < bestDistance || best < 0) {
            bestDistance = distance;
            best = int(i);
        }
    }
    return best;
}

int foldedColumns(int count)
{
    if (count <= 0)
        return 1;
    return std::max(1, int(std::ceil(std::sqrt(double(count)) - 1e-9)));
}

namespace {

    /// The arrow of inter-chip link `link` across the gap between two chips' boxes (`lower` holds the
    /// lower-numbered chip): the two directions side by side, `side` apart.
    LinkShape interChipArrow(const sim::LinkInfo& link, const QRectF& lower, const QRectF& upper, double side)
    {
        const bool forward = link.direction != 'W'; // from the lower-numbered chip to the higher
        const double offset = (forward ? 1 : -1) * side / 2;
        QPointF a, b;
        if (std::abs(lower.center().y() - upper.center().y()) < 1e-9) { // beside each other
            const bool rightward = upper.center().x() > lower.center().x();
            const double x0 = rightward ? lower.right() : lower.left();
            const double x1 = rightward ? upper.left() : upper.right();
            const double y
                = (std::max(lower.top(), upper.top()) + std::min(lower.bottom(), upper.bottom())) / 2 + offset;
            a = QPointF(x0 + (x1 - x0) * 0.15, y);
            b = QPointF(x0 + (x1 - x0) * 0.85, y);
        } else { // one below the other
            const double x = std::min(lower.right(), upper.right()) - 0.15 * lower.width() + offset;
            const double y0 = lower.bottom(), y1 = upper.top();
            a = QPointF(x, y0 + (y1 - y0) * 0.15);
            b = QPointF(x, y0 + (y1 - y0) * 0.85);
        }
        if (!forward)
            std::swap(a, b);
        LinkShape shape;
        shape.form = LinkShape::Form::Arrow;
        shape.from = a;
        shape.to = b;
        shape.polygon = arrowPolygon(a, b, side * 0.22);
        shape.rect = shape.polygon.boundingRect();
        return shape;
    }

    /// Mesh chips: panels of routers in snake order, HBM stacks left of each.
    void layoutMesh(const std::vector<sim::LinkInfo>& links, const chip::ChipSpec& chip, LinkMapLayout& layout)
    {
        const int chips = std::max(1, chip.chips);
        const int stacks = std::max(0, chip.hbm.stacksPerChip);
        const double width = chip.interconnect.meshWidth;
        const double height = chip.interconnect.meshHeight;
        // Gaps, titles and extra cells grow with the chip so they stay visible when it is drawn small.
        const double scale = std::max(1.0, 0.08 * std::max(width, height));
        const double left = stacks > 0 ? 1.6 * scale : 0; // HBM column
        const double top = 1.5 * scale; // title
        const double gap = 1.4 * scale; // holds the inter-chip arrows
        const double pitchX = left + width + gap;
        const double pitchY = top + height + gap;
        const int columns = panelColumns(chips, pitchX, pitchY);
        const auto originOf = [&](int c) {
            const int row = c / columns;
            const int column = row % 2 == 0 ? c % columns : columns - 1 - c % columns;
            return QPointF(left + column * pitchX, top + row * pitchY);
        };
        const auto boxOf = [&](int c) {
            const QPointF o = originOf(c);
            return QRectF(o.x() - left, o.y(), left + width, height);
        };
        const double half = layout.routerSize / 2;
        for (int c = 0; c < chips; ++c) {
            const QPointF o = originOf(c);
            const double titleY = o.y() - 0.2 * scale;
            layout.labels.push_back({ QPointF(o.x() + width / 2, titleY), QStringLiteral("chip %1").arg(c) });
            if (stacks > 0)
                layout.labels.push_back(
                    { QPointF(o.x() - left, titleY), QStringLiteral("HBM"), false, Qt::AlignLeft | Qt::AlignBottom });
            for (int y = 0; y < chip.interconnect.meshHeight; ++y)
                for (int x = 0; x < chip.interconnect.meshWidth; ++x)
                    layout.routers.push_back(
                        QRectF(o.x() + x + 0.5 - half, o.y() + y + 0.5 - half, 2 * half, 2 * half));
        }
        for (std::size_t i = 0; i < links.size(); ++i) {
            const sim::LinkInfo& link = links[i];
            const QPointF o = originOf(std::clamp(link.chip, 0, chips - 1));
            LinkShape shape;
            if (link.kind == sim::LinkKind::MeshLink) {
                // Between the two router squares; the two directions side by side, each on the right of
                // its travel, so a link pair fills the gap and the picture reads as a heatmap when small.
                const double dx = link.direction == 'E' ? 1 : link.direction == 'W' ? -1 : 0;
                const double dy = link.direction == 'S' ? 1 : link.direction == 'N' ? -1 : 0;
                const QPointF centre(o.x() + link.x + 0.5, o.y() + link.y + 0.5);
                const QPointF along(dx, dy);
                const QPointF right(-dy, dx);
                const QPointF a = centre + along * half;
                const QPointF b = centre + along * (1 - half);
                shape.form = LinkShape::Form::Band;
                shape.from = a + right * (half / 2);
                shape.to = b + right * (half / 2);
                shape.rect = QRectF(a, b + right * half).normalized();
            } else if (link.kind == sim::LinkKind::HbmStack) {
                const double size = std::min(0.7 * scale, 0.8 * height / std::max(1, stacks));
                const double centreY = o.y() + (link.stack + 0.5) * height / std::max(1, stacks);
                shape.form = LinkShape::Form::Cell;
                shape.rect = QRectF(o.x() - left / 2 - size / 2, centreY - size / 2, size, size);
            } else if (link.kind == sim::LinkKind::InterChip) {
                const int from = std::clamp(link.chip, 0, chips - 1);
                const int lower = std::clamp(link.direction == 'W' ? from - 1 : from, 0, std::max(0, chips - 2));
                shape = interChipArrow(link, boxOf(lower), boxOf(lower + 1), 0.5 * scale);
            } else {
                continue; // not a mesh link kind
            }
            layout.shapeOfLink[i] = int(layout.shapes.size());
            shape.link = int(i);
            layout.shapes.push_back(std::move(shape));
        }
        const int rows = (chips + columns - 1) / columns;
        layout.bounds = QRectF(0, 0, columns * pitchX - gap, rows * pitchY - gap);
    }

    /// All-to-all chips: one column per chip holding its ingress grid, egress grid and HBM stacks, with
    /// the row names on the left.
    void layoutAllToAll(const std::vector<sim::LinkInfo>& links, const chip::ChipSpec& chip, LinkMapLayout& layout)
    {
        const int chips = std::max(1, chip.chips);
        const int stacks = std::max(0, chip.hbm.stacksPerChip);
        const int columns = foldedColumns(chip.coresPerChip);
        const int rows = (chip.coresPerChip + columns - 1) / columns;
        const double scale = std::max(1.0, 0.08 * std::max(columns, rows));
        const double labels = 1.6 * scale; // rotated row names
        const double top = 1.5 * scale; // chip titles
        const double gapX = 2.0 * scale; // holds the inter-chip arrows
        const double gapY = 0.8 * scale;
        const double hbmCaption = 3.0 * scale;
        const double hbmSize = std::min(1.0 * scale, 0.8 * columns / std::max(1, stacks));
        const double egressTop = top + rows + gapY;
        const double hbmTop = egressTop + rows + hbmCaption;
        const double height = (stacks > 0 ? hbmTop + hbmSize : egressTop + rows) - top;
        const auto x0Of = [&](int c) { return labels + c * (columns + gapX); };
        layout.labels.push_back(
            { QPointF(labels / 2, top + rows / 2.0), QStringLiteral("ingress"), false, Qt::AlignCenter, true });
        layout.labels.push_back(
            { QPointF(labels / 2, egressTop + rows / 2.0), QStringLiteral("egress"), false, Qt::AlignCenter, true });
        for (int c = 0; c < chips; ++c) {
            if (chips > 1)
                layout.labels.push_back(
                    { QPointF(x0Of(c) + columns / 2.0, top - 0.2 * scale), QStringLiteral("chip %1").arg(c) });
            if (stacks > 0)
                layout.labels.push_back({ QPointF(x0Of(c), hbmTop - 0.15 * scale), QStringLiteral("HBM"), false,
                    Qt::AlignLeft | Qt::AlignBottom });
        }
        for (std::size_t i = 0; i < links.size(); ++i) {
            const sim::LinkInfo& link = links[i];
            const int c = std::clamp(link.chip, 0, chips - 1);
            const double x0 = x0Of(c);
            LinkShape shape;
            shape.form = LinkShape::Form::Cell;
            switch (link.kind) {
            case sim::LinkKind::CoreIngress:
            case sim::LinkKind::CoreEgress: {
                const int local = chip.coresPerChip > 0 ? link.core % chip.coresPerChip : link.core;
                const double y0 = link.kind == sim::LinkKind::CoreIngress ? top : egressTop;
                shape.rect = QRectF(x0 + local % columns, y0 + double(local / columns), 1.0, 1.0);
                break;
            }
            case sim::LinkKind::HbmStack: {
                const double pitch = double(columns) / std::max(1, stacks);
                shape.rect = QRectF(x0 + (link.stack + 0.5) * pitch - hbmSize / 2, hbmTop, hbmSize, hbmSize);
                break;
            }
            case sim::LinkKind::InterChip: {
                const int lower = std::clamp(link.direction == 'W' ? c - 1 : c, 0, std::max(0, chips - 2));
                const QRectF box(x0Of(lower), top, columns, height);
                shape = interChipArrow(link, box, box.translated(columns + gapX, 0), 0.8 * scale);
                break;
            }
            case sim::LinkKind::MeshLink:
                continue;
            }
            layout.shapeOfLink[i] = int(layout.shapes.size());
            shape.link = int(i);
            layout.shapes.push_back(std::move(shape));
        }
        layout.bounds = QRectF(0, 0, x0Of(chips) - gapX, top + height);
    }

} // namespace

LinkMapLayout layoutLinkMap(const std::vector<sim::LinkInfo>& links, const chip::ChipSpec& chip)
{
    LinkMapLayout layout;
    layout.shapeOfLink.assign(links.size(), -1);
    layout.mesh = chip.interconnect.topology == chip::Topology::Mesh2d;
    if (layout.mesh)
        layoutMesh(links, chip, layout);
    else
        layoutAllToAll(links, chip, layout);
    QRectF bounds = layout.bounds;
    for (const LinkShape& shape : layout.shapes)
        bounds = bounds.united(shape.rect);
    const double pad = 0.01 * std::max(bounds.width(), bounds.height());
    layout.bounds = bounds.adjusted(-pad, -pad, pad, pad);
    return layout;
}

int binCount(const sim::SimResult& sim)
{
    return int(sim.linkUtilizationBins.size());
}

std::vector<float> linkUtilization(const sim::SimResult& sim, int bin)
{
    std::vector<float> utilization(sim.links.size(), 0.0f);
    if (bin < 0) {
        for (std::size_t i = 0; i < sim.links.size() && i < sim.linkBytes.size(); ++i) {
            const double capacity = sim.links[i].bytesPerCycle * sim.latencyCycles;
            if (capacity > 0)
                utilization[i] = float(sim.linkBytes[i] / capacity);
        }
        return utilization;
    }
    if (std::size_t(bin) >= sim.linkUtilizationBins.size())
        return utilization;
    const std::vector<float>& row = sim.linkUtilizationBins[std::size_t(bin)];
    for (std::size_t j = 0; j < row.size() && j < sim.binLinks.size(); ++j) {
        if (sim.binLinks[j] < utilization.size())
            utilization[sim.binLinks[j]] = row[j];
    }
    return utilization;
}

std::vector<float> linkUtilizationOverTime(const sim::SimResult& sim, int link)
{
    std::vector<float> series(sim.linkUtilizationBins.size(), 0.0f);
    const auto it = std::find(sim.binLinks.begin(), sim.binLinks.end(), std::uint32_t(std::max(0, link)));
    if (link < 0 || it == sim.binLinks.end())
        return series;
    const auto column = std::size_t(it - sim.binLinks.begin());
    for (std::size_t bin = 0; bin < series.size(); ++bin) {
        const auto& row = sim.linkUtilizationBins[bin];
        if (column < row.size())
            series[bin] = row[column];
    }
    return series;
}

} // namespace elk::widgets
