// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include "engine/run/paper_chart.h"

namespace elk::app {

/// Writes a reproduced paper figure as BASE.pdf, BASE.svg and BASE.png (two columns wide, 4.5 cm
/// per row of panels); returns the first error, or "" on success. Needs a QApplication.
QString writePaperChart(const run::PaperChart& chart, const QString& basePath);

} // namespace elk::app
