#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 Elk Studio contributors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs every Debian 12 package that building, testing and taking screenshots of Elk Studio need.
# Idempotent: when everything is present it does nothing; it runs `apt-get update` only when a
# package is missing.
set -euo pipefail

packages=(
    # toolchain
    g++ cmake ninja-build pkg-config git
    # the sanitizer and fuzz part of the test command (CMake preset "fuzz"): clang with libFuzzer
    clang libclang-rt-14-dev
    # packaging: cpack -G DEB computes Depends with dpkg-shlibdeps
    dpkg-dev
    # libraries (fixed by the design)
    qt6-base-dev qt6-svg-dev qt6-qpa-plugins libgl-dev
    libqcustomplot-dev libqcustomplot2.1-qt6
    libsqlite3-dev zlib1g-dev nlohmann-json3-dev libssl-dev
    libprotobuf-dev protobuf-compiler libonnx-dev
    # test data: 1,072 small ONNX models for importer tests
    libonnx-testdata
    # sweeps over MPI ranks (elk sweep --mpi; optional component, on when found)
    openmpi-bin libopenmpi-dev
    # running the GUI headless and looking at it
    xvfb xauth imagemagick fonts-dejavu-core
)

missing=()
for package in "${packages[@]}"; do
    status="$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)"
    if [[ "$status" != "install ok installed" ]]; then
        missing+=("$package")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "install-deps: all ${#packages[@]} packages present"
    exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [[ "$(id -u)" -ne 0 ]]; then
    if command -v sudo >/dev/null; then
        sudo_cmd=(sudo)
    else
        echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update
"${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
