#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 Elk Studio contributors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A long fuzzing run: every harness for SECONDS (default 600) with clang, address and undefined
# sanitizers, libFuzzer, 1 s per input at most, seeded also from ../shared/corpus; then a table of
# executions, executions per second, new inputs, slowest input and peak memory per harness.
#   tests/fuzz/run_long.sh [SECONDS] [PARALLEL_HARNESSES]
# Crashes, leaks and slow inputs land in build/fuzz/tests/fuzz/artifacts/ (add each one as a
# regression input under tests/fuzz/regressions/<harness>/, named after what it was).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-600}"
parallel="${2:-$(nproc)}"
cmake --preset fuzz -DELK_FUZZ_SECONDS="$seconds" -DELK_FUZZ_TIMEOUT_S=1 -DELK_FUZZ_SHARED_SEEDS=ON >/dev/null
cmake --build --preset fuzz -j "$(nproc)"
log="build/fuzz/fuzz-long-$(date +%Y%m%d-%H%M%S).log"
status=0
ctest --test-dir build/fuzz -L fuzz -j "$parallel" --timeout "$((seconds + 600))" -V >"$log" 2>&1 || status=$?
echo "log: $log"
printf '%-32s %14s %10s %8s %10s %8s\n' harness executions exec/s new slowest_s rss_mb
for name in $(grep -o 'Test command: [^ ]*/fuzz_[a-z_]*' "$log" | sed 's|.*/||' | sort -u); do
    [[ "$name" == fuzz_write_seeds ]] && continue
    stats="$(grep -E "^[0-9]+: stat::" "$log" | grep -F "$(grep -E "Test command: .*/$name " "$log" | head -1 | sed -E 's/^([0-9]+):.*/\1/'): " || true)"
    value() { grep -E "stat::$1:" <<<"$stats" | head -1 | awk '{print $NF}'; }
    printf '%-32s %14s %10s %8s %10s %8s\n' "$name" "$(value number_of_executed_units)" "$(value average_exec_per_sec)" \
        "$(value new_units_added)" "$(value slowest_unit_time_sec)" "$(value peak_rss_mb)"
done
ls build/fuzz/tests/fuzz/artifacts/ 2>/dev/null | sed 's/^/artifact: /' || true
# Back to the bounded settings of `ctest --preset fuzz` (the cache would keep the long ones).
cmake --preset fuzz -DELK_FUZZ_SECONDS=20 -DELK_FUZZ_TIMEOUT_S=5 -DELK_FUZZ_SHARED_SEEDS=OFF >/dev/null
exit "$status"
