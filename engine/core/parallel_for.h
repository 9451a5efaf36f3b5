// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <utility>
#include <vector>

namespace elk {

/// Threads to use for `tasks` independent tasks when a caller asks for `threads` (0: one per hardware
/// thread): never more than the tasks, at least one.
inline int threadsFor(std::size_t tasks, int threads)
{
    const int hardware = int(std::max(1u, std::thread::hardware_concurrency()));
    return std::clamp(threads > 0 ? threads : hardware, 1, std::max(1, int(std::min<std::size_t>(tasks, 1 << 16))));
}

/// Calls body(i) for every i in [0, count) on up to `threads` threads (0: one per hardware thread), the
/// calling thread included; each index is claimed once, in ascending order, so a body that writes only
/// its own slot gives results that do not depend on the thread count. `stop()` is asked before each claim:
/// true leaves the remaining indices uncalled.
template <typename Body, typename Stop> void parallelFor(std::size_t count, int threads, Body&& body, Stop&& stop)
{
    std::atomic<std::size_t> next { 0 };
    const auto work = [&] {
        for (std::size_t i = next++; i < count && !stop(); i = next++)
            body(i);
    };
    const int threadCount = threadsFor(count, threads);
    std::vector<std::thread> pool;
    pool.reserve(std::size_t(threadCount - 1));
    for (int t = 1; t < threadCount; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& thread : pool)
        thread.join();
}

template <typename Body> void parallelFor(std::size_t count, int threads, Body&& body)
{
    parallelFor(count, threads, std::forward<Body>(body), [] { return false; });
}

} // namespace elk
