// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Deliberately unformatted, for tst_clang_format_refuses: the format check must name this file.
int  main( ) {return 0 ;}
