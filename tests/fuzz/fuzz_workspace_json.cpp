// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Workspace JSON (*.elkproj): parse (no file is opened), and a parsed workspace saves to text that
// parses to the same workspace.
#include "engine/run/workspace.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string path = "/fuzz/workspace.elkproj";
    const elk::run::WorkspaceParseResult parsed = elk::run::workspaceFromJson(elk::fuzz::asText(data, size), path);
    if (!parsed.ok())
        return 0;
    const std::string text = elk::run::workspaceToJson(parsed.workspace, path);
    const elk::run::WorkspaceParseResult again = elk::run::workspaceFromJson(text, path);
    ELK_FUZZ_CHECK(again.ok(), again.errors.front().field + ": " + again.errors.front().message);
    ELK_FUZZ_CHECK(
        elk::run::workspaceToJson(again.workspace, path) == text, "the saved workspace reads back differently");
    return 0;
}
