// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace elk {

/// SHA-256 (FIPS 180-4) through OpenSSL's EVP interface; hashes are never hand-written here.
/// Hex digests are 64 lower-case characters.
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(std::string_view bytes);
    /// Finishes the digest; the object must not be updated afterwards.
    std::string finalHex();

private:
    struct Context;
    std::unique_ptr<Context> m_context;
};

/// Lower-case hex SHA-256 of `bytes`.
std::string sha256Hex(std::string_view bytes);

/// Lower-case hex SHA-256 of a file's bytes, read in chunks (model files may be large).
/// On failure returns nothing and sets `error` to a message naming the path and the reason.
std::optional<std::string> sha256HexOfFile(const std::string& path, std::string& error);

/// True for exactly 64 lower-case hex digits.
bool isSha256Hex(std::string_view text);

} // namespace elk
