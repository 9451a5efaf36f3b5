// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QLineF>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>
#include <QString>
#include <Qt>

namespace elk::chip {
struct ChipSpec;
}
namespace elk::sim {
struct LinkInfo;
struct SimResult;
}

namespace elk::widgets {

/// How one link is drawn: a band between neighbouring routers (mesh; each direction on its own side,
/// traffic keeping right), a square cell (a core's ingress or egress port on an all-to-all chip, an
/// HBM stack), or an arrow between two chips' panels (an inter-chip link).
struct LinkShape {
    enum class Form { Band, Cell, Arrow };
    int link = -1; ///< index into SimResult::links
    Form form = Form::Cell;
    QRectF rect; ///< the band or cell; an arrow's bounding box
    QPointF from, to; ///< band and arrow: direction of travel (centre line)
    QPolygonF polygon; ///< arrow outline
    bool cell() const { return form == Form::Cell; }
    QPointF centre() const { return rect.center(); }
};

struct LinkMapLabel {
    QPointF at; ///< anchor in map coordinates
    QString text;
    bool title = true; ///< a chip's title (bold) rather than a caption
    Qt::Alignment alignment = Qt::AlignHCenter | Qt::AlignBottom; ///< of the text box at `at`
    bool vertical = false; ///< rotated to read upwards (row labels)
};

/// Where everything of a link heatmap sits, in map coordinates: one unit per router (mesh) or per
/// cell (all-to-all), y growing downwards (router row 0 at the top). Mesh chips are panels in a
/// near-square grid in snake order (chip c + 1 always beside or below chip c) with their HBM stacks
/// on the left; all-to-all chips are columns (ingress grid above egress grid above the HBM stacks)
/// side by side. Each inter-chip link is an arrow across the gap between its two chips.
struct LinkMapLayout {
    bool mesh = false;
    std::vector<LinkShape> shapes;
    std::vector<int> shapeOfLink; ///< by link: index into shapes, -1 when not drawn
    std::vector<QRectF> routers; ///< mesh routers (drawn neutral)
    std::vector<LinkMapLabel> labels;
    QRectF bounds; ///< everything, labels included
    double routerSize = 0.44; ///< side of a router square in map units

    /// The shape under `point` (one containing it, else the nearest within `tolerance` map units), or -1.
    int shapeAt(const QPointF& point, double tolerance) const;
};

/// An arrow from `a` to `b`: a shaft `halfWidth` each side of the line and a head twice as wide.
QPolygonF arrowPolygon(const QPointF& a, const QPointF& b, double halfWidth);

/// Columns of a near-square grid holding `count` cells (ceil of the square root).
int foldedColumns(int count);

/// Lays out the links of one simulation of `chip` (its topology, mesh size, chip count).
LinkMapLayout layoutLinkMap(const std::vector<sim::LinkInfo>& links, const chip::ChipSpec& chip);

/// Utilisation (0–1) of every link, by link index: over the whole run when `bin` < 0 (bytes carried
/// ÷ capacity × latency), else in that time bin (links the bin does not list carried nothing).
std::vector<float> linkUtilization(const sim::SimResult& sim, int bin);
/// One link's utilisation (0–1) in every time bin.
std::vector<float> linkUtilizationOverTime(const sim::SimResult& sim, int link);
/// Number of time bins of the simulation.
int binCount(const sim::SimResult& sim);

} // namespace elk::widgets
