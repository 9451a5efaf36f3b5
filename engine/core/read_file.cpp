// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/read_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace elk {

std::optional<std::string> readFileText(const std::string& path, std::string& error, std::uintmax_t maxBytes)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (!fs::exists(status)) {
        error = "cannot read '" + path + "': no such file";
        return std::nullopt;
    }
    if (fs::is_directory(status)) {
        error = "cannot read '" + path + "': it is a directory";
        return std::nullopt;
    }
    const std::uintmax_t size = fs::file_size(path, ec);
    if (!ec && size > maxBytes) {
        error = "cannot read '" + path + "': " + std::to_string(size) + " bytes, more than the "
            + std::to_string(maxBytes) + " bytes allowed";
        return std::nullopt;
    }
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        error = "cannot read '" + path + "': " + std::strerror(errno);
        return std::nullopt;
    }
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (file.bad()) {
        error = "cannot read '" + path + "': I/O error";
        return std::nullopt;
    }
    return text;
}

} // namespace elk
