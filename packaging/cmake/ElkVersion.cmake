# SPDX-FileCopyrightText: 2026 Elk Studio contributors
# SPDX-License-Identifier: GPL-3.0-or-later
# ELK_GIT_DESCRIBE records which source a result came from; "unknown" outside a git checkout.
find_package(Git QUIET)
set(ELK_GIT_DESCRIBE "unknown")
if(GIT_FOUND AND EXISTS "${PROJECT_SOURCE_DIR}/.git")
    execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --dirty --tags
        WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" OUTPUT_VARIABLE _elk_describe
        OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _elk_git_rc)
    if(_elk_git_rc EQUAL 0 AND _elk_describe)
        set(ELK_GIT_DESCRIBE "${_elk_describe}")
    endif()
endif()
