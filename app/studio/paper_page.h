// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>

#include <QElapsedTimer>
#include <QString>
#include <QTimer>
#include <QWidget>

#include "app/studio/paper_job.h"
#include "engine/export/paper_report.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTextBrowser;
class QToolButton;

namespace elk::run {
struct PaperChart;
}

namespace elk::widgets {
class PaperFigureView;
}

namespace elk::app {

/// The Paper tab: pick one of the Elk paper's figures (Figs. 17–24) and a mode (equal terms on Elk
/// Studio's pipeline, or artifact parity on the artifact's model files), Compute it in the background
/// through the result cache (PaperJob), and read the figure beside the paper's published values with
/// its headline-ratio summary below. Every computed (figure, mode) is kept, so selecting it again shows
/// it at once; Export… writes the figure as PDF, SVG or PNG.
class PaperPage : public QWidget {
    Q_OBJECT
public:
    explicit PaperPage(QWidget* parent = nullptr);
    ~PaperPage() override;

    /// The result cache the job runs through (not owned; null: none).
    void setStore(elk::store::ResultStore* store) { m_job->setStore(store); }

    /// Selects a figure by name ("fig18"); false for an unknown one.
    bool selectFigure(const QString& name);
    QString currentFigure() const;
    void setMode(elk::run::ReproduceMode mode);
    elk::run::ReproduceMode mode() const;
    /// The artifact's model folder (parity mode; holds llama2-13.json, …).
    void setEinsteinDir(const QString& folder);
    QString einsteinDir() const;

    /// The figure computed for (figure, mode), or null.
    PaperOutcomePtr outcome(const QString& figure, elk::run::ReproduceMode mode) const;

    PaperJob* job() const { return m_job; }
    elk::widgets::PaperFigureView* figureView() const { return m_view; }
    QListWidget* figureList() const { return m_figures; }
    QComboBox* modeCombo() const { return m_modeBox; }
    QPushButton* computeButton() const { return m_computeButton; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QPushButton* exportButton() const { return m_exportButton; }
    /// True while the hint (no figure computed for the selection) takes the view's place.
    bool showsHint() const;
    /// The summary of the figure shown (Markdown; empty with the hint). The hint, the inline message
    /// (why Compute did not start) and the status line are the QLabels paperHint, paperMessage and
    /// paperStatus.
    QString summaryMarkdown() const;

public slots:
    /// Computes the selected figure in the selected mode (parity: only with the artifact's models).
    void compute();
    void cancel();
    void exportFigureDialog();

signals:
    /// A short message for the status bar.
    void statusMessage(const QString& message);

private:
    using OutcomeKey = std::pair<std::string, elk::run::ReproduceMode>;
    /// What the page shows for one computed (figure, mode); built once when it arrives.
    struct Shown {
        PaperOutcomePtr outcome;
        std::shared_ptr<const elk::run::PaperChart> chart;
        QString markdown;
    };

    QWidget* buildControls();
    QWidget* buildResults();
    void showSelection();
    void onFinished(PaperOutcomePtr outcome);
    void showMessage(const QString& text);
    void updateElapsed();
    void updateButtons();
    QString parityProblem() const;

    PaperJob* m_job = nullptr;
    elk::exports::PublishedValues m_published;
    std::map<OutcomeKey, Shown> m_shown;
    QString m_lastFolder; ///< of the last export
    QElapsedTimer m_elapsed;
    QTimer m_elapsedTicker;
    int m_done = 0, m_total = 0;
    bool m_messageIsParity = false; ///< the inline message is parityProblem()'s

    QListWidget* m_figures = nullptr;
    QComboBox* m_modeBox = nullptr;
    QLineEdit* m_einsteinEdit = nullptr;
    QToolButton* m_browseButton = nullptr;
    QLabel* m_message = nullptr;
    QPushButton* m_computeButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_exportButton = nullptr;
    QProgressBar* m_progressBar = nullptr;
    QLabel* m_status = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_hint = nullptr;
    elk::widgets::PaperFigureView* m_view = nullptr;
    QTextBrowser* m_summary = nullptr;
};

} // namespace elk::app
