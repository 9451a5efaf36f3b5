// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// main() for a fuzz harness built without libFuzzer (GCC, or -DELK_FUZZ=OFF): runs the harness once
// on every file named on the command line, or in a folder named there (sorted, recursively), so the
// seed corpora and the regression inputs of past crashes are replayed by every ordinary build.
// A crash or a failed invariant aborts the process; ctest reports the test as failed.
#include "tests/fuzz/fuzz_support.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

std::vector<std::filesystem::path> inputsOf(const std::filesystem::path& path)
{
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(path)) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(path))
            if (entry.is_regular_file())
                files.push_back(entry.path());
        std::sort(files.begin(), files.end());
    } else if (std::filesystem::is_regular_file(path)) {
        files.push_back(path);
    }
    return files;
}

} // namespace

int main(int argc, char** argv)
{
    std::size_t replayed = 0;
    double slowestSeconds = 0;
    std::string slowest;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument.starts_with('-'))
            continue; // libFuzzer flags (e.g. -max_total_time) mean nothing here
        if (!std::filesystem::exists(argument)) {
            std::fprintf(stderr, "replay: %s does not exist\n", argument.c_str());
            return 2;
        }
        for (const std::filesystem::path& file : inputsOf(argument)) {
            std::ifstream in(file, std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            const auto start = std::chrono::steady_clock::now();
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (seconds > slowestSeconds) {
                slowestSeconds = seconds;
                slowest = file.string();
            }
            ++replayed;
        }
    }
    std::printf("replay: %zu inputs, none crashed; slowest %.3f s (%s)\n", replayed, slowestSeconds, slowest.c_str());
    return replayed > 0 ? 0 : 2; // no input at all: the seed folders are missing
}
