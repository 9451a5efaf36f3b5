# SPDX-FileCopyrightText: 2026 Elk Studio contributors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# cmake -DROOT=DIR -DFOLDERS="engine|app|widgets" [-DMAX_LINES=800] -P check_file_length.cmake
#
# Fails, listing each file and its line count, when a C++ file under ROOT/FOLDERS has more than
# MAX_LINES lines: a file that long is split by what its parts do (style.md: files small enough to read).
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT OR NOT FOLDERS)
    message(FATAL_ERROR "usage: cmake -DROOT=DIR -DFOLDERS=\"a|b\" [-DMAX_LINES=N] -P check_file_length.cmake")
endif()
if(NOT MAX_LINES)
    set(MAX_LINES 800)
endif()
string(REPLACE "|" ";" folders "${FOLDERS}")
set(files "")
foreach(folder IN LISTS folders)
    file(GLOB_RECURSE found "${ROOT}/${folder}/*.cpp" "${ROOT}/${folder}/*.h")
    list(APPEND files ${found})
endforeach()
list(SORT files)
list(LENGTH files count)
if(count EQUAL 0)
    message(FATAL_ERROR "no C++ files under ${ROOT} (${FOLDERS})")
endif()
set(long "")
foreach(file IN LISTS files)
    # Lines counted by their newlines (STRINGS would drop empty ones).
    file(READ "${file}" text)
    string(REGEX REPLACE "[^\n]" "" newlines "${text}")
    string(LENGTH "${newlines}" lines)
    if(lines GREATER MAX_LINES)
        file(RELATIVE_PATH shown "${ROOT}" "${file}")
        string(APPEND long "\n  ${shown}: ${lines} lines")
    endif()
endforeach()
if(long)
    message(FATAL_ERROR "files over ${MAX_LINES} lines (split each by what its parts do):${long}")
endif()
message(STATUS "${count} files, none over ${MAX_LINES} lines")
