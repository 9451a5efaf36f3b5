// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/plots/plot_view.h"

namespace elk::widgets {

/// Elk-Full's order spread: the analytic latency of the model under every valid preload order its
/// search kept (schedule::OrderSearch::orderLatencyCycles; one layer order, applied to every layer of
/// the block) as a strip of points, the identity order (Elk-Dyn's) and the chosen one marked. Shows
/// how much the order matters on this run, and whether the search found anything.
class OrderSpreadView : public PlotView {
    Q_OBJECT
public:
    explicit OrderSpreadView(QWidget* parent = nullptr);
    ~OrderSpreadView() override;

    QString figureKind() const override { return QStringLiteral("orders"); }
    bool hasData() const override;
    /// Points drawn (valid orders), and the summary line above them.
    int orderCount() const { return m_orders; }
    QString summary() const { return m_summary; }

protected:
    void rebuild() override;

private:
    int m_orders = 0;
    QString m_summary;
};

} // namespace elk::widgets
