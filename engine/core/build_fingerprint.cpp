// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/build_fingerprint.h"

#include "engine/core/version.h"

namespace elk {

namespace detail {
    extern const char* const kBuildFingerprint; // generated build_fingerprint_value.cpp

    namespace {
        std::string& overriddenFingerprint()
        {
            static std::string fingerprint;
            return fingerprint;
        }
    }

    void setBuildFingerprintForTests(const std::string& fingerprint)
    {
        overriddenFingerprint() = fingerprint;
    }
} // namespace detail

std::string engineBuildFingerprint()
{
    const std::string& overridden = detail::overriddenFingerprint();
    return overridden.empty() ? std::string(detail::kBuildFingerprint) : overridden;
}

std::string engineBuildId()
{
    return std::string(kEngineVersion) + "+" + engineBuildFingerprint().substr(0, 16);
}

} // namespace elk
