// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <vector>

#include <QPoint>

#include "widgets/plots/diff_plot_view.h"
#include "widgets/timeline/link_map.h"

class QCPColorScale;
class QCPTextElement;

namespace elk::widgets {

class LinkMapPlottable;

/// Δ link heatmap of a diff: every link (mesh) or core port and HBM stack (all-to-all) drawn as in the
/// Links view, coloured by B's bytes over the run minus A's on a diverging scale (blue: B moves fewer
/// bytes there, vermillion: more; light grey: the same), symmetric around 0 in MB. When the two runs
/// do not have the same links (another chip topology) it says so instead.
class DiffLinksView : public DiffPlotView {
    Q_OBJECT
public:
    explicit DiffLinksView(QWidget* parent = nullptr);
    ~DiffLinksView() override;

    QString figureKind() const override { return QStringLiteral("diff-links"); }
    /// A map is drawn (both sides simulated on the same links).
    bool hasData() const override { return m_layout && !m_layout->shapes.empty(); }

    const LinkMapLayout& mapLayout() const;
    /// B's bytes − A's on a link (0 for an unknown link).
    double deltaBytes(int link) const;
    /// Largest |Δ bytes| over the links (the ends of the colour scale).
    double maxAbsDeltaBytes() const { return m_maxAbsDeltaBytes; }
    /// The link drawn at a plot() pixel, or -1; its centre in plot() pixels.
    int linkAt(const QPoint& plotPixel) const;
    QPointF linkCenter(int link) const;
    /// Hover text at a plot() pixel (empty over nothing).
    QString toolTipAt(const QPoint& plotPixel) const;

protected:
    void rebuild() override;

private:
    void fitMap();

    LinkMapPlottable* m_map = nullptr;
    QCPColorScale* m_colourScale = nullptr;
    QCPTextElement* m_titleElement = nullptr;
    std::shared_ptr<LinkMapLayout> m_layout;
    std::vector<double> m_deltaBytes; ///< by link
    double m_maxAbsDeltaBytes = 0;
};

} // namespace elk::widgets
