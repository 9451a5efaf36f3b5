// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The only place that includes qcustomplot.h. QCustomPlot 2.1 uses Qt's `foreach`, which the
// widgets target removes with QT_NO_FOREACH; lifting the define only helps if no Qt header was seen
// before, so this header comes first in every .cpp that plots.
#ifdef QT_NO_FOREACH
#undef QT_NO_FOREACH
#define ELK_QCP_RESTORE_NO_FOREACH
#endif
#include <qcustomplot.h>
#ifdef ELK_QCP_RESTORE_NO_FOREACH
#define QT_NO_FOREACH
#undef ELK_QCP_RESTORE_NO_FOREACH
#endif

namespace elk::widgets {

/// Re-flows a legend's items into rows of `perRow` (QCPLayoutGrid::setWrap only affects items added
/// later, and setFillOrder with an unchanged order does not rearrange).
inline void setLegendWrap(QCPLegend* legend, int perRow)
{
    if (!legend || legend->wrap() == perRow)
        return;
    QList<QCPLayoutElement*> items;
    for (int i = 0; i < legend->elementCount(); ++i) {
        if (QCPLayoutElement* element = legend->elementAt(i))
            items.append(element);
    }
    for (QCPLayoutElement* element : items)
        legend->take(element);
    legend->simplify();
    legend->setWrap(perRow);
    for (QCPLayoutElement* element : items)
        legend->addElement(element);
}

} // namespace elk::widgets
