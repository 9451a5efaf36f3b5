// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hlo/hlo_validate.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace elk::hlo {

namespace {

    std::vector<std::string> splitFields(const std::string& line)
    {
        std::vector<std::string> fields;
        std::string field;
        for (char c : line) {
            if (c == ',') {
                fields.push_back(field);
                field.clear();
            } else if (c != '\r') {
                field += c;
            }
        }
        fields.push_back(field);
        for (std::string& f : fields) {
            const auto first = f.find_first_not_of(' ');
            const auto last = f.find_last_not_of(' ');
            f = first == std::string::npos ? std::string() : f.substr(first, last - first + 1);
        }
        return fields;
    }

    bool contains(const std::vector<std::string>& list, const std::string& value)
    {
        return std::find(list.begin(), list.end(), value) != list.end();
    }

} // namespace

ReferenceTable parseReferenceCsv(const std::string& text, const std::string& sourceName)
{
    ReferenceTable table;
    table.sourceName = sourceName;
    std::istringstream lines(text);
    std::string line;
    int lineNumber = 0;
    std::map<std::string, std::size_t> column;
    const char* required[] = { "workload", "system", "measured_s" };
    while (std::getline(lines, line)) {
        ++lineNumber;
        if (line.empty() || line[0] == '#' || line == "\r")
            continue;
        const std::vector<std::string> fields = splitFields(line);
        const std::string where = sourceName + ": line " + std::to_string(lineNumber) + ": ";
        if (column.empty()) {
            for (std::size_t i = 0; i < fields.size(); ++i)
                column[fields[i]] = i;
            for (const char* name : required)
                if (column.count(name) == 0)
                    table.errors.push_back(
                        where + "expected a header with a '" + name + "' column, found '" + line + "'");
            if (!table.errors.empty())
                return table;
            continue;
        }
        auto field = [&](const char* name) -> std::string {
            const auto found = column.find(name);
            return found == column.end() || found->second >= fields.size() ? std::string() : fields[found->second];
        };
        ReferenceRow row;
        row.line = lineNumber;
        row.workload = field("workload");
        row.system = field("system");
        row.source = field("source");
        row.module = field("module");
        const std::string measured = field("measured_s");
        const auto [end, ec] = std::from_chars(measured.data(), measured.data() + measured.size(), row.measuredSeconds);
        if (row.workload.empty() || row.system.empty())
            table.errors.push_back(where + "expected a workload and a system, found '" + line + "'");
        else if (ec != std::errc() || end != measured.data() + measured.size() || !(row.measuredSeconds > 0))
            table.errors.push_back(where + "measured_s: expected seconds > 0, found '" + measured + "'");
        else
            table.rows.push_back(std::move(row));
    }
    if (column.empty())
        table.errors.push_back(sourceName + ": expected a header row (workload,system,measured_s,...), found none");
    return table;
}

ValidationReport validateAgainst(const ReferenceTable& table, const Predictor& predict,
    const std::vector<std::string>& fitSystems, const LineageOf& lineage)
{
    ValidationReport report;
    for (const ReferenceRow& row : table.rows) {
        ValidationRow out;
        out.reference = row;
        out.usedForFit = contains(fitSystems, row.system);
        out.prediction = predict(row, 1.0);
        report.rows.push_back(std::move(out));
    }
    if (!fitSystems.empty()) {
        double sumLog = 0;
        int count = 0;
        for (const ValidationRow& row : report.rows)
            if (row.usedForFit && row.prediction.seconds && *row.prediction.seconds > 0) {
                sumLog += std::log(row.reference.measuredSeconds / *row.prediction.seconds);
                ++count;
            }
        if (count < 2) {
            // One row fits any scale exactly: its error would be 0 by construction.
            report.error = "a fit needs at least 2 predicted rows on the fit system(s); found " + std::to_string(count);
            return report;
        }
        {
            double scale = std::exp(sumLog / count);
            if (scale < 1) {
                // Efficiency 1/scale > 1 would run the device faster than its peaks.
                report.fitNote = "the fit asked for an efficiency of " + std::to_string(1 / scale)
                    + " (faster than the peaks); clamped to 1";
                scale = 1;
            }
            report.fittedScale = scale;
            for (ValidationRow& row : report.rows)
                if (row.prediction.seconds)
                    row.prediction = predict(row.reference, scale);
        }
    }
    double absSum = 0;
    int judged = 0;
    double fitSum = 0;
    int fitted = 0;
    for (ValidationRow& row : report.rows) {
        if (!row.prediction.seconds)
            continue;
        ++report.predictedRows;
        row.errorPercent
            = (*row.prediction.seconds - row.reference.measuredSeconds) / row.reference.measuredSeconds * 100;
        if (row.usedForFit && report.fittedScale) {
            fitSum += std::abs(row.errorPercent);
            ++fitted;
        } else {
            absSum += std::abs(row.errorPercent);
            ++judged;
        }
    }
    if (judged > 0)
        report.mapePercent = absSum / judged;
    report.fitMapePercent = fitted > 0 ? fitSum / fitted : 0;
    // Speedups between consecutive generations of one vendor, per workload (Table V's pairs).
    double speedupSum = 0;
    if (lineage) {
        std::map<std::string, std::vector<std::pair<SystemLineage, const ValidationRow*>>> byWorkload;
        for (const ValidationRow& row : report.rows) {
            if (!row.prediction.seconds)
                continue;
            if (const auto known = lineage(row.reference.system);
                known && !known->vendor.empty() && known->generation > 0)
                byWorkload[row.reference.workload].emplace_back(*known, &row);
        }
        for (const ValidationRow& row : report.rows) {
            const auto found = byWorkload.find(row.reference.workload);
            if (found == byWorkload.end())
                continue;
            auto& rows = found->second;
            std::stable_sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
                return x.first.vendor != y.first.vendor ? x.first.vendor < y.first.vendor
                                                        : x.first.generation < y.first.generation;
            });
            for (std::size_t k = 0; k + 1 < rows.size(); ++k) {
                const auto& [fromLineage, from] = rows[k];
                const auto& [toLineage, to] = rows[k + 1];
                if (fromLineage.vendor != toLineage.vendor || toLineage.generation != fromLineage.generation + 1)
                    continue;
                SpeedupRow speedup;
                speedup.workload = row.reference.workload;
                speedup.fromSystem = from->reference.system;
                speedup.toSystem = to->reference.system;
                speedup.referenceSpeedup = from->reference.measuredSeconds / to->reference.measuredSeconds;
                speedup.predictedSpeedup = *from->prediction.seconds / *to->prediction.seconds;
                speedup.errorPercent
                    = (speedup.referenceSpeedup - speedup.predictedSpeedup) / speedup.referenceSpeedup * 100;
                speedupSum += std::abs(speedup.errorPercent);
                report.speedups.push_back(std::move(speedup));
            }
            byWorkload.erase(found); // each workload once, at its first row
        }
    }
    report.meanAbsSpeedupErrorPercent = report.speedups.empty() ? 0 : speedupSum / double(report.speedups.size());
    return report;
}

std::string validationReportText(const ValidationReport& report)
{
    std::string text;
    char line[512];
    std::snprintf(line, sizeof line, "%-20s %-20s %12s %12s %9s  %s\n", "workload", "system", "measured_s",
        "predicted_s", "error_%", "note");
    text += line;
    for (const ValidationRow& row : report.rows) {
        if (row.prediction.seconds)
            std::snprintf(line, sizeof line, "%-20s %-20s %12.6g %12.6g %+9.1f  %s%s\n", row.reference.workload.c_str(),
                row.reference.system.c_str(), row.reference.measuredSeconds, *row.prediction.seconds, row.errorPercent,
                row.usedForFit && report.fittedScale ? "(fit) " : "", row.prediction.note.c_str());
        else
            std::snprintf(line, sizeof line, "%-20s %-20s %12.6g %12s %9s  not predicted: %s\n",
                row.reference.workload.c_str(), row.reference.system.c_str(), row.reference.measuredSeconds, "-", "-",
                row.prediction.note.c_str());
        text += line;
    }
    for (const SpeedupRow& speedup : report.speedups) {
        std::snprintf(line, sizeof line, "speedup %-20s %s → %s: measured %.3f, predicted %.3f, error %+.1f %%\n",
            speedup.workload.c_str(), speedup.fromSystem.c_str(), speedup.toSystem.c_str(), speedup.referenceSpeedup,
            speedup.predictedSpeedup, speedup.errorPercent);
        text += line;
    }
    if (report.fittedScale) {
        std::snprintf(line, sizeof line, "fitted scale %.4f (device efficiency %.4f); MAPE on fitted rows %.1f %%\n",
            *report.fittedScale, 1.0 / *report.fittedScale, report.fitMapePercent);
        text += line;
        if (!report.fitNote.empty())
            text += "fit: " + report.fitNote + "\n";
    }
    const std::size_t notPredicted = report.rows.size() - std::size_t(report.predictedRows);
    std::string mape = "MAPE n/a (no predicted rows";
    if (report.mapePercent) {
        std::snprintf(line, sizeof line, "MAPE %.1f %%", *report.mapePercent);
        mape = line;
    } else if (report.fittedScale) {
        mape += " outside the fit)";
    } else {
        mape += ")";
    }
    std::snprintf(line, sizeof line,
        "%d of %zu rows predicted (%zu not predicted, left out); %s%s; mean |speedup error| %.1f %% over %zu pairs\n",
        report.predictedRows, report.rows.size(), notPredicted, mape.c_str(),
        report.fittedScale && report.mapePercent ? " (rows not used for fitting)" : "",
        report.meanAbsSpeedupErrorPercent, report.speedups.size());
    text += line;
    return text;
}

std::string validationReportCsv(const ValidationReport& report)
{
    std::string csv = "workload,system,measured_s,predicted_s,error_percent,used_for_fit,source,note\n";
    char line[1024];
    for (const ValidationRow& row : report.rows) {
        std::snprintf(line, sizeof line, "%s,%s,%.9g,%s,%s,%d,%s,%s\n", row.reference.workload.c_str(),
            row.reference.system.c_str(), row.reference.measuredSeconds,
            row.prediction.seconds ? std::to_string(*row.prediction.seconds).c_str() : "",
            row.prediction.seconds ? std::to_string(row.errorPercent).c_str() : "", row.usedForFit ? 1 : 0,
            row.reference.source.c_str(), row.prediction.note.c_str());
        csv += line;
    }
    return csv;
}

} // namespace elk::hlo
