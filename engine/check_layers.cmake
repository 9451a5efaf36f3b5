# SPDX-FileCopyrightText: 2026 Elk Studio contributors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# cmake -DENGINE_DIR=engine -DLAYERS="core=|model=core|..." [-DFRONT_ENDS="app|widgets" -DFACADE=core,run,...]
#       [-DSTAMP=file] -P check_layers.cmake
#
# Fails, naming file, line and the folders allowed, when a file of an engine folder includes a header
# of an engine folder that is not below it. LAYERS lists the folders bottom up, each with the folders
# it uses directly; what those use is allowed too. A file under one of the FRONT_ENDS folders (the app,
# the CLI, the widgets) may include only the engine folders FACADE names: the rest of the engine is
# reached through them. Writes STAMP when every include is in order.
cmake_minimum_required(VERSION 3.25)
if(NOT ENGINE_DIR OR NOT LAYERS)
    message(FATAL_ERROR "usage: cmake -DENGINE_DIR=DIR -DLAYERS=\"a=|b=a|...\" [-DSTAMP=FILE] -P check_layers.cmake")
endif()
string(REPLACE "|" ";" layers "${LAYERS}")
set(folders "")
foreach(entry IN LISTS layers)
    string(REPLACE "=" ";" parts "${entry}")
    list(GET parts 0 folder)
    list(LENGTH parts count)
    set(direct "")
    if(count GREATER 1)
        list(GET parts 1 directText)
        string(REPLACE "," ";" direct "${directText}")
    endif()
    # Everything below the folder: its direct layers and, recursively, theirs.
    set(all "")
    foreach(layer IN LISTS direct)
        if(NOT layer IN_LIST folders)
            message(FATAL_ERROR "engine layers: ${folder} uses '${layer}', which is not an earlier layer")
        endif()
        list(APPEND all "${layer}" ${allowed_${layer}})
    endforeach()
    list(REMOVE_DUPLICATES all)
    set(allowed_${folder} "${all}")
    list(APPEND folders "${folder}")
endforeach()

# includes_outside(FILE BASE ALLOWED OUT): "PATH:LINE: includes engine/X/" for each #include in FILE of
# an engine folder X not in the list ALLOWED; PATH is FILE relative to BASE.
function(includes_outside file base allowed out)
    # Lines as a list: the characters CMake's lists treat specially (; [ ]) never matter to an include.
    file(READ "${file}" text)
    string(REGEX REPLACE "[];[\\]" "" text "${text}")
    string(REPLACE "\n" ";" allLines "${text}")
    file(RELATIVE_PATH shown "${base}" "${file}")
    set(found "")
    set(lineNumber 0)
    foreach(line IN LISTS allLines)
        math(EXPR lineNumber "${lineNumber} + 1")
        if(line MATCHES "^[ \t]*#[ \t]*include[ \t]*[\"<]engine/([a-z_]+)/" AND NOT CMAKE_MATCH_1 IN_LIST allowed)
            list(APPEND found "${shown}:${lineNumber}: includes engine/${CMAKE_MATCH_1}/")
        endif()
    endforeach()
    set(${out} "${found}" PARENT_SCOPE)
endfunction()

set(problems "")
foreach(folder IN LISTS folders)
    file(GLOB_RECURSE files "${ENGINE_DIR}/${folder}/*.h" "${ENGINE_DIR}/${folder}/*.cpp" "${ENGINE_DIR}/${folder}/*.in")
    list(SORT files)
    string(REPLACE ";" ", " allowedText "${allowed_${folder}}")
    if(allowedText STREQUAL "")
        set(allowedText "no other folder: it is the bottom layer")
    endif()
    foreach(file IN LISTS files)
        includes_outside("${file}" "${ENGINE_DIR}/.." "${folder};${allowed_${folder}}" found)
        foreach(problem IN LISTS found)
            string(APPEND problems "\n  ${problem}, which is not below engine/${folder} (it may include ${allowedText})")
        endforeach()
    endforeach()
endforeach()

# The front ends reach the engine through its facade folders only.
if(FRONT_ENDS)
    if(NOT FACADE)
        message(FATAL_ERROR "engine layers: FRONT_ENDS needs FACADE, the engine folders they may include")
    endif()
    string(REPLACE "," ";" facade "${FACADE}")
    string(REPLACE "|" ";" frontEnds "${FRONT_ENDS}")
    string(REPLACE ";" ", " facadeText "${facade}")
    set(facadeProblems "")
    foreach(frontEnd IN LISTS frontEnds)
        file(GLOB_RECURSE files "${frontEnd}/*.h" "${frontEnd}/*.cpp")
        list(SORT files)
        foreach(file IN LISTS files)
            includes_outside("${file}" "${frontEnd}/.." "${facade}" found)
            foreach(problem IN LISTS found)
                string(APPEND facadeProblems "\n  ${problem}, which is behind the engine facade")
            endforeach()
        endforeach()
    endforeach()
    if(facadeProblems)
        string(APPEND problems "${facadeProblems}\n  (a front end includes only engine/${facadeText}; "
            "engine/run/chips.h, models.h, results.h and cost_fit.h give what it needs of the other folders)")
    endif()
endif()

if(problems)
    message(FATAL_ERROR "engine layers: an include goes up or sideways (engine/README.md gives the order; move the "
        "code down, or the include up):${problems}")
endif()
if(STAMP)
    file(WRITE "${STAMP}" "engine layers in order\n")
endif()
