// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QObject>
#include <QString>

#include "app/studio/studio_parts.h"
#include "widgets/model/model_snapshot.h"

class QWidget;

namespace elk::app {

class ModelLoader;

/// The model that is open: loads it on a worker (ModelLoader), shows it in the model pane, and keeps
/// the last model that loaded when a file opened after it fails. StableHLO modules go to their page.
class ModelController : public QObject {
    Q_OBJECT
public:
    ModelController(const StudioParts& parts, QObject* parent = nullptr);

    /// Starts loading a model file or "bundled:NAME" in the background; a later call replaces it.
    /// A StableHLO module (.mlir) opens on the StableHLO page instead (see openHloModule).
    void openModel(const QString& pathOrBundledName);
    /// Shows the StableHLO page with this module; `run` starts it on the page's configurations.
    void openHloModule(const QString& path, bool run = false);
    void openModelDialog(QWidget* parent);
    /// Loads the open model again for new run parameters (the op table follows the shapes).
    void reload();
    /// Asks for readyToRun() once the model being loaded has loaded without problems.
    void runWhenLoaded(bool on) { m_runWhenLoaded = on; }

    /// File path or "bundled:NAME" of the model asked for last (empty: none).
    QString modelPath() const { return m_modelPath; }

signals:
    /// A model loaded, failed, or started loading: what the Run action depends on changed.
    void stateChanged();
    /// The model asked for with runWhenLoaded(true) has loaded.
    void readyToRun();

private:
    void onLoaded(std::shared_ptr<const elk::widgets::ModelSnapshot> snapshot);

    StudioParts m_parts;
    ModelLoader* m_loader = nullptr;
    QString m_modelPath;
    /// The last model that loaded: kept when a file opened after it fails to load.
    std::shared_ptr<const elk::widgets::ModelSnapshot> m_lastGood;
    bool m_runWhenLoaded = false;
};

} // namespace elk::app
