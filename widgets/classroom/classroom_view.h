// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <utility>
#include <vector>

#include <QString>
#include <QTimer>

#include "widgets/classroom/classroom_events.h"
#include "widgets/plots/plot_view.h"

class QComboBox;
class QFrame;
class QLabel;
class QSlider;
class QToolButton;
class QCPAxisRect;
class QCPItemStraightLine;
class QCPItemText;
class QCPLegend;
class QCPMarginGroup;
class QCPTextElement;

namespace elk::widgets {

class ClassroomLanes;
class SramGauge;

/// Classroom mode: walks a design's simulated timeline event by event (step, play, slider) with a
/// big caption per event ("op 12 executes in 61 % of SRAM while op 13 preloads"), an SRAM gauge, and a
/// preload/execute timeline whose cursor marks the instant (solid before it, faded after). A second
/// design (setSecondDesignIndex) runs below on the same time scale and advances with the first.
/// Keys: Space play/pause, Right/Left step, Home/End, +/− zoom around the cursor, 0 whole run; the
/// wheel zooms and a drag pans the time axis (the view follows the cursor). The exported figure is
/// the timeline(s) with the cursor, as visible.
class ClassroomView : public PlotView {
    Q_OBJECT
public:
    explicit ClassroomView(QWidget* parent = nullptr);
    ~ClassroomView() override;

    QString figureKind() const override { return QStringLiteral("classroom"); }
    bool hasData() const override { return !m_ticks.empty(); }

    /// The design shown below the first and advancing with it (−1: none; the first design: none).
    void setSecondDesignIndex(int index);
    int secondDesignIndex() const { return m_secondDesignIndex; }
    /// Designs shown (0, 1 or 2); lane 0 is designIndex(), lane 1 the second design.
    int laneCount() const { return m_laneCount; }
    /// Index into RunResult::designs of a lane (−1: not shown).
    int laneDesign(int lane) const;
    const std::vector<ClassroomEvent>& events(int lane) const;

    /// Every event of the shown designs, merged by time: the player's steps (the slider's range).
    int tickCount() const { return int(m_ticks.size()); }
    int currentTick() const { return m_tick; }
    void setCurrentTick(int tick);
    /// Time of the cursor (the current tick's event), cycles.
    double cursorCycles() const;
    /// The lane's latest event at the cursor (−1: none yet).
    int currentEvent(int lane) const;
    /// The caption shown for a lane at the cursor.
    QString caption(int lane) const;
    SramGauge* gauge(int lane) const;

    bool isPlaying() const { return m_timer.isActive(); }
    /// Visible part of the time axis, in cycles (the same for every design shown).
    std::pair<double, double> visibleCycles() const;
    /// Shows the whole run again (also: double-click, key 0).
    void showWholeRun();

    /// Playback speed in events per second (one of speeds(); others snap to the nearest).
    void setSpeed(double eventsPerSecond);
    double speed() const;
    static const std::vector<double>& speeds();

public slots:
    void stepForward();
    void stepBack();
    void play();
    void pause();
    void togglePlay();

signals:
    void currentTickChanged(int tick);
    void playingChanged(bool playing);

protected:
    void rebuild() override;
    void applyStyle(const FigureStyle& style) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    /// One design's share of the view: its story, its panel above the plot and its lanes in the plot.
    struct Lane {
        int design = -1;
        std::vector<ClassroomEvent> events;
        QString name;
        QString emptyText; ///< shown when the design has no events (why)
        QFrame* panel = nullptr;
        QWidget* marker = nullptr; ///< a coloured bar left of the panel: this design moved last
        QLabel* nameLabel = nullptr;
        QLabel* captionLabel = nullptr;
        SramGauge* gauge = nullptr;
        QCPAxisRect* rect = nullptr;
        ClassroomLanes* lanes = nullptr;
        QCPItemStraightLine* cursor = nullptr;
    };

    QFrame* buildPanel(Lane& lane);
    void buildControls();
    void buildPlot();
    void updateCursor();
    void jumpToStep(int step);
    void onPlotReleased(QMouseEvent* event);
    /// Shows [lower, upper] (axis unit) in every lane, clamped to the run.
    void setVisibleRange(double lower, double upper);
    /// Zooms by `factor` (> 1: in) around the cursor.
    void zoomAroundCursor(double factor);
    double toUnit(double cycles) const { return cycles / m_cyclesPerUnit; }
    /// Screen layout of the plot (undoes what applyStyle changed for an export).
    void applyScreenLayout();
    int timeLabelMargin(const QFont& font) const;

    std::array<Lane, 2> m_lanes;
    int m_laneCount = 0;
    int m_secondDesignIndex = -1;
    std::vector<ClassroomTick> m_ticks;
    int m_tick = 0;
    double m_cyclesPerUnit = 1000;
    double m_fullUpper = 1; ///< the whole run on the time axis, axis unit
    QPoint m_pressPosition; ///< a press and release close together is a click, else a pan
    bool m_syncingRanges = false;
    QString m_unit = QStringLiteral("µs");
    double m_clockHz = 1e9;
    QCPItemText* m_timeLabel = nullptr;
    QCPLegend* m_legend = nullptr;
    QCPMarginGroup* m_marginGroup = nullptr;
    bool m_exportLayout = false; ///< applyStyle changed the layout for an export; the next replot undoes it

    // What rebuild() last built, so that a selection change only moves the cursor.
    const void* m_builtRun = nullptr;
    int m_builtDesign = -2;
    int m_builtSecond = -2;
    int m_builtSelected = -1;

    QTimer m_timer;
    QToolButton* m_backButton = nullptr;
    QToolButton* m_playButton = nullptr;
    QToolButton* m_forwardButton = nullptr;
    QComboBox* m_speedBox = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_positionLabel = nullptr;
};

} // namespace elk::widgets
