// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What every fuzz harness shares: the libFuzzer entry point it defines, the input as text, and an
// invariant check that aborts (libFuzzer then saves the input as a crash).
//
// Each harness feeds outside bytes to one decoder the way a user's file reaches it and, where the
// decoder accepted them, checks what must then hold (a canonical writer round-trips, the next stage
// accepts the result). Built with clang and -DELK_FUZZ=ON (preset "fuzz") the harnesses link
// libFuzzer; otherwise they link replay_main.cpp and run their seed and regression files once.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace elk::fuzz {

inline std::string_view asText(const std::uint8_t* data, std::size_t size)
{
    return { reinterpret_cast<const char*>(data), size };
}

[[noreturn]] inline void invariantFailed(const char* what, const char* file, int line, const std::string& detail)
{
    std::fprintf(stderr, "fuzz invariant failed: %s (%s:%d)%s%s\n", what, file, line, detail.empty() ? "" : ": ",
        detail.c_str());
    std::abort();
}

} // namespace elk::fuzz

/// Aborts with the condition's text when it does not hold: what libFuzzer reports as a crash.
#define ELK_FUZZ_CHECK(condition, detail)                                                                              \
    do {                                                                                                               \
        if (!(condition))                                                                                              \
            ::elk::fuzz::invariantFailed(#condition, __FILE__, __LINE__, (detail));                                    \
    } while (false)
