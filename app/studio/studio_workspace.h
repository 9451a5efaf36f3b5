// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include "engine/run/workspace.h"
#include "widgets/model/model_snapshot.h"

namespace elk::app {

/// One line per error, "FILE: field: message" (field is a JSON pointer or "line L, column C").
QString workspaceErrorText(const elk::run::WorkspaceParseResult& result);

/// The workspace's run parameters with the defaults resolveRunSpec() fills in for unset ones.
elk::widgets::RunParameters runParametersOf(const elk::run::RunRequest& request);

} // namespace elk::app
