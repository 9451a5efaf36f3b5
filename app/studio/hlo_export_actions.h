// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "app/studio/hlo_export.h"

namespace elk::app {

/// The StableHLO page's export buttons, in the corner of its result tabs: "Export figure…" and the
/// "Export data" menu of formats. They only ask; the page runs the dialogs (it knows the last folder).
class HloExportActions : public QWidget {
    Q_OBJECT
public:
    explicit HloExportActions(QWidget* parent = nullptr);

signals:
    void figureRequested();
    void dataRequested(elk::app::HloDataFormat format);
};

} // namespace elk::app
