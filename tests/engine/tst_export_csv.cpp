// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// CSV exports of simulated intervals and per-link bytes: header, rows, RFC 4180 quoting, numbers.
#include <QTest>

#include <clocale>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/export/csv_export.h"
#include "tests/engine/export_fixtures.h"

using elk::exports::csvNumber;
using elk::exports::intervalsCsv;
using elk::exports::linkUtilizationCsv;
using elk::exports::NamedSimResult;

namespace {

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        out.push_back(text.substr(start, end - start));
        start = end == std::string::npos ? text.size() : end + 1;
    }
    return out;
}

/// A minimal RFC 4180 reader for one line (no embedded line breaks in these tables).
std::vector<std::string> fields(const std::string& line)
{
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            out.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            out.emplace_back();
        } else {
            out.back() += c;
        }
    }
    return out;
}

std::vector<NamedSimResult> oneDesign(const elk::sim::SimResult& result)
{
    return { { "elk", &result, {}, {} } };
}

} // namespace

class TestExportCsv : public QObject {
    Q_OBJECT
private slots:
    void intervalsHaveHeaderAndOneRowPerNonEmptyInterval()
    {
        const elk::sim::SimResult result = elk::test::threeOpResult();
        const std::vector<NamedSimResult> designs { { "basic", &result, {}, {} }, { "elk", &result, {}, {} } };
        const auto rows = lines(intervalsCsv(designs));
        QCOMPARE(rows.front(), std::string("design,step,op,lane,start_us,end_us,duration_us,stall_us"));
        // op 0: preload + execute + 4 phases; op 1: execute + compute; op 2: preload + execute + 2 phases.
        QCOMPARE(rows.size(), std::size_t(1 + 2 * (6 + 2 + 4)));
        for (std::size_t i = 1; i < rows.size(); ++i)
            QCOMPARE(fields(rows[i]).size(), std::size_t(8));
        QCOMPARE(fields(rows[1])[0], std::string("basic"));
        QCOMPARE(fields(rows.back())[0], std::string("elk"));
    }

    void intervalRows_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("expected");
        QTest::addRow("op name with a comma and quotes is quoted, quotes doubled")
            << 1 << QStringLiteral("elk,0,\"matmul, \"\"qkv\"\"\",preload,0.000000,1.000000,1.000000,0.000000");
        QTest::addRow("execute row carries the execute stall in µs")
            << 2 << QStringLiteral("elk,0,\"matmul, \"\"qkv\"\"\",execute,1.000000,3.000000,2.000000,0.100000");
        QTest::addRow("phase rows have an empty stall")
            << 3 << QStringLiteral("elk,0,\"matmul, \"\"qkv\"\"\",warmup,1.000000,1.200000,0.200000,");
        QTest::addRow("an op that loads nothing starts with its execute row")
            << 7 << QStringLiteral("elk,1,softmax,execute,3.000000,3.500000,0.500000,0.000000");
        QTest::addRow("raw times, not clamped; preload stall")
            << 9 << QStringLiteral("elk,2,ffn,preload,0.999400,4.000000,3.000600,0.250000");
        QTest::addRow("half-cycle end kept at ps resolution")
            << 10 << QStringLiteral("elk,2,ffn,execute,4.000000,6.000500,2.000500,0.000000");
    }
    void intervalRows()
    {
        QFETCH(int, row);
        QFETCH(QString, expected);
        const elk::sim::SimResult result = elk::test::threeOpResult();
        const auto rows = lines(intervalsCsv(oneDesign(result)));
        QCOMPARE(QString::fromStdString(rows.at(std::size_t(row))), expected);
    }

    void quotedNameRoundTrips()
    {
        const elk::sim::SimResult result = elk::test::threeOpResult();
        const auto rows = lines(intervalsCsv(oneDesign(result)));
        QCOMPARE(fields(rows.at(1))[2], std::string("matmul, \"qkv\""));
    }

    void csvFieldQuotesOnlyWhenNeeded_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("expected");
        QTest::addRow("plain") << QStringLiteral("ffn") << QStringLiteral("ffn");
        QTest::addRow("empty") << QString() << QString();
        QTest::addRow("comma") << QStringLiteral("a,b") << QStringLiteral("\"a,b\"");
        QTest::addRow("quote") << QStringLiteral("say \"hi\"") << QStringLiteral("\"say \"\"hi\"\"\"");
        QTest::addRow("line break") << QStringLiteral("a\nb") << QStringLiteral("\"a\nb\"");
        QTest::addRow("UTF-8 arrow is not special") << QStringLiteral("(3,4)→E") << QStringLiteral("\"(3,4)→E\"");
    }
    void csvFieldQuotesOnlyWhenNeeded()
    {
        QFETCH(QString, field);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(elk::exports::csvField(field.toStdString())), expected);
    }

    void csvNumberIsFixedAndStable_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("expected");
        QTest::addRow("zero") << 0.0 << 6 << QStringLiteral("0.000000");
        QTest::addRow("tiny negative is not -0") << -1e-9 << 6 << QStringLiteral("0.000000");
        QTest::addRow("negative zero") << -0.0 << 3 << QStringLiteral("0.000");
        QTest::addRow("negative") << -2.5 << 2 << QStringLiteral("-2.50");
        QTest::addRow("large, no exponent") << 12345678901.0 << 3 << QStringLiteral("12345678901.000");
        QTest::addRow("rounds half-cycle at 1 GHz") << 6.0005 << 6 << QStringLiteral("6.000500");
        QTest::addRow("no decimals") << 41.6 << 0 << QStringLiteral("42");
        QTest::addRow("NaN") << std::numeric_limits<double>::quiet_NaN() << 6 << QStringLiteral("nan");
    }
    void csvNumberIsFixedAndStable()
    {
        QFETCH(double, value);
        QFETCH(int, decimals);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(csvNumber(value, decimals)), expected);
    }

    // Qt applications call setlocale(LC_ALL, ""); a comma decimal point must not leak into the CSV.
    void numbersIgnoreTheCLocale()
    {
        const elk::sim::SimResult result = elk::test::threeOpResult();
        const std::string before = intervalsCsv(oneDesign(result));
        const std::string saved = std::setlocale(LC_NUMERIC, nullptr);
        const char* commaLocales[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8" };
        const char* chosen = nullptr;
        for (const char* name : commaLocales)
            if (std::setlocale(LC_NUMERIC, name)) {
                chosen = name;
                break;
            }
        if (!chosen)
            QSKIP("no locale with a comma decimal point is installed");
        const std::string during = intervalsCsv(oneDesign(result));
        std::setlocale(LC_NUMERIC, saved.c_str());
        QCOMPARE(during, before);
    }

    void linkRows_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("expected");
        QTest::addRow("all-to-all port: no mesh position")
            << 1 << QStringLiteral("chip 0 core 0 ingress,core-ingress,0,,,,12001.000,0.500000");
        QTest::addRow("mesh link: name quoted, position and direction")
            << 2 << QStringLiteral("\"chip 0 (1,2)→E\",mesh,0,1,2,E,6000.500,0.500000");
        QTest::addRow("zero capacity gives utilisation 0")
            << 3 << QStringLiteral("chip 1 HBM 2,hbm,1,,,,500.000,0.000000");
    }
    void linkRows()
    {
        QFETCH(int, row);
        QFETCH(QString, expected);
        const auto rows = lines(linkUtilizationCsv(elk::test::threeOpResult()));
        QCOMPARE(rows.size(), std::size_t(4));
        QCOMPARE(rows.front(), std::string("link,kind,chip,x,y,direction,bytes,utilization"));
        QCOMPARE(QString::fromStdString(rows.at(std::size_t(row))), expected);
    }

    void rejectsBadInput()
    {
        elk::sim::SimResult noClock = elk::test::threeOpResult();
        noClock.clockHz = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, intervalsCsv(oneDesign(noClock)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, intervalsCsv({ { "x", nullptr, {}, {} } }));
    }

    void bytesAreDeterministicAndMatchTheGoldenFile()
    {
        const elk::sim::SimResult result = elk::test::threeOpResult();
        const std::string first = intervalsCsv(oneDesign(result)) + "\n" + linkUtilizationCsv(result);
        QCOMPARE(intervalsCsv(oneDesign(result)) + "\n" + linkUtilizationCsv(result), first);
        QVERIFY(elk::test::matchesGolden(QStringLiteral("export/csv_three_ops.csv"), first));
    }
};

QTEST_GUILESS_MAIN(TestExportCsv)
#include "tst_export_csv.moc"
