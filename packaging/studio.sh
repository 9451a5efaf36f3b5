#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 Elk Studio contributors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The README's first command: install what is missing, build, and start elk-studio on the bundled
# default workspace. Without a display it says how to run headless and runs the CLI on the same
# defaults instead.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh
cmake --preset default
cmake --build --preset default --target elk elk-studio -j "$(nproc)"

workspace=resources/workspaces/default.elkproj
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
    exec build/default/app/elk-studio --workspace "$workspace" "$@"
fi
cat <<MSG
No display found, so elk-studio cannot open a window here. To run the GUI headless:
    xvfb-run -a -s "-screen 0 1600x1000x24" build/default/app/elk-studio --workspace $workspace
(QT_QPA_PLATFORM=offscreen also works, but shows nothing.) Running the CLI on the same defaults:

MSG
exec build/default/app/elk workspace "$workspace"
