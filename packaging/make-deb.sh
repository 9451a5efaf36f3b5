#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 Elk Studio contributors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds the Release tree and the Debian package: build/default/elk-studio_VERSION_ARCH.deb.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh
cmake --preset default
cmake --build --preset default -j "$(nproc)"
cd build/default
cpack -G DEB
ls -1 ./*.deb
