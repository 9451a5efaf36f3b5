// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/read_file.h"
#include "engine/core/sha256.h"
#include "engine/hlo/hlo_estimator.h"

#include <charconv>
#include <cmath>
#include <map>
#include <sstream>

namespace elk::hlo {

namespace {

    // RFC 4180 fields of one line: quotes allowed, "" escapes a quote. Signatures contain commas.
    bool splitCsvLine(const std::string& line, std::vector<std::string>& fields, std::string& error)
    {
        fields.clear();
        std::string field;
        bool quoted = false;
        bool wasQuoted = false;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char c = line[i];
            if (quoted) {
                if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field += c;
                }
            } else if (c == '"' && field.empty() && !wasQuoted) {
                quoted = true;
                wasQuoted = true;
            } else if (c == ',') {
                fields.push_back(field);
                field.clear();
                wasQuoted = false;
            } else if (c != '\r') {
                field += c;
            }
        }
        if (quoted) {
            error = "expected a closing '\"', found the end of the line";
            return false;
        }
        fields.push_back(field);
        return true;
    }

    class TableEstimator final : public ComputeEstimator {
    public:
        TableEstimator(std::string sourceName, std::map<std::string, double> secondsBySignature, std::string hash)
            : m_sourceName(std::move(sourceName))
            , m_seconds(std::move(secondsBySignature))
            , m_hash(std::move(hash))
        {
        }
        std::string name() const override { return "table:" + m_sourceName; }
        std::string version() const override { return "1"; }
        std::string hardwareHash() const override { return m_hash; }
        bool supports(const Kernel& kernel, const HloProgram&) const override
        {
            return kernel.opClass == OpClass::Compute && m_seconds.count(kernel.signature) != 0;
        }
        std::vector<KernelEstimate> estimate(const HloProgram&, const FusionResult& fusion,
            const std::vector<std::uint32_t>& kernels, RunControl&) override
        {
            std::vector<KernelEstimate> out;
            for (std::uint32_t index : kernels) {
                KernelEstimate estimate;
                estimate.kernel = index;
                estimate.seconds = m_seconds.at(fusion.kernels.at(index).signature);
                estimate.estimator = name();
                out.push_back(estimate);
            }
            return out;
        }

    private:
        std::string m_sourceName;
        std::map<std::string, double> m_seconds;
        std::string m_hash;
    };

    std::string baseName(const std::string& path)
    {
        const auto slash = path.find_last_of('/');
        return slash == std::string::npos ? path : path.substr(slash + 1);
    }

} // namespace

EstimatorResult makeTableEstimatorFromText(const std::string& csvText, const std::string& sourceName)
{
    EstimatorResult result;
    std::map<std::string, double> seconds;
    std::istringstream lines(csvText);
    std::string line;
    std::vector<std::string> fields;
    int lineNumber = 0;
    int signatureColumn = -1;
    int secondsColumn = -1;
    auto fail = [&](const std::string& message) {
        result.error = "table:" + sourceName + ": line " + std::to_string(lineNumber) + ": " + message;
        return std::move(result);
    };
    while (std::getline(lines, line)) {
        ++lineNumber;
        if (line.empty() || line[0] == '#' || line == "\r")
            continue;
        std::string error;
        if (!splitCsvLine(line, fields, error))
            return fail(error);
        if (signatureColumn < 0) {
            for (std::size_t i = 0; i < fields.size(); ++i) {
                if (fields[i] == "signature")
                    signatureColumn = int(i);
                else if (fields[i] == "seconds")
                    secondsColumn = int(i);
            }
            if (signatureColumn < 0 || secondsColumn < 0)
                return fail("expected a header with columns 'signature' and 'seconds', found '" + line + "'");
            continue;
        }
        if (int(fields.size()) <= std::max(signatureColumn, secondsColumn))
            return fail("expected " + std::to_string(std::max(signatureColumn, secondsColumn) + 1) + " fields, found "
                + std::to_string(fields.size()));
        const std::string& text = fields[std::size_t(secondsColumn)];
        double value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0)
            return fail("expected a non-negative number of seconds, found '" + text + "'");
        const std::string& signature = fields[std::size_t(signatureColumn)];
        if (signature.empty())
            return fail("expected a signature, found an empty field");
        if (!seconds.emplace(signature, value).second)
            return fail("signature listed twice: '" + signature.substr(0, 80) + "'");
    }
    if (signatureColumn < 0) {
        result.error
            = "table:" + sourceName + ": expected a header with columns 'signature' and 'seconds', found no rows";
        return result;
    }
    result.estimator = std::make_unique<TableEstimator>(sourceName, std::move(seconds), sha256Hex(csvText));
    return result;
}

EstimatorResult makeTableEstimator(const std::string& csvPath)
{
    std::string error;
    const auto text = readFileText(csvPath, error);
    if (!text) {
        EstimatorResult result;
        result.error = "table:" + csvPath + ": " + error;
        return result;
    }
    return makeTableEstimatorFromText(*text, baseName(csvPath));
}

} // namespace elk::hlo
