// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QString>

#include "widgets/plots/plot_view.h"

class QComboBox;
class QLabel;
class QCPColorMap;
class QCPColorScale;

namespace elk::run {
struct SweepResult;
}

namespace elk::widgets {

/// A sweep's latencies. One varied field: a line per design over the field's values (numbers on a
/// numeric axis, other values as labelled categories). Two fields: a heatmap of one design's latency
/// over both (a combo box picks the design). Points not yet done are absent, so a running sweep
/// fills in as it goes; a design that failed at a point leaves a gap.
class SweepView : public PlotView {
    Q_OBJECT
public:
    explicit SweepView(QWidget* parent = nullptr);
    ~SweepView() override;

    QString figureKind() const override { return QStringLiteral("sweep"); }
    /// True when any point is done.
    bool hasData() const override;

    /// Shows a sweep (null clears); call again with the updated result as points complete.
    void setSweep(std::shared_ptr<const elk::run::SweepResult> sweep);
    std::shared_ptr<const elk::run::SweepResult> sweep() const { return m_sweep; }

    /// Two-field sweeps: the design whose latency the heatmap shows (index into SweepResult::designs).
    void setHeatmapDesign(int index);
    int heatmapDesign() const { return m_heatmapDesign; }
    bool showsHeatmap() const;

protected:
    void rebuild() override;

private:
    void buildLines();
    void buildHeatmap();
    void clearPlot();

    std::shared_ptr<const elk::run::SweepResult> m_sweep;
    int m_heatmapDesign = 0;
    QWidget* m_controls = nullptr;
    QComboBox* m_designBox = nullptr;
    QCPColorMap* m_map = nullptr;
    QCPColorScale* m_scale = nullptr;
};

} // namespace elk::widgets
