// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// What a cached number was computed by: the version and a hash of the engine's sources.
#pragma once

#include <string>

namespace elk {

/// SHA-256 (64 hex digits) over the engine's sources and the resources compiled into it, made at
/// build time by engine/core/build_fingerprint.cmake; any edit of them gives another one.
std::string engineBuildFingerprint();

/// kEngineVersion + "+" + the first 16 hex digits of the fingerprint ("0.9.0+1a2b3c4d5e6f7a8b"):
/// the engine identity that every cache key and every stored row's engine_version carry, so a
/// code change without a version bump is a miss rather than old numbers.
std::string engineBuildId();

namespace detail {
    /// Tests only: another fingerprint from now on ("" restores the built one). Not thread-safe
    /// against concurrent readers; call it while no run is going.
    void setBuildFingerprintForTests(const std::string& fingerprint);
}

} // namespace elk
