// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include <QString>
#include <QWidget>

#include "app/studio/hlo_export.h"
#include "app/studio/hlo_job.h"

class QPushButton;
class QTableWidget;
class QTabWidget;

namespace elk::store {
class ResultStore;
}

namespace elk::widgets {
class HloPlotView;
class HloRegionTableModel;
class HloRooflineView;
class HloStepTimelineView;
}

namespace elk::app {

class HloInputsForm;
class HloReportPanel;
class HloRunStatus;

/// The StableHLO page: open a .mlir module, pick a system and an estimator chain (and more
/// configurations to compare side by side), slicing and fusion, run it on a worker (HloJob, through
/// the region cache), and read the outcome: a summary row per configuration, the selected
/// configuration's regions and warnings, the step timeline and the roofline of all configurations.
/// Figures export through FigureExportDialog; the selected configuration's data as JSON, CSV, a
/// Perfetto trace or Chakra traces. A module that does not parse, an unknown system or a failing
/// estimator shows its located error in the page; the page stays usable.
///
/// The page wires its parts: the inputs (HloInputsForm), the run status (HloRunStatus) and the report
/// (HloReportPanel, with the export buttons), to the job and to its dialogs.
class HloPage : public QWidget {
    Q_OBJECT
public:
    explicit HloPage(QWidget* parent = nullptr);
    ~HloPage() override;

    /// The region cache runs go through (not owned; null: none).
    void setStore(elk::store::ResultStore* store);

    /// Shows `path` as the module to run (does not run it; run() does).
    void openFile(const QString& path);
    QString filePath() const { return m_path; }

    /// The first configuration's system: a built-in name or a system JSON file (an unknown text is kept,
    /// and the run reports it).
    void setSystem(const QString& nameOrPath);
    QString system() const;
    /// The first configuration's estimator chain ({"icca:ipu-pod4-hbm", "roofline"}).
    void setEstimators(const std::vector<std::string>& chain);
    std::vector<std::string> estimators() const;
    /// More configurations run next to the first.
    void addComparison(const HloConfiguration& configuration);
    void clearComparisons();
    /// The first configuration, then the comparisons.
    std::vector<HloConfiguration> configurations() const;
    void setSplitMode(elk::hlo::SplitMode mode);
    void setFusion(bool on);
    /// What run() would start now.
    HloJobRequest currentRequest() const;

    HloJob* job() const { return m_job; }
    /// The last finished runs (null before the first).
    HloRunSetPtr runs() const;
    /// Index of the configuration the regions table, the warnings and the data exports show.
    int selectedConfiguration() const;
    void selectConfiguration(int index);

    /// Makes the tab of a plot current: "hlo-timeline" or "hlo-roofline"; false for another kind.
    bool showPlot(const QString& figureKind);
    /// The plot of the current tab (step timeline or roofline), else null.
    elk::widgets::HloPlotView* currentPlotView() const;
    elk::widgets::HloStepTimelineView* timelineView() const;
    elk::widgets::HloRooflineView* rooflineView() const;
    elk::widgets::HloRegionTableModel* regionModel() const;
    QTableWidget* summaryTable() const;
    QTabWidget* tabs() const;
    /// What the page's error line says (empty when it is hidden).
    QString errorText() const;
    /// The progress line's text.
    QString progressText() const;
    QPushButton* runButton() const;
    QPushButton* cancelButton() const;

    /// Writes the selected configuration's run; returns why not, or empty.
    QString exportData(HloDataFormat format, const QString& path) const;

public slots:
    void run();
    void cancel();
    void openFileDialog();
    void exportFigureDialog();
    void exportDataDialog(elk::app::HloDataFormat format);

signals:
    /// A short message for the status bar.
    void statusMessage(const QString& message);

private:
    void wireJob();
    void onFinished(HloRunSetPtr runs);
    /// Where the export dialogs start: the last folder, else home.
    QString exportFolder() const;
    void updateButtons();

    HloJob* m_job = nullptr;
    QString m_path;
    /// Shared by all the page's file dialogs: the last module's folder or the last export's.
    QString m_lastFolder;

    HloInputsForm* m_inputs = nullptr;
    HloRunStatus* m_status = nullptr;
    HloReportPanel* m_report = nullptr;
};

} // namespace elk::app
