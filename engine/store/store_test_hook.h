// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Test only: lets a test stop a process in the middle of a cache write (inside the transaction,
// after the rows are written, before COMMIT) to show that nothing partial is left.
#pragma once

namespace elk::store::detail {

/// Called with the table name ("runs", "partitions") inside every write transaction, before COMMIT.
using WriteHook = void (*)(const char* table);
void setWriteHookForTests(WriteHook hook);

} // namespace elk::store::detail
