// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include <QString>
#include <QWidget>

#include "app/studio/sweep_job.h"
#include "engine/run/chips.h"
#include "engine/run/run_spec.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QStackedWidget;

namespace elk::widgets {
class SweepView;
}

namespace elk::app {

/// What a sweep varies around: the current run request and chip (or why there is none).
struct SweepBase {
    elk::run::RunRequest request;
    elk::chip::ChipSpec chip; ///< the chip as edited; takes the place of request.chip
    QString error; ///< non-empty: nothing to sweep yet (no model, invalid chip)
};

/// The Sweep tab: one or two numeric ChipSpec fields with start/stop/step (or a one-click preset of
/// the paper's studies) → runSweep in the background through the result cache, the SweepView
/// filling in point by point; Cancel keeps the points done so far.
class SweepPanel : public QWidget {
    Q_OBJECT
public:
    /// A numeric chip field a sweep can vary.
    struct Field {
        QString field; ///< dotted, as RunRequest::chipOverrides takes it
        QString label; ///< with its unit
        bool integer = false;
        std::function<double(const elk::chip::ChipSpec&)> value;
    };
    static const std::vector<Field>& fields();

    explicit SweepPanel(QWidget* parent = nullptr);

    /// Where the base request comes from (the main window's current model, run settings and chip).
    void setBaseProvider(std::function<SweepBase()> provider) { m_baseProvider = std::move(provider); }
    void setStore(elk::store::ResultStore* store)
    {
        m_store = store;
        m_job->setStore(store);
    }

    elk::widgets::SweepView* sweepView() const { return m_view; }
    SweepJob* job() const { return m_job; }

    /// The axes the controls describe ("field=start:stop:step"), or why they describe none.
    std::vector<elk::run::SweepAxis> axesFromControls(QString* error) const;
    /// Selects `field` for axis 0 or 1 with a range around the current chip's value.
    void setAxis(int axis, const QString& field, double start, double stop, double step);
    void setSecondAxisEnabled(bool enabled);

public slots:
    /// Runs the sweep the controls describe.
    void runSweep();
    /// Runs a preset of run::sweepPresets() by name ("hbm-bandwidth", …).
    bool runPreset(const QString& name);
    void cancel();
    /// Shows a sweep the result cache recorded (its hash or a unique prefix), from the cache alone:
    /// merged shards, MPI ranks, earlier sessions. False (the status says why) when there is none.
    bool openRecorded(const QString& hashOrPrefix);
    /// The same from another result cache file (a merged one), opened only to read; never created.
    bool openRecordedFrom(const QString& cacheFile, const QString& hashOrPrefix);
    /// Lists the cache's recorded sweeps to pick one from.
    void chooseRecorded();
    /// Picks a cache file, then one of its sweeps.
    void chooseRecordedFromFile();

signals:
    void statusMessage(const QString& message);

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct AxisControls {
        QComboBox* field = nullptr;
        QDoubleSpinBox* start = nullptr;
        QDoubleSpinBox* stop = nullptr;
        QDoubleSpinBox* step = nullptr;
        QLabel* count = nullptr;
    };
    QWidget* buildAxisRow(AxisControls& axis, int index);
    void onFieldChosen(int axis);
    void updateCounts();
    void start(std::vector<elk::run::SweepAxis> axes);
    void onUpdated(const SweepSnapshotPtr& sweep);
    void onEnded(const SweepSnapshotPtr& sweep, const QString& how);
    void setBusy(bool busy);

    std::function<SweepBase()> m_baseProvider;
    SweepJob* m_job = nullptr;
    elk::widgets::SweepView* m_view = nullptr;
    AxisControls m_axes[2];
    QCheckBox* m_secondEnabled = nullptr;
    QWidget* m_secondRow = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_openRecorded = nullptr;
    QPushButton* m_openRecordedFile = nullptr;
    bool showRecorded(elk::store::ResultStore& store, const QString& hashOrPrefix);
    /// The chosen sweep's hash, or "" when none was chosen.
    QString pickSweep(elk::store::ResultStore& store);
    elk::store::ResultStore* m_store = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_hint = nullptr; ///< shown instead of the plot until a sweep starts
    QStackedWidget* m_viewStack = nullptr;
    std::vector<QPushButton*> m_presetButtons;
    int m_pointCount = 0;
};

} // namespace elk::app
