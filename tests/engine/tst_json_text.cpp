// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <string>
#include <string_view>

#include <QTest>

#include "engine/chip/chip_spec_json.h"
#include "engine/core/json_text.h"
#include "engine/cost/fitted_cost.h"
#include "engine/hlo/hlo_presets.h"
#include "engine/import/einstein_importer.h"
#include "engine/model/graph_json.h"
#include "engine/run/run_spec.h"
#include "engine/run/workspace.h"

namespace {
std::string_view view(const QByteArray& bytes)
{
    return { bytes.constData(), std::size_t(bytes.size()) };
}
} // namespace

class TestJsonText : public QObject {
    Q_OBJECT

private slots:
    void pointerTokens_data()
    {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("token");
        QTest::addRow("plain key is unchanged") << QByteArray("coresPerChip") << QByteArray("coresPerChip");
        QTest::addRow("empty key") << QByteArray() << QByteArray();
        QTest::addRow("tilde") << QByteArray("a~b") << QByteArray("a~0b");
        QTest::addRow("slash") << QByteArray("a/b") << QByteArray("a~1b");
        QTest::addRow("literal ~1 is not a slash") << QByteArray("~1") << QByteArray("~01");
        QTest::addRow("slash then tilde") << QByteArray("/~") << QByteArray("~1~0");
        QTest::addRow("dots and UTF-8 untouched") << QByteArray("a.caf\xc3\xa9") << QByteArray("a.caf\xc3\xa9");
    }

    void pointerTokens()
    {
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, token);
        QCOMPARE(QByteArray::fromStdString(elk::jsonPointerToken(view(key))), token);
    }

    void positions_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("byteOffset");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addRow("first byte") << QByteArray("abc") << 0 << 1 << 1;
        QTest::addRow("last byte of first line") << QByteArray("abc") << 2 << 1 << 3;
        QTest::addRow("empty text") << QByteArray() << 0 << 1 << 1;
        QTest::addRow("the newline ends its own line") << QByteArray("ab\ncd") << 2 << 1 << 3;
        QTest::addRow("first byte after a newline") << QByteArray("ab\ncd") << 3 << 2 << 1;
        QTest::addRow("second byte of second line") << QByteArray("ab\ncd") << 4 << 2 << 2;
        QTest::addRow("after blank lines") << QByteArray("\n\n\nx") << 3 << 4 << 1;
        QTest::addRow("just past the end") << QByteArray("ab\ncd") << 5 << 2 << 3;
        QTest::addRow("far past the end is clamped") << QByteArray("ab\ncd") << 100 << 2 << 3;
        QTest::addRow("past a trailing newline") << QByteArray("ab\n") << 3 << 2 << 1;
        QTest::addRow("CR of CRLF is a column") << QByteArray("ab\r\ncd") << 2 << 1 << 3;
        QTest::addRow("after CRLF starts at column 1") << QByteArray("ab\r\ncd") << 4 << 2 << 1;
        QTest::addRow("columns count UTF-8 bytes") << QByteArray("\xc3\xa9:x") << 3 << 1 << 4;
    }

    void positions()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, byteOffset);
        QFETCH(int, line);
        QFETCH(int, column);
        const elk::TextPosition position = elk::textPositionAt(view(text), std::size_t(byteOffset));
        QCOMPARE(position.line, std::size_t(line));
        QCOMPARE(position.column, std::size_t(column));
    }

    // nlohmann's parse_error::byte counts bytes read, the offending one included.
    void parseErrorPositions_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("bytesRead");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addRow("nothing read") << QByteArray() << 0 << 1 << 1;
        QTest::addRow("end of empty input") << QByteArray() << 1 << 1 << 1;
        QTest::addRow("first byte offends") << QByteArray("x") << 1 << 1 << 1;
        QTest::addRow("offender on second line") << QByteArray("{\n  x") << 5 << 2 << 3;
        QTest::addRow("end of input is one past the end") << QByteArray("{\n") << 3 << 2 << 1;
        QTest::addRow("end of input without newline") << QByteArray("{") << 2 << 1 << 2;
    }

    void parseErrorPositions()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, bytesRead);
        QFETCH(int, line);
        QFETCH(int, column);
        const elk::TextPosition position = elk::parseErrorPosition(view(text), std::size_t(bytesRead));
        QCOMPARE(position.line, std::size_t(line));
        QCOMPARE(position.column, std::size_t(column));
    }

    void positionText()
    {
        QCOMPARE(QByteArray::fromStdString(elk::positionText({ 3, 14 })), QByteArray("line 3, column 14"));
        QCOMPARE(QByteArray::fromStdString(elk::positionText({})), QByteArray("line 1, column 1"));
    }

    void syntaxReasons_data()
    {
        QTest::addColumn<QByteArray>("what");
        QTest::addColumn<QByteArray>("reason");
        QTest::addRow("parse error at line and column")
            << QByteArray(
                   "[json.exception.parse_error.101] parse error at line 3, column 10: syntax error while parsing "
                   "object separator - unexpected number literal; expected ':'")
            << QByteArray("syntax error while parsing object separator - unexpected number literal; expected ':'");
        QTest::addRow("reason with its own colon")
            << QByteArray(
                   "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error while parsing "
                   "object key - invalid literal; last read: '{x'; expected string literal")
            << QByteArray("syntax error while parsing object key - invalid literal; last read: '{x'; expected string "
                          "literal");
        QTest::addRow("parse error at byte")
            << QByteArray("[json.exception.parse_error.110] parse error at byte 5: unexpected end of input")
            << QByteArray("unexpected end of input");
        QTest::addRow("other exception loses only its tag")
            << QByteArray("[json.exception.out_of_range.406] number overflow parsing '1e400'")
            << QByteArray("number overflow parsing '1e400'");
        QTest::addRow("parse error without tag")
            << QByteArray("parse error at line 1, column 1: bad") << QByteArray("bad");
        QTest::addRow("no prefix") << QByteArray("unexpected end of input") << QByteArray("unexpected end of input");
        QTest::addRow("colon without prefix is kept") << QByteArray("expected: x") << QByteArray("expected: x");
        QTest::addRow("unclosed bracket is not a tag") << QByteArray("[not a tag") << QByteArray("[not a tag");
        QTest::addRow("empty") << QByteArray() << QByteArray();
    }

    void syntaxReasons()
    {
        QFETCH(QByteArray, what);
        QFETCH(QByteArray, reason);
        QCOMPARE(QByteArray::fromStdString(elk::jsonSyntaxReason(view(what))), reason);
    }

    // Found by fuzzing (tests/fuzz/regressions/*/number-beyond-double-range.*): a number too large
    // for a double is not a JSON syntax error to nlohmann but an out_of_range exception, which
    // escaped every reader and ended the process. Each reader now reports it, located.
    void numbersBeyondADoubleAreLocatedErrors()
    {
        const std::string text = "{\n  \"schema\": 1,\n  \"x\": 4.83e33807\n}";
        const std::string where = "line 3, column 8";
        auto firstOf
            = [](const auto& errors) { return errors.empty() ? std::string("no error") : errors.front().field; };
        QCOMPARE(firstOf(elk::chip::chipSpecFromJson(text).errors), where);
        QCOMPARE(firstOf(elk::run::runSpecFromJson(text).errors), where);
        QCOMPARE(firstOf(elk::run::workspaceFromJson(text, "w.elkproj").errors), where);
        QCOMPARE(firstOf(elk::hlo::devicePresetFromJson(text).errors), where);
        QCOMPARE(firstOf(elk::hlo::systemPresetFromJson(text).errors), where);
        const auto graph = elk::model::graphFromJson(text);
        QVERIFY(!graph.ok());
        QCOMPARE(graph.errors.front().location, where);
        const auto fitted = elk::cost::fittedCostFromJson(text);
        QVERIFY2(fitted.error.rfind(where, 0) == 0, fitted.error.c_str());
        const auto einstein = elk::import::importEinsteinText("[[1, \"x\", \"Add\", [], 1e999]]", "m.json", {});
        QVERIFY(!einstein.ok());
        QCOMPARE(einstein.errors.front().location, std::string("line 1, column 22"));
    }
};

QTEST_GUILESS_MAIN(TestJsonText)
#include "tst_json_text.moc"
