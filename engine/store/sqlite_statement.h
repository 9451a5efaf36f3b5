// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// A prepared SQLite statement that finalises itself (engine/store only).
#pragma once

#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>

#include <sqlite3.h>

namespace elk::store::detail {

class Statement {
public:
    Statement(sqlite3* db, const char* sql) { m_prepareCode = sqlite3_prepare_v2(db, sql, -1, &m_statement, nullptr); }
    ~Statement() { sqlite3_finalize(m_statement); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    int prepareCode() const { return m_prepareCode; }

    void bind(int index, const std::string& text)
    {
        sqlite3_bind_text64(m_statement, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    }
    void bind(int index, std::int64_t value) { sqlite3_bind_int64(m_statement, index, value); }
    /// The bytes must stay alive until the statement has run.
    void bindBlob(int index, std::string_view bytes)
    {
        if (bytes.empty()) // a null pointer would bind NULL, not an empty blob
            sqlite3_bind_zeroblob(m_statement, index, 0);
        else
            sqlite3_bind_blob64(m_statement, index, bytes.data(), bytes.size(), SQLITE_STATIC);
    }

    /// SQLITE_ROW, SQLITE_DONE or an error code (also when preparing failed).
    int step() { return m_prepareCode != SQLITE_OK ? m_prepareCode : sqlite3_step(m_statement); }

    std::int64_t integer(int column) { return sqlite3_column_int64(m_statement, column); }
    std::string text(int column)
    {
        const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(m_statement, column));
        return data != nullptr ? std::string(data, std::size_t(sqlite3_column_bytes(m_statement, column)))
                               : std::string();
    }
    std::string blob(int column)
    {
        const auto* data = static_cast<const char*>(sqlite3_column_blob(m_statement, column));
        return data != nullptr ? std::string(data, std::size_t(sqlite3_column_bytes(m_statement, column)))
                               : std::string();
    }

    sqlite3_stmt* raw() { return m_statement; }

private:
    sqlite3_stmt* m_statement = nullptr;
    int m_prepareCode = SQLITE_OK;
};

/// The current UTC time as the cache stores it ("2026-12-02T20:49:33Z").
inline std::string utcNowText()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc {};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

} // namespace elk::store::detail
