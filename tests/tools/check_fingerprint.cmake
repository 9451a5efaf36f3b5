# SPDX-FileCopyrightText: 2026 Elk Studio contributors
# SPDX-License-Identifier: GPL-3.0-or-later
# The build fingerprint follows the files that make the numbers (issue 42 item 5): in a scratch tree,
# an edited engine source and an edited preset each give another fingerprint; an edit outside the
# engine and its resources (a widget) gives the same; the same tree gives the same one twice.
#   cmake -DSCRIPT=engine/core/build_fingerprint.cmake -DSCRATCH=<empty folder> -P check_fingerprint.cmake
file(REMOVE_RECURSE "${SCRATCH}")
file(MAKE_DIRECTORY "${SCRATCH}/engine/core" "${SCRATCH}/resources/presets" "${SCRATCH}/widgets")
file(WRITE "${SCRATCH}/engine/core/a.cpp" "int a() { return 1; }\n")
file(WRITE "${SCRATCH}/resources/presets/chip.json" "{\"cores\": 4}\n")
file(WRITE "${SCRATCH}/widgets/view.cpp" "int view() { return 1; }\n")

function(fingerprint out)
    execute_process(COMMAND "${CMAKE_COMMAND}" "-DROOT=${SCRATCH}" -DPRINT=ON -P "${SCRIPT}"
        ERROR_VARIABLE printed RESULT_VARIABLE rc)
    string(STRIP "${printed}" printed)
    if(NOT rc EQUAL 0 OR NOT printed MATCHES "^[0-9a-f]+$")
        message(FATAL_ERROR "build_fingerprint.cmake failed (${rc}): ${printed}")
    endif()
    set(${out} "${printed}" PARENT_SCOPE)
endfunction()

function(expect what a b equal)
    if(equal AND NOT a STREQUAL b)
        message(FATAL_ERROR "${what}: the fingerprint changed (${a} -> ${b}); it must not")
    elseif(NOT equal AND a STREQUAL b)
        message(FATAL_ERROR "${what}: the fingerprint stayed ${a}; it must change")
    endif()
    message(STATUS "${what}: ok")
endfunction()

fingerprint(first)
fingerprint(again)
expect("the same tree" "${first}" "${again}" TRUE)
file(WRITE "${SCRATCH}/widgets/view.cpp" "int view() { return 2; }\n")
fingerprint(afterWidget)
expect("a widget edited" "${first}" "${afterWidget}" TRUE)
file(WRITE "${SCRATCH}/engine/core/a.cpp" "int a() { return 2; }\n")
fingerprint(afterSource)
expect("an engine source edited" "${afterWidget}" "${afterSource}" FALSE)
file(WRITE "${SCRATCH}/resources/presets/chip.json" "{\"cores\": 8}\n")
fingerprint(afterPreset)
expect("a preset edited" "${afterSource}" "${afterPreset}" FALSE)
file(RENAME "${SCRATCH}/engine/core/a.cpp" "${SCRATCH}/engine/core/b.cpp")
fingerprint(afterRename)
expect("an engine source renamed" "${afterPreset}" "${afterRename}" FALSE)
