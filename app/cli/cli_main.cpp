// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
int main() { return 0; } // placeholder: replaced by the CLI work
