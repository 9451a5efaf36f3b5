# SPDX-FileCopyrightText: 2026 Elk Studio contributors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# cmake -DROOT=DIR -DFOLDERS="engine|app|widgets|tests" [-DEXCLUDE=tests/data] -P check_format.cmake
#
# Fails, listing the files, when a C++ file under ROOT/FOLDERS differs from what clang-format makes of
# it with the repository's .clang-format; exits 77 (ctest: skipped) when clang-format is not installed.
# To fix: clang-format -i FILE... (the list is printed as one command).
cmake_minimum_required(VERSION 3.25)
find_program(CLANG_FORMAT NAMES clang-format clang-format-14 clang-format-15 clang-format-16)
if(NOT CLANG_FORMAT)
    message(STATUS "clang-format is not installed: skipped")
    cmake_language(EXIT 77)
endif()
string(REPLACE "|" ";" folders "${FOLDERS}")
set(files "")
foreach(folder IN LISTS folders)
    file(GLOB_RECURSE found "${ROOT}/${folder}/*.cpp" "${ROOT}/${folder}/*.h")
    list(APPEND files ${found})
endforeach()
if(EXCLUDE)
    list(FILTER files EXCLUDE REGEX "^${ROOT}/${EXCLUDE}/")
endif()
list(SORT files)
list(LENGTH files count)
if(count EQUAL 0)
    message(FATAL_ERROR "no C++ files under ${ROOT} (${FOLDERS})")
endif()
set(unformatted "")
# In batches: one process per file would take most of the test's time.
set(batch "")
set(index 0)
foreach(file IN LISTS files)
    list(APPEND batch "${file}")
    math(EXPR index "${index} + 1")
    list(LENGTH batch size)
    if(size EQUAL 64 OR index EQUAL count)
        execute_process(COMMAND "${CLANG_FORMAT}" --dry-run --Werror --ferror-limit=1 ${batch}
            WORKING_DIRECTORY "${ROOT}" RESULT_VARIABLE result ERROR_VARIABLE messages OUTPUT_QUIET)
        if(NOT result EQUAL 0)
            # Which of the batch: the messages start "FILE:LINE:COL: error: code should be clang-formatted".
            foreach(candidate IN LISTS batch)
                string(FIND "${messages}" "${candidate}:" at)
                if(NOT at EQUAL -1)
                    file(RELATIVE_PATH shown "${ROOT}" "${candidate}")
                    list(APPEND unformatted "${shown}")
                endif()
            endforeach()
        endif()
        set(batch "")
    endif()
endforeach()
if(unformatted)
    list(LENGTH unformatted bad)
    string(REPLACE ";" " " fileList "${unformatted}")
    message(FATAL_ERROR "${bad} of ${count} files are not formatted with .clang-format; fix with:\n  clang-format -i ${fileList}")
endif()
message(STATUS "${count} files formatted")
