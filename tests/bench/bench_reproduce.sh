#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 Elk Studio contributors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Issue 14's targets: `elk reproduce fig17` cold (≤ 60 s), `elk reproduce all` cold (≤ 10 min) and
# from the cache (≤ 30 s), on equal terms, and with --parity artifact when the artifact's model files
# are there. Usage: tests/bench/bench_reproduce.sh [build/default/app/elk] [EINSTEIN_DIR]
set -euo pipefail
elk="$(realpath "${1:-build/default/app/elk}")"
einstein="${2:-../shared/corpus/einstein}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
timed() { # label, then the elk arguments
    local label="$1" start
    shift
    start=$(date +%s.%N)
    "$elk" "$@" > /dev/null 2>&1
    printf "%-34s %7.1f s\n" "$label" "$(echo "$(date +%s.%N) - $start" | bc)"
}
timed "fig17, equal terms, cold" reproduce fig17 --out "$work/f17" --cache "$work/f17.sqlite"
timed "all, equal terms, cold" reproduce all --out "$work/eq" --cache "$work/eq.sqlite"
timed "all, equal terms, from the cache" reproduce all --out "$work/eq2" --cache "$work/eq.sqlite"
if [[ -f "$einstein/llama2-13.json" ]]; then
    timed "fig17, parity, cold" reproduce fig17 --parity artifact --einstein "$einstein" --out "$work/p17" --cache "$work/p17.sqlite"
    timed "all, parity, cold" reproduce all --parity artifact --einstein "$einstein" --out "$work/p" --cache "$work/p.sqlite"
    timed "all, parity, from the cache" reproduce all --parity artifact --einstein "$einstein" --out "$work/p2" --cache "$work/p.sqlite"
    timed "ablation, cold" reproduce ablation --einstein "$einstein" --out "$work/a" --cache "$work/a.sqlite"
else
    echo "parity: $einstein/llama2-13.json is absent"
fi
