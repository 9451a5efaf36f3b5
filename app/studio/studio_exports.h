// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

#include "app/studio/studio_parts.h"

class QWidget;

namespace elk::app {

/// File ▸ Export: the current tab's figure (PDF/SVG/PNG, FigureExportDialog) and the shown run as a
/// folder of data files; both start in the folder used last.
class StudioExports : public QObject {
    Q_OBJECT
public:
    StudioExports(const StudioParts& parts, QWidget* dialogParent);

    void exportFigureDialog();
    void exportRunDialog();

private:
    QString startFolder() const;

    StudioParts m_parts;
    QWidget* m_dialogParent = nullptr;
    QString m_lastFolder;
};

} // namespace elk::app
