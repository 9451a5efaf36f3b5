# SPDX-FileCopyrightText: 2026 Elk Studio contributors
# SPDX-License-Identifier: GPL-3.0-or-later
# elk_warnings: an INTERFACE target every Elk target links privately, so flags stay per target.
add_library(elk_warnings INTERFACE)
target_compile_options(elk_warnings INTERFACE -Wall -Wextra -Wpedantic -Wnon-virtual-dtor)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(elk_warnings INTERFACE -Wshadow=local) # GCC's spelling; clang has no equivalent
endif()
# GCC 12 reports -Wrestrict false positives inside std::string operator+ at -O2 (GCC bug 105329).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(elk_warnings INTERFACE -Wno-restrict)
endif()
if(ELK_SANITIZE)
    list(JOIN ELK_SANITIZE "," _elk_sanitizers)
    # -fno-sanitize-recover: an undefined-behaviour report stops the test, so it cannot pass unnoticed.
    target_compile_options(elk_warnings INTERFACE
        -fsanitize=${_elk_sanitizers} -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_link_options(elk_warnings INTERFACE -fsanitize=${_elk_sanitizers} -fno-sanitize-recover=all)
endif()
if(ELK_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
        message(FATAL_ERROR "ELK_FUZZ needs clang (libFuzzer); configure with the \"fuzz\" preset")
    endif()
    # Coverage instrumentation for everything; only the harnesses link libFuzzer's main (tests/fuzz).
    target_compile_options(elk_warnings INTERFACE -fsanitize=fuzzer-no-link)
    target_link_options(elk_warnings INTERFACE -fsanitize=fuzzer-no-link)
endif()
# Strict Qt defines for Qt targets only (the engine never sees Qt).
add_library(elk_qt_strict INTERFACE)
target_compile_definitions(elk_qt_strict INTERFACE QT_NO_CAST_FROM_ASCII QT_NO_FOREACH QT_USE_QSTRINGBUILDER)
