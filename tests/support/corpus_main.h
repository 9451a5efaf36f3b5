// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// ELK_CORPUS_TEST_MAIN(TestClass, folder): the main of a test that only reads a corpus in ../shared.
// Without the folder it prints why and exits with kCorpusAbsentExitCode, which ctest reports as
// "skipped" (SKIP_RETURN_CODE in tests/CMakeLists.txt) instead of a pass that ran nothing.

#include <QCoreApplication>
#include <QTest>

#include <cstdio>
#include <filesystem>

inline constexpr int kCorpusAbsentExitCode = 77;

#define ELK_CORPUS_TEST_MAIN(TestClass, folder)                                                                        \
    int main(int argc, char** argv)                                                                                    \
    {                                                                                                                  \
        if (!std::filesystem::is_directory(folder)) {                                                                  \
            std::printf("SKIP: %s is absent (it lives in ../shared beside the clone)\n",                               \
                std::filesystem::path(folder).string().c_str());                                                       \
            return kCorpusAbsentExitCode;                                                                              \
        }                                                                                                              \
        QCoreApplication app(argc, argv);                                                                              \
        TestClass test;                                                                                                \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return QTest::qExec(&test, argc, argv);                                                                        \
    }
