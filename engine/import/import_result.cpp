// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/import_result.h"

namespace elk::import {

std::string toString(const std::string& file, const ImportIssue& issue)
{
    std::string text = file;
    if (!issue.location.empty())
        text += ": " + issue.location;
    return text + ": " + issue.message;
}

} // namespace elk::import
