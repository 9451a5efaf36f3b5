// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace elk {

/// How a long engine call ended.
enum class RunStatus { Completed, Stopped, Failed };

/// Progress reporting and cooperative cancellation for long engine calls.
/// Contract: the engine calls stopRequested() at safe points (at least every few milliseconds of work)
/// and returns RunStatus::Stopped soon after it turns true; progress() may be called from the worker
/// thread only and must be cheap. The engine never learns whether Qt, the CLI or a test is listening.
class RunControl {
public:
    virtual ~RunControl() = default;
    virtual bool stopRequested() const = 0;
    virtual void progress(std::int64_t done, std::int64_t total, std::string_view stage) = 0;
};

/// Never stops, reports nowhere.
class NullRunControl final : public RunControl {
public:
    bool stopRequested() const override { return false; }
    void progress(std::int64_t, std::int64_t, std::string_view) override { }
};

/// A stop flag any thread may set, plus an optional progress callback.
class AtomicRunControl final : public RunControl {
public:
    using ProgressCallback = std::function<void(std::int64_t done, std::int64_t total, std::string_view stage)>;
    explicit AtomicRunControl(ProgressCallback callback = {})
        : m_callback(std::move(callback))
    {
    }

    void requestStop() { m_stop.store(true, std::memory_order_relaxed); }
    bool stopRequested() const override { return m_stop.load(std::memory_order_relaxed); }
    void progress(std::int64_t done, std::int64_t total, std::string_view stage) override
    {
        m_lastDone = done;
        m_lastTotal = total;
        m_lastStage = stage;
        if (m_callback)
            m_callback(done, total, stage);
    }
    std::int64_t lastDone() const { return m_lastDone; }
    std::int64_t lastTotal() const { return m_lastTotal; }
    const std::string& lastStage() const { return m_lastStage; }

private:
    std::atomic<bool> m_stop { false };
    ProgressCallback m_callback;
    std::int64_t m_lastDone = 0;
    std::int64_t m_lastTotal = 0;
    std::string m_lastStage;
};

} // namespace elk
