// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// check_function_length MAX_LINES DIR...
//
// Fails, listing each function with its file, line and length, when a function body in a C++ file
// under the folders is longer than MAX_LINES lines (issue 44: a long function is split by stage).
// The tree is clang-formatted (tst_clang_format), so a body is a line that is only "{" after a line
// ending in ')' (or ") const", ") override", ...), up to the next line that is only "}" at the same
// indent. Lambdas and nested blocks count toward the function that holds them.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace {

std::size_t indentOf(const std::string& line)
{
    return line.find_first_not_of(' ') == std::string::npos ? line.size() : line.find_first_not_of(' ');
}

bool onlyBrace(const std::string& line, char brace)
{
    const std::size_t at = indentOf(line);
    return at < line.size() && line[at] == brace && line.find_first_not_of(' ', at + 1) == std::string::npos;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: check_function_length MAX_LINES DIR...\n");
        return 2;
    }
    const long maxLines = std::stol(argv[1]);
    // A function head's last line: a closing parenthesis, then qualifiers only.
    const std::regex head(R"(\)\s*(const|override|final|noexcept|mutable|\s)*$)");
    const std::regex control(R"(^\s*(if|for|while|switch|catch|else|do)\b|^\s*\}?\s*(else|while)\b)");
    std::vector<std::string> files;
    for (int a = 2; a < argc; ++a)
        for (const auto& entry : std::filesystem::recursive_directory_iterator(argv[a])) {
            const auto ext = entry.path().extension();
            if (entry.is_regular_file() && (ext == ".cpp" || ext == ".h"))
                files.push_back(entry.path().string());
        }
    std::sort(files.begin(), files.end());
    std::string report;
    for (const std::string& path : files) {
        std::ifstream in(path);
        std::vector<std::string> lines;
        for (std::string line; std::getline(in, line);)
            lines.push_back(line);
        for (std::size_t i = 1; i < lines.size(); ++i) {
            if (!onlyBrace(lines[i], '{') || !std::regex_search(lines[i - 1], head)
                || std::regex_search(lines[i - 1], control))
                continue;
            const std::size_t indent = indentOf(lines[i]);
            std::size_t end = i + 1;
            while (end < lines.size() && !(onlyBrace(lines[end], '}') && indentOf(lines[end]) == indent))
                ++end;
            const long length = long(end - i) + 1;
            if (length > maxLines) {
                // The head starts at the line with the opening parenthesis of its parameter list.
                std::size_t start = i - 1;
                while (start > 0 && lines[start].find('(') == std::string::npos)
                    --start;
                report += "\n  " + path + ":" + std::to_string(start + 1) + ": " + std::to_string(length)
                    + " lines: " + lines[start].substr(indentOf(lines[start]));
            }
            i = end;
        }
    }
    if (!report.empty()) {
        std::fprintf(stderr, "functions over %ld lines (split each by stage):%s\n", maxLines, report.c_str());
        return 1;
    }
    std::printf("%zu files, no function over %ld lines\n", files.size(), maxLines);
    return 0;
}
