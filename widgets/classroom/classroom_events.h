// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Plain C++ (no Qt): the story classroom mode tells, testable without a window.

#include <cstdint>
#include <string>
#include <vector>

namespace elk::run {
struct RunResult;
}

namespace elk::widgets {

enum class ClassroomEventKind { PreloadStart, PreloadEnd, ExecuteStart, ExecuteEnd };
const char* toString(ClassroomEventKind kind); ///< "preload-start" "preload-end" "execute-start" "execute-end"

/// SRAM per core at one instant, the way the simulator counts it (sim::SimResult::sramBytesPerCore).
struct ClassroomSram {
    std::int64_t executeBytes = 0; ///< the executing op's execute state (0 when none executes)
    std::int64_t preloadBytes = 0; ///< preloads in progress or done and waiting to execute
    std::int64_t reservedBytes = 0; ///< activations living across the current (or next) step
    std::int64_t capacityBytes = 0; ///< ScheduleProblem::sramBytesPerCore
    std::int64_t usedBytes() const { return executeBytes + preloadBytes + reservedBytes; }
    std::int64_t freeBytes() const { return capacityBytes > usedBytes() ? capacityBytes - usedBytes() : 0; }
};

/// One instant of a design's simulated timeline; the state fields hold just after the event.
struct ClassroomEvent {
    ClassroomEventKind kind = ClassroomEventKind::ExecuteStart;
    int step = 0; ///< execution step ("op N" in captions)
    double atCycles = 0;
    double atMicroseconds = 0;
    std::vector<int> executing; ///< 0 or 1 step
    std::vector<int> preloading; ///< preloads in progress
    std::vector<int> preloaded; ///< preloads finished, waiting for their execution
    ClassroomSram sram;
    /// ExecuteStart: how long the op waited for its preload after the previous op finished;
    /// ExecuteEnd: how long the next op will wait for its preload. 0 otherwise.
    double stallMicroseconds = 0;
    std::string caption; ///< UTF-8, one sentence
};

/// Every preload start/end and execute start/end of design `designIndex`'s simulated timeline, in
/// time order. Ties: each lane keeps its own order (executions by step, preloads by preload order);
/// across lanes ends come before starts, executions before preloads. Preloads that load nothing
/// (zero length, zero bytes) have no events. Empty when the design has no simulation or schedule.
std::vector<ClassroomEvent> classroomEvents(const run::RunResult& run, int designIndex);

/// One tick of the classroom player: the next event of one of the designs shown together, merged
/// by time (ties: the first design, then event order).
struct ClassroomTick {
    double atCycles = 0;
    int lane = 0; ///< which design (index into the lists given to classroomTicks)
    int event = 0; ///< index into that design's events
};
std::vector<ClassroomTick> classroomTicks(const std::vector<std::vector<ClassroomEvent>>& designs);
/// For each design, its latest event at or before tick `tick` in merged order (-1: none yet).
std::vector<int> classroomEventsAtTick(const std::vector<ClassroomTick>& ticks, int tick, std::size_t laneCount);

/// "op 3", "ops 13–15", "ops 2, 5 and 7–9" (steps sorted; empty: "no op").
std::string describeSteps(std::vector<int> steps);
/// "512 B", "1.2 MiB", "624 KiB" (binary units, 1 decimal below 100).
std::string formatBytes(std::int64_t bytes);
/// "850 ns", "3.42 µs", "25.2 ms" (3 significant digits).
std::string formatMicroseconds(double microseconds);

} // namespace elk::widgets
