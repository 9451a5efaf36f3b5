#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 Elk Studio contributors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The README's second command: install what is missing, build everything, run the whole ctest suite;
# then build the engine and the CLI again with clang's address and undefined-behaviour sanitizers
# (CMake preset "fuzz", no GUI) and run their tests there, the fuzz harnesses included (ctest label
# fuzz: each for a bounded time). ELK_SKIP_SANITIZERS=1 stops after the first part.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh
jobs="$(nproc)"

start=$SECONDS
cmake --preset default
cmake --build --preset default -j "$jobs"
ctest --preset default -j "$jobs"
echo "test.sh: Release build and suite: $((SECONDS - start)) s"

if [[ "${ELK_SKIP_SANITIZERS:-0}" == 1 ]]; then
    echo "test.sh: sanitizer part skipped (ELK_SKIP_SANITIZERS=1)"
    exit 0
fi
start=$SECONDS
cmake --preset fuzz
cmake --build --preset fuzz -j "$jobs"
ctest --preset fuzz -j "$jobs"
echo "test.sh: sanitizer build and suite (engine, CLI, fuzz harnesses): $((SECONDS - start)) s"
