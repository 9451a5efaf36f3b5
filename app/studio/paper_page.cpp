// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/paper_page.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include "engine/run/paper_chart.h"
#include "widgets/plots/figure_style.h"
#include "widgets/plots/paper_figure_view.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app {

namespace {

    constexpr int kFigureRole = Qt::UserRole; ///< QString: the figure's name ("fig18")
    const QString kParityProbe = u"llama2-13.json"_s; ///< a model file every parity figure needs

    QString modeText(elk::run::ReproduceMode mode)
    {
        return mode == elk::run::ReproduceMode::ArtifactParity ? PaperPage::tr("artifact parity")
                                                               : PaperPage::tr("equal terms");
    }

    QString secondsText(double seconds)
    {
        return PaperPage::tr("%1 s").arg(seconds, 0, 'f', seconds < 10 ? 1 : 0);
    }

    QString pointsText(std::size_t points)
    {
        return points == 1 ? PaperPage::tr("1 point") : PaperPage::tr("%1 points").arg(points);
    }

    QPushButton* button(const char* icon, const QString& text, const QString& name)
    {
        auto* button = new QPushButton(QIcon::fromTheme(QLatin1String(icon)), text);
        button->setObjectName(name);
        return button;
    }

    QLabel* wrappingLabel(const QString& name)
    {
        auto* label = new QLabel;
        label->setObjectName(name);
        label->setWordWrap(true);
        return label;
    }

    /// "4 points in 3.8 s · 4 from the cache"
    QString outcomeText(const PaperOutcome& outcome)
    {
        return PaperPage::tr("%1 in %2 · %3 from the cache")
            .arg(pointsText(outcome.points.size()), secondsText(outcome.wallSeconds))
            .arg(outcome.fromCache);
    }

} // namespace

PaperPage::PaperPage(QWidget* parent)
    : QWidget(parent)
    , m_job(new PaperJob(this))
    , m_published(elk::exports::bundledPublishedValues())
{
    setObjectName(u"paperPage"_s);
    if (!m_published.ok())
        m_published = {}; // the figures still draw, without the paper's markers
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(buildControls());
    splitter->addWidget(buildResults());
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 290, 1310 });
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(splitter);

    m_elapsedTicker.setInterval(250);
    connect(&m_elapsedTicker, &QTimer::timeout, this, &PaperPage::updateElapsed);
    auto showProgress = [this](int done, int total) {
        m_done = done;
        m_total = total;
        m_progressBar->setRange(0, std::max(total, 1));
        m_progressBar->setValue(done);
        updateElapsed();
    };
    connect(m_job, &PaperJob::progress, this, showProgress);
    connect(m_job, &PaperJob::started, this, [this, showProgress](int points) {
        m_elapsed.start();
        m_elapsedTicker.start();
        m_progressBar->setVisible(true);
        showProgress(0, points);
        updateButtons();
    });
    connect(m_job, &PaperJob::finished, this, &PaperPage::onFinished);
    auto ended = [this](const QString& status) {
        m_elapsedTicker.stop();
        m_progressBar->setVisible(false);
        m_status->setText(status);
        updateButtons();
    };
    connect(m_job, &PaperJob::cancelled, this, [this, ended] {
        ended(tr("Cancelled after %1 / %2 points").arg(m_done).arg(m_total));
        emit statusMessage(tr("Paper figure cancelled."));
    });
    connect(m_job, &PaperJob::failed, this, [this, ended](const QString& message) {
        ended(tr("Failed"));
        showMessage(message);
        emit statusMessage(tr("Paper figure failed: %1").arg(message));
    });

    selectFigure(QString::fromStdString(elk::run::paperFigureNames().front())); // shows the hint
}

PaperPage::~PaperPage() = default;

QWidget* PaperPage::buildControls()
{
    auto* box = new QWidget;
    auto* column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 4, 0);
    column->addWidget(new QLabel(tr("<b>Figures of the Elk paper</b>")));
    m_figures = new QListWidget;
    m_figures->setObjectName(u"paperFigureList"_s);
    m_figures->setWordWrap(true);
    m_figures->setSpacing(2);
    for (const std::string& name : elk::run::paperFigureNames()) {
        const auto figure = elk::run::paperFigure(name);
        auto* item = new QListWidgetItem(
            u"%1 — %2"_s.arg(QString::fromStdString(name), QString::fromStdString(figure->title)));
        item->setData(kFigureRole, QString::fromStdString(name));
        item->setToolTip(pointsText(figure->points.size()));
        m_figures->addItem(item);
    }
    connect(m_figures, &QListWidget::currentRowChanged, this, &PaperPage::showSelection);
    connect(m_figures, &QListWidget::itemActivated, this, &PaperPage::compute);
    column->addWidget(m_figures, 1);

    auto* form = new QFormLayout;
    m_modeBox = new QComboBox;
    m_modeBox->setObjectName(u"paperMode"_s);
    m_modeBox->addItem(tr("Equal terms (Elk Studio)"), int(elk::run::ReproduceMode::EqualTerms));
    m_modeBox->addItem(tr("Artifact parity"), int(elk::run::ReproduceMode::ArtifactParity));
    m_modeBox->setToolTip(tr("Equal terms: Elk Studio's pipeline and simulator on the bundled models. Artifact "
                             "parity: the published artifact's behaviour on its own model files."));
    form->addRow(tr("Mode:"), m_modeBox);
    auto* folderRow = new QHBoxLayout;
    m_einsteinEdit = new QLineEdit(qEnvironmentVariable("ELK_EINSTEIN_DIR"));
    m_einsteinEdit->setObjectName(u"paperEinsteinDir"_s);
    m_einsteinEdit->setPlaceholderText(tr("folder with llama2-13.json"));
    m_einsteinEdit->setToolTip(tr("The artifact's models folder (models/original), e.g. ../shared/corpus/einstein"));
    folderRow->addWidget(m_einsteinEdit, 1);
    m_browseButton = new QToolButton;
    m_browseButton->setText(tr("…"));
    m_browseButton->setToolTip(tr("Choose the artifact's models folder"));
    connect(m_browseButton, &QToolButton::clicked, this, [this] {
        const QString folder
            = QFileDialog::getExistingDirectory(this, tr("The artifact's models folder"), einsteinDir());
        if (!folder.isEmpty())
            setEinsteinDir(folder);
    });
    folderRow->addWidget(m_browseButton);
    form->addRow(tr("Artifact models:"), folderRow);
    column->addLayout(form);
    connect(m_modeBox, &QComboBox::currentIndexChanged, this, &PaperPage::showSelection);
    connect(m_einsteinEdit, &QLineEdit::textChanged, this, &PaperPage::updateButtons);

    m_message = wrappingLabel(u"paperMessage"_s);
    m_message->setStyleSheet(u"QLabel { color: #a00000; }"_s);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setVisible(false);
    column->addWidget(m_message);

    m_computeButton = button("media-playback-start", tr("Compute"), u"paperComputeButton"_s);
    m_cancelButton = button("process-stop", tr("Cancel"), u"paperCancelButton"_s);
    m_exportButton = button("document-save-as", tr("Export…"), u"paperExportButton"_s);
    m_exportButton->setToolTip(tr("Write the figure as PDF, SVG or PNG (two-column width)"));
    connect(m_computeButton, &QPushButton::clicked, this, &PaperPage::compute);
    connect(m_cancelButton, &QPushButton::clicked, this, &PaperPage::cancel);
    connect(m_exportButton, &QPushButton::clicked, this, &PaperPage::exportFigureDialog);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : { m_computeButton, m_cancelButton, m_exportButton })
        buttons->addWidget(b);
    column->addLayout(buttons);

    m_progressBar = new QProgressBar;
    m_progressBar->setFormat(tr("%v / %m points"));
    m_progressBar->setVisible(false);
    column->addWidget(m_progressBar);
    m_status = wrappingLabel(u"paperStatus"_s);
    column->addWidget(m_status);
    return box;
}

QWidget* PaperPage::buildResults()
{
    m_hint = wrappingLabel(u"paperHint"_s);
    m_hint->setAlignment(Qt::AlignCenter);
    m_hint->setMargin(24);
    QPalette hintPalette = m_hint->palette();
    hintPalette.setColor(QPalette::WindowText, hintPalette.color(QPalette::PlaceholderText));
    m_hint->setPalette(hintPalette);
    m_view = new elk::widgets::PaperFigureView;
    m_stack = new QStackedWidget;
    m_stack->addWidget(m_hint);
    m_stack->addWidget(m_view);
    m_summary = new QTextBrowser;
    m_summary->setObjectName(u"paperSummary"_s);
    m_summary->setOpenExternalLinks(true);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_stack);
    splitter->addWidget(m_summary);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 700, 250 });
    return splitter;
}

bool PaperPage::selectFigure(const QString& name)
{
    for (int row = 0; row < m_figures->count(); ++row) {
        if (m_figures->item(row)->data(kFigureRole).toString() == name) {
            m_figures->setCurrentRow(row);
            return true;
        }
    }
    return false;
}

QString PaperPage::currentFigure() const
{
    const QListWidgetItem* item = m_figures->currentItem();
    return item ? item->data(kFigureRole).toString() : QString();
}

void PaperPage::setMode(elk::run::ReproduceMode mode)
{
    m_modeBox->setCurrentIndex(m_modeBox->findData(int(mode)));
}

elk::run::ReproduceMode PaperPage::mode() const
{
    return elk::run::ReproduceMode(m_modeBox->currentData().toInt());
}

void PaperPage::setEinsteinDir(const QString& folder)
{
    m_einsteinEdit->setText(folder);
}

QString PaperPage::einsteinDir() const
{
    return m_einsteinEdit->text().trimmed();
}

PaperOutcomePtr PaperPage::outcome(const QString& figure, elk::run::ReproduceMode mode) const
{
    const auto found = m_shown.find({ figure.toStdString(), mode });
    return found != m_shown.end() ? found->second.outcome : nullptr;
}

bool PaperPage::showsHint() const
{
    return m_stack->currentWidget() == m_hint;
}

QString PaperPage::summaryMarkdown() const
{
    const auto found = m_shown.find({ currentFigure().toStdString(), mode() });
    return found != m_shown.end() ? found->second.markdown : QString();
}

QString PaperPage::parityProblem() const
{
    if (mode() != elk::run::ReproduceMode::ArtifactParity)
        return {};
    const QString folder = einsteinDir();
    if (folder.isEmpty())
        return tr("Artifact parity runs on the artifact's own model files: choose its models folder (the one "
                  "with llama2-13.json, e.g. ../shared/corpus/einstein) or set ELK_EINSTEIN_DIR.");
    if (!QDir(folder).exists(kParityProbe))
        return tr("%1 has no llama2-13.json: choose the artifact's models/original folder.")
            .arg(QDir::toNativeSeparators(folder));
    return {};
}

void PaperPage::compute()
{
    const QString figure = currentFigure();
    if (figure.isEmpty())
        return;
    if (const QString problem = parityProblem(); !problem.isEmpty()) {
        showMessage(problem);
        m_messageIsParity = true;
        emit statusMessage(tr("Cannot compute %1: no artifact model folder.").arg(figure));
        return;
    }
    showMessage({});
    elk::store::ReproduceOptions options;
    options.mode = mode();
    options.einsteinDir = einsteinDir().toStdString();
    m_job->start(figure, options);
    emit statusMessage(tr("Computing %1 (%2)…").arg(figure, modeText(options.mode)));
}

void PaperPage::cancel()
{
    m_job->cancel();
}

void PaperPage::onFinished(PaperOutcomePtr outcome)
{
    m_elapsedTicker.stop();
    m_progressBar->setVisible(false);
    // Chart and summary are built once here, so reselecting a computed figure costs nothing.
    Shown shown;
    shown.chart = std::make_shared<const elk::run::PaperChart>(
        elk::exports::paperChart(outcome->figure, outcome->mode, outcome->points, m_published));
    shown.markdown = QString::fromStdString(
        elk::exports::summaryMarkdown(outcome->figure, outcome->mode, outcome->points, m_published));
    shown.outcome = outcome;
    m_shown[{ outcome->figure, outcome->mode }] = std::move(shown);
    emit statusMessage(
        tr("%1 (%2): %3.")
            .arg(QString::fromStdString(outcome->figure), modeText(outcome->mode), outcomeText(*outcome)));
    showSelection();
}

void PaperPage::showSelection()
{
    const QString figure = currentFigure();
    const auto found = m_shown.find({ figure.toStdString(), mode() });
    if (found == m_shown.end()) {
        const auto known = elk::run::paperFigure(figure.toStdString());
        m_hint->setText(tr("Pick a figure and press Compute: Elk Studio runs the figure's points in %1 and "
                           "draws them, with the paper's published values as hollow circles.")
                            .arg(modeText(mode()))
            + (known ? tr("\n\n%1 (%2) has not been computed in this mode yet.")
                           .arg(figure, pointsText(known->points.size()))
                     : QString()));
        m_stack->setCurrentWidget(m_hint);
        m_view->setChart(nullptr);
        m_summary->clear();
        m_summary->setVisible(false); // the hint takes the whole side, not over an empty pane
    } else {
        m_view->setChart(found->second.chart);
        m_stack->setCurrentWidget(m_view);
        m_summary->setVisible(true);
        // The summary is a report's (its title an H1): two levels down it fits a pane under the figure.
        QString markdown = found->second.markdown;
        m_summary->setMarkdown(
            markdown.replace(QRegularExpression(u"^(#+) "_s, QRegularExpression::MultilineOption), u"##\\1 "_s));
    }
    if (!m_job->isRunning()) {
        const PaperOutcomePtr shown = found != m_shown.end() ? found->second.outcome : nullptr;
        m_status->setText(shown ? outcomeText(*shown) : QString());
    }
    updateButtons();
}

void PaperPage::showMessage(const QString& text)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    m_messageIsParity = false;
}

void PaperPage::updateElapsed()
{
    if (m_job->isRunning())
        m_status->setText(
            tr("%1 / %2 points · %3").arg(m_done).arg(m_total).arg(secondsText(m_elapsed.elapsed() / 1000.0)));
}

void PaperPage::updateButtons()
{
    const bool parity = mode() == elk::run::ReproduceMode::ArtifactParity;
    m_einsteinEdit->setEnabled(parity);
    m_browseButton->setEnabled(parity);
    // The folder's problem is said as soon as it is one, not only when Compute refuses; once it is
    // solved (or equal terms chosen) it goes, while other messages (a failure) stay.
    const QString problem = parityProblem();
    if (!problem.isEmpty() || m_messageIsParity)
        showMessage(problem);
    m_messageIsParity = !problem.isEmpty();
    m_cancelButton->setEnabled(m_job->isRunning());
    m_computeButton->setEnabled(!currentFigure().isEmpty());
    m_exportButton->setEnabled(!showsHint() && m_view->hasData());
}

void PaperPage::exportFigureDialog()
{
    const QString folder = m_lastFolder.isEmpty() ? QDir::homePath() : m_lastFolder;
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export %1").arg(currentFigure()),
        QDir(folder).filePath(currentFigure() + u".pdf"_s), tr("PDF (*.pdf);;SVG (*.svg);;PNG (*.png)"), &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty()) // the format follows the suffix: take the chosen filter's
        path += u"."_s + filter.section(u"*."_s, 1).section(u')', 0, 0);
    m_lastFolder = QFileInfo(path).absolutePath();
    const QString error = m_view->exportFigure(path, elk::widgets::FigureStyle::wide());
    if (!error.isEmpty())
        showMessage(tr("Export failed: %1").arg(error));
    emit statusMessage(
        error.isEmpty() ? tr("Wrote %1").arg(QDir::toNativeSeparators(path)) : tr("Export failed: %1").arg(error));
}

} // namespace elk::app
