// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Sweeps recorded in the result cache: written by runSweep, listed by ResultStore::sweeps, reopened here.
#pragma once

#include "engine/run/sweep.h"
#include "engine/store/result_store.h"

#include <optional>
#include <string>
#include <vector>

namespace elk::store {

/// Records what a sweep (or one shard of it) ran: its definition (the base spec's canonical JSON,
/// axes, designs and, for parity, the base's parity key) and the done points' result rows.
/// `pointKeys[p]`: the runs (or parity_runs) row key of point p, "" where none was made.
/// Best effort: a cache that cannot be written loses the record, never the sweep.
void recordSweep(ResultStore& store, const run::RunSpec& base, const run::SweepResult& result,
    const std::vector<std::string>& pointKeys, const std::string& parityBaseKey);

/// A sweep the result cache recorded, rebuilt from the cache alone: every point whose row is still
/// there is done (fromCache), the others are not (trimmed, or a shard not merged yet).
struct RecordedSweep {
    SweepRecordInfo info;
    run::SweepResult result;
    bool parity = false;
    std::int64_t pointsWithResult = 0;
};
/// `hashOrPrefix`: the sweep's hash or a unique prefix of it. Nothing (and `error` set) when the
/// cache has no such sweep or its record is unreadable.
std::optional<RecordedSweep> openRecordedSweep(ResultStore& store, const std::string& hashOrPrefix, std::string& error);

} // namespace elk::store
