// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <QString>
#include <QWidget>

#include "app/studio/hlo_job.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;

namespace elk::app {

class RecentFilesMenu;

/// The StableHLO page's inputs: the module row (its path, Open…, Recent), the first configuration
/// (system and estimator chain) with the flow options (split, fusion) and Run / Cancel, and the
/// configurations to compare with it. It only collects them; the page opens files and runs.
class HloInputsForm : public QWidget {
    Q_OBJECT
public:
    /// `dialogFolder` says where the latency-table chooser starts: the page's last folder, which its
    /// other dialogs share and move.
    explicit HloInputsForm(std::function<QString()> dialogFolder, QWidget* parent = nullptr);

    /// Shows `path` as the module and remembers it in Recent (when it exists).
    void showModule(const QString& path);

    /// The first configuration's system: an unknown text is added and kept.
    void setSystem(const QString& nameOrPath);
    QString system() const;
    /// The first configuration's estimator chain: one not offered yet is added.
    void setEstimators(const std::vector<std::string>& chain);
    std::vector<std::string> estimators() const;
    /// A comparison equal to the first configuration or to one already listed is dropped.
    void addComparison(const HloConfiguration& configuration);
    void clearComparisons();
    /// The first configuration, then the comparisons.
    std::vector<HloConfiguration> configurations() const;

    void setSplitMode(elk::hlo::SplitMode mode);
    elk::hlo::SplitMode splitMode() const;
    void setFusion(bool on);
    bool fusion() const;

    /// Run needs a module; Cancel a running job.
    void updateRunButtons(bool hasModule, bool running);
    QPushButton* runButton() const { return m_runButton; }
    QPushButton* cancelButton() const { return m_cancelButton; }

signals:
    void openRequested();
    /// A module picked from Recent.
    void moduleChosen(const QString& path);
    void runRequested();
    void cancelRequested();

private:
    QLayout* buildModuleRow();
    QLayout* buildConfigurationRow();
    QLayout* buildComparisonRow();
    void fillEstimatorCombo(QComboBox* combo);
    void onEstimatorChosen(QComboBox* combo);

    std::function<QString()> m_dialogFolder;
    std::vector<HloConfiguration> m_comparisons;

    QLabel* m_fileLabel = nullptr;
    RecentFilesMenu* m_recent = nullptr;
    QComboBox* m_system = nullptr;
    QComboBox* m_estimator = nullptr;
    QComboBox* m_split = nullptr;
    QCheckBox* m_fusion = nullptr;
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QComboBox* m_compareSystem = nullptr;
    QComboBox* m_compareEstimator = nullptr;
    QListWidget* m_comparisonList = nullptr;
};

} // namespace elk::app
