// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Validation against measured step times (hlo-design §8): per-row error, MAPE, and the
// cross-generation speedup error ε = (S_ref − S_sim) / S_ref with S = T_prev / T_next, as in the
// hespas paper's Table V. Optionally one efficiency factor is fitted on some systems and judged on
// the others.

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace elk::hlo {

struct ReferenceRow {
    std::string workload;
    std::string system;
    double measuredSeconds = 0;
    std::string source;
    std::string module; ///< path of the StableHLO module (may be empty)
    int line = 0; ///< in the CSV
};

struct ReferenceTable {
    std::string sourceName;
    std::vector<ReferenceRow> rows;
    std::vector<std::string> errors; ///< "FILE: line N: expected ..., found ..."
    bool ok() const { return errors.empty(); }
};

/// CSV with a header naming at least workload, system, measured_s (source, module optional); '#' comments.
ReferenceTable parseReferenceCsv(const std::string& text, const std::string& sourceName);
/// hespas's published ground truth (resources/hlo/references/hespas-ispass2026.csv), compiled in.
const std::string& bundledReferenceCsv();

struct Prediction {
    std::optional<double> seconds;
    std::string note; ///< why there is none ("no module for llama3-1b-train"), or a warning
};

struct ValidationRow {
    ReferenceRow reference;
    Prediction prediction;
    double errorPercent = 0; ///< (predicted − measured) / measured · 100; valid when predicted
    bool usedForFit = false;
};

struct SpeedupRow {
    std::string workload;
    std::string fromSystem, toSystem;
    double referenceSpeedup = 0; ///< T_from / T_to, measured
    double predictedSpeedup = 0;
    double errorPercent = 0; ///< (S_ref − S_sim) / S_ref · 100
};

struct ValidationReport {
    std::vector<ValidationRow> rows; ///< in table order
    /// Each workload's pairs of systems one generation apart within one vendor (the paper's Table V:
    /// A100 → H100 → H200 → B200), in generation order.
    std::vector<SpeedupRow> speedups;
    int predictedRows = 0;
    std::optional<double> mapePercent; ///< over predicted rows not used for fitting; none when there are none
    double meanAbsSpeedupErrorPercent = 0;
    std::optional<double> fittedScale; ///< predicted times were multiplied by this (fit)
    double fitMapePercent = 0; ///< over the rows used for fitting
    std::string fitNote; ///< set when the fitted efficiency was clamped to 1
    std::string error; ///< the fit was refused (fewer than 2 predicted rows on the fit systems)
    bool ok() const { return error.empty(); }
};

/// predict(workload, system, scale) → seconds; `scale` is 1 before fitting and the fitted factor after.
using Predictor = std::function<Prediction(const ReferenceRow& row, double efficiencyScale)>;

/// A system's device lineage: vendor and generation (DevicePreset); none when unknown.
struct SystemLineage {
    std::string vendor;
    int generation = 0;
};
using LineageOf = std::function<std::optional<SystemLineage>(const std::string& system)>;

/// `fitSystems` empty: no fit. Otherwise the scale minimising the squared log error over the rows of
/// those systems (at least 2 predicted) is applied as a device efficiency of 1/scale, clamped to
/// (0, 1], and the MAPE is taken over the other rows. Speedups pair systems whose devices are of one
/// vendor and consecutive generations; without `lineage` there are none.
ValidationReport validateAgainst(const ReferenceTable& table, const Predictor& predict,
    const std::vector<std::string>& fitSystems = {}, const LineageOf& lineage = {});

/// Text report: one line per row, speedup errors, MAPE.
std::string validationReportText(const ValidationReport& report);
std::string validationReportCsv(const ValidationReport& report);

} // namespace elk::hlo
