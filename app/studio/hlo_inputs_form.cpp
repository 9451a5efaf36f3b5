// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/hlo_inputs_form.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include "app/studio/recent_files.h"
#include "engine/hlo/hlo_presets.h"
#include "engine/run/chips.h"

namespace elk::app {

namespace {

    const QString kRecentKey = QStringLiteral("hloPage/recentFiles");
    const QString kDefaultSystem = QStringLiteral("4x-a100-sxm-40gb");
    constexpr int kChainRole = Qt::UserRole; ///< QStringList: the estimator chain; empty for "choose a table"

    QStringList toQt(const std::vector<std::string>& list)
    {
        QStringList out;
        for (const std::string& text : list)
            out << QString::fromStdString(text);
        return out;
    }

    std::vector<std::string> toStd(const QStringList& list)
    {
        std::vector<std::string> out;
        for (const QString& text : list)
            out.push_back(text.toStdString());
        return out;
    }

    QString chainText(const QStringList& chain)
    {
        return chain.join(QStringLiteral(" → "));
    }

    std::vector<std::string> chainOf(const QComboBox* combo)
    {
        return toStd(combo->currentData(kChainRole).toStringList());
    }

    /// Adds `chain` just before "choose a CSV…" and makes it current (and where a cancelled choice returns).
    void insertChain(QComboBox* combo, const QStringList& chain)
    {
        const int at = combo->count() - 1;
        combo->insertItem(at, chainText(chain), chain);
        combo->setCurrentIndex(at);
        combo->setProperty("previousIndex", at);
    }

    void fillSystemCombo(QComboBox* combo)
    {
        for (const std::string& name : elk::hlo::builtinSystemNames()) {
            combo->addItem(QString::fromStdString(name));
            if (const auto preset = elk::hlo::findSystemPreset(name))
                combo->setItemData(combo->count() - 1,
                    QStringLiteral("%1: %2 × %3")
                        .arg(QString::fromStdString(preset->displayName))
                        .arg(preset->deviceCount())
                        .arg(QString::fromStdString(preset->device)),
                    Qt::ToolTipRole);
        }
        const int preferred = combo->findText(kDefaultSystem);
        combo->setCurrentIndex(std::max(0, preferred));
    }

} // namespace

HloInputsForm::HloInputsForm(std::function<QString()> dialogFolder, QWidget* parent)
    : QWidget(parent)
    , m_dialogFolder(std::move(dialogFolder))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buildModuleRow());
    layout->addLayout(buildConfigurationRow());
    layout->addLayout(buildComparisonRow());
}

QLayout* HloInputsForm::buildModuleRow()
{
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Module:")));
    m_fileLabel = new QLabel(tr("no module opened"));
    m_fileLabel->setObjectName(QStringLiteral("hloFileLabel"));
    m_fileLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fileLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    row->addWidget(m_fileLabel, 1);
    auto* open = new QPushButton(tr("Open…"));
    open->setObjectName(QStringLiteral("hloOpenButton"));
    open->setToolTip(tr("Open a StableHLO text module (.mlir)"));
    connect(open, &QPushButton::clicked, this, &HloInputsForm::openRequested);
    row->addWidget(open);
    auto* recentButton = new QToolButton;
    recentButton->setText(tr("Recent"));
    recentButton->setPopupMode(QToolButton::InstantPopup);
    m_recent = new RecentFilesMenu(tr("Recent modules"), kRecentKey, recentButton);
    recentButton->setMenu(m_recent);
    connect(m_recent, &RecentFilesMenu::fileChosen, this, &HloInputsForm::moduleChosen);
    row->addWidget(recentButton);
    return row;
}

QLayout* HloInputsForm::buildConfigurationRow()
{
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("System:")));
    m_system = new QComboBox;
    m_system->setObjectName(QStringLiteral("hloSystem"));
    fillSystemCombo(m_system);
    row->addWidget(m_system);
    row->addWidget(new QLabel(tr("Estimators:")));
    m_estimator = new QComboBox;
    m_estimator->setObjectName(QStringLiteral("hloEstimator"));
    fillEstimatorCombo(m_estimator);
    row->addWidget(m_estimator);
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Split:")));
    m_split = new QComboBox;
    m_split->setObjectName(QStringLiteral("hloSplit"));
    m_split->addItem(tr("linear"), int(elk::hlo::SplitMode::Linear));
    m_split->addItem(tr("dependency"), int(elk::hlo::SplitMode::Dependency));
    m_split->setToolTip(tr("linear: compute between collectives is one region (program order); dependency: "
                           "regions follow data edges, so communication may overlap compute"));
    row->addWidget(m_split);
    m_fusion = new QCheckBox(tr("Fusion"));
    m_fusion->setObjectName(QStringLiteral("hloFusion"));
    m_fusion->setChecked(true);
    m_fusion->setToolTip(tr("Fuse element-wise chains into their producers or consumers, as XLA does: fused "
                            "kernels pay only their boundary bytes"));
    row->addWidget(m_fusion);
    row->addStretch(1);
    m_runButton = new QPushButton(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("Run"));
    m_runButton->setObjectName(QStringLiteral("hloRunButton"));
    connect(m_runButton, &QPushButton::clicked, this, &HloInputsForm::runRequested);
    row->addWidget(m_runButton);
    m_cancelButton = new QPushButton(QIcon::fromTheme(QStringLiteral("process-stop")), tr("Cancel"));
    m_cancelButton->setObjectName(QStringLiteral("hloCancelButton"));
    connect(m_cancelButton, &QPushButton::clicked, this, &HloInputsForm::cancelRequested);
    row->addWidget(m_cancelButton);
    return row;
}

QLayout* HloInputsForm::buildComparisonRow()
{
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Compare with:")));
    m_compareSystem = new QComboBox;
    m_compareSystem->setObjectName(QStringLiteral("hloCompareSystem"));
    fillSystemCombo(m_compareSystem);
    row->addWidget(m_compareSystem);
    m_compareEstimator = new QComboBox;
    m_compareEstimator->setObjectName(QStringLiteral("hloCompareEstimator"));
    fillEstimatorCombo(m_compareEstimator);
    row->addWidget(m_compareEstimator);
    auto* add = new QPushButton(tr("Add"));
    add->setObjectName(QStringLiteral("hloAddComparison"));
    add->setToolTip(tr("Run this system and estimator chain too, side by side"));
    connect(add, &QPushButton::clicked, this, [this] {
        addComparison({ m_compareSystem->currentText().toStdString(), chainOf(m_compareEstimator) });
    });
    row->addWidget(add);
    m_comparisonList = new QListWidget;
    m_comparisonList->setObjectName(QStringLiteral("hloComparisons"));
    m_comparisonList->setFlow(QListView::LeftToRight);
    m_comparisonList->setWrapping(false);
    m_comparisonList->setFixedHeight(m_compareSystem->sizeHint().height() + 6);
    m_comparisonList->setToolTip(tr("Configurations run next to the first; select one and press Remove"));
    row->addWidget(m_comparisonList, 1);
    auto* remove = new QPushButton(tr("Remove"));
    connect(remove, &QPushButton::clicked, this, [this] {
        const int index = m_comparisonList->currentRow();
        if (index < 0 || index >= int(m_comparisons.size()))
            return;
        m_comparisons.erase(m_comparisons.begin() + index);
        delete m_comparisonList->takeItem(index);
    });
    row->addWidget(remove);
    return row;
}

void HloInputsForm::fillEstimatorCombo(QComboBox* combo)
{
    combo->addItem(QStringLiteral("roofline"), QStringList { QStringLiteral("roofline") });
    combo->setItemData(
        0, tr("Bare roofline of the system's device: max(FLOPs / peak, bytes / bandwidth)"), Qt::ToolTipRole);
    for (const elk::chip::ChipSpec& chip : elk::chip::builtinPresets()) {
        const QStringList chain { QStringLiteral("icca:") + QString::fromStdString(chip.name),
            QStringLiteral("roofline") };
        combo->addItem(chainText(chain), chain);
        combo->setItemData(combo->count() - 1,
            tr("Ops the ICCA flow supports run through the Elk compiler and simulator on %1; the rest on the roofline")
                .arg(QString::fromStdString(chip.name)),
            Qt::ToolTipRole);
    }
    combo->addItem(tr("table: choose a CSV…"), QStringList {});
    combo->setProperty("previousIndex", 0);
    connect(combo, &QComboBox::activated, this, [this, combo] { onEstimatorChosen(combo); });
}

void HloInputsForm::onEstimatorChosen(QComboBox* combo)
{
    if (!combo->currentData(kChainRole).toStringList().isEmpty()) {
        combo->setProperty("previousIndex", combo->currentIndex());
        return;
    }
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Measured latencies"), m_dialogFolder(), tr("Latency tables (*.csv);;All files (*)"));
    if (path.isEmpty()) {
        combo->setCurrentIndex(combo->property("previousIndex").toInt());
        return;
    }
    insertChain(combo, { QStringLiteral("table:") + path, QStringLiteral("roofline") });
}

void HloInputsForm::showModule(const QString& path)
{
    m_fileLabel->setText(QDir::toNativeSeparators(path));
    m_fileLabel->setToolTip(QDir::toNativeSeparators(path));
    if (QFileInfo::exists(path))
        m_recent->add(path);
}

void HloInputsForm::setSystem(const QString& nameOrPath)
{
    int index = m_system->findText(nameOrPath);
    if (index < 0) {
        m_system->addItem(nameOrPath);
        index = m_system->count() - 1;
    }
    m_system->setCurrentIndex(index);
}

QString HloInputsForm::system() const
{
    return m_system->currentText();
}

void HloInputsForm::setEstimators(const std::vector<std::string>& chain)
{
    const QStringList wanted = toQt(chain);
    for (int i = 0; i < m_estimator->count(); ++i) {
        if (m_estimator->itemData(i, kChainRole).toStringList() == wanted) {
            m_estimator->setCurrentIndex(i);
            m_estimator->setProperty("previousIndex", i);
            return;
        }
    }
    insertChain(m_estimator, wanted);
}

std::vector<std::string> HloInputsForm::estimators() const
{
    return chainOf(m_estimator);
}

void HloInputsForm::addComparison(const HloConfiguration& configuration)
{
    if (configuration == HloConfiguration { system().toStdString(), estimators() })
        return;
    if (std::find(m_comparisons.begin(), m_comparisons.end(), configuration) != m_comparisons.end())
        return;
    m_comparisons.push_back(configuration);
    m_comparisonList->addItem(configurationLabel(configuration));
}

void HloInputsForm::clearComparisons()
{
    m_comparisons.clear();
    m_comparisonList->clear();
}

std::vector<HloConfiguration> HloInputsForm::configurations() const
{
    std::vector<HloConfiguration> list { { system().toStdString(), estimators() } };
    for (const HloConfiguration& configuration : m_comparisons) {
        if (std::find(list.begin(), list.end(), configuration) == list.end())
            list.push_back(configuration);
    }
    return list;
}

void HloInputsForm::setSplitMode(elk::hlo::SplitMode mode)
{
    m_split->setCurrentIndex(std::max(0, m_split->findData(int(mode))));
}

elk::hlo::SplitMode HloInputsForm::splitMode() const
{
    return elk::hlo::SplitMode(m_split->currentData().toInt());
}

void HloInputsForm::setFusion(bool on)
{
    m_fusion->setChecked(on);
}

bool HloInputsForm::fusion() const
{
    return m_fusion->isChecked();
}

void HloInputsForm::updateRunButtons(bool hasModule, bool running)
{
    m_runButton->setEnabled(hasModule);
    m_runButton->setToolTip(hasModule ? tr("Estimate the module on every configuration") : tr("Open a module first"));
    m_cancelButton->setEnabled(running);
}

} // namespace elk::app
