// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hand-built SimResults for the exporter tests (no simulator needed), and a golden-file check.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtGlobal>

#include <cstdio>
#include <string>

#include "engine/sim/sim_result.h"

namespace elk::test {

inline schedule::Interval span(double startCycles, double endCycles)
{
    return { startCycles, endCycles };
}

/// 1 GHz, so 1 cycle = 1 ns = 0.001 µs. Three ops:
///  0 `matmul, "qkv"` (comma and quotes in its name): preload [0, 1000], execute [1000, 3000] with
///    all four phases; the first execution.
///  1 `softmax`: loads nothing (preload [3000, 3000]); execute [3000, 3500], compute only.
///  2 `ffn`: preload [999.4, 4000] — overlaps op 0's preload by 0.6 cycles, which the trace must clamp
///    away — execute [4000, 6000.5] (compute + shift), waited for its preload.
inline sim::SimResult threeOpResult()
{
    sim::SimResult result;
    result.clockHz = 1e9;
    result.latencyCycles = 6000.5;
    result.stepNames = { "matmul, \"qkv\"", "softmax", "ffn" };
    result.preloadOrder = { 0, 2 };

    sim::StepTrace op0;
    op0.preload = span(0, 1000);
    op0.execute = span(1000, 3000);
    op0.warmup = span(1000, 1200);
    op0.compute = span(1200, 2500);
    op0.shift = span(2500, 2800);
    op0.reduce = span(2800, 3000);
    op0.executeStallCycles = 100;

    sim::StepTrace op1;
    op1.preload = span(3000, 3000);
    op1.execute = span(3000, 3500);
    op1.warmup = span(3000, 3000);
    op1.compute = span(3000, 3500);
    op1.shift = span(3500, 3500);
    op1.reduce = span(3500, 3500);
    op1.waitedFor = "execute";

    sim::StepTrace op2;
    op2.preload = span(999.4, 4000);
    op2.execute = span(4000, 6000.5);
    op2.warmup = span(4000, 4000);
    op2.compute = span(4000, 5000);
    op2.shift = span(5000, 6000.5);
    op2.reduce = span(6000.5, 6000.5);
    op2.preloadStallCycles = 250;
    op2.waitedFor = "preload";
    result.steps = { op0, op1, op2 };

    result.hbmBytesPerCycle = { { 0, 64 }, { 1000, 32 }, { 2000, 32 }, { 4000, 0 } };
    result.nocBytesPerCycle = { { 0, 0 }, { 1000, 128 }, { 6000.5, 0 } };
    result.sramBytesPerCore = { { 0, 1048576 }, { 3000, 524288 } };

    sim::LinkInfo ingress;
    ingress.kind = sim::LinkKind::CoreIngress;
    ingress.bytesPerCycle = 4;
    ingress.core = 0;
    ingress.name = "chip 0 core 0 ingress";
    sim::LinkInfo mesh;
    mesh.kind = sim::LinkKind::MeshLink;
    mesh.bytesPerCycle = 2;
    mesh.core = 9;
    mesh.x = 1;
    mesh.y = 2;
    mesh.direction = 'E';
    mesh.name = "chip 0 (1,2)→E";
    sim::LinkInfo hbm;
    hbm.kind = sim::LinkKind::HbmStack;
    hbm.bytesPerCycle = 0; // a capacity of 0 must give utilisation 0, not NaN
    hbm.chip = 1;
    hbm.stack = 2;
    hbm.name = "chip 1 HBM 2";
    result.links = { ingress, mesh, hbm };
    result.linkBytes = { 12001, 6000.5, 500 };
    return result;
}

/// Compares `actual` with tests/golden/<name>. On a mismatch writes <name>.actual beside it and
/// prints the diff command; with ELK_UPDATE_GOLDEN=1 rewrites the golden file instead.
inline bool matchesGolden(const QString& name, const std::string& actual)
{
    const QString path = QStringLiteral(ELK_GOLDEN_DIR "/") + name;
    const QByteArray bytes = QByteArray::fromStdString(actual);
    QDir().mkpath(QFileInfo(path).absolutePath());
    if (qEnvironmentVariableIntValue("ELK_UPDATE_GOLDEN") == 1) {
        QFile out(path);
        return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size();
    }
    QFile golden(path);
    if (golden.open(QIODevice::ReadOnly) && golden.readAll() == bytes)
        return true;
    QFile out(path + QStringLiteral(".actual"));
    if (out.open(QIODevice::WriteOnly))
        out.write(bytes);
    std::fprintf(stderr, "golden mismatch: diff -u %s %s.actual  (ELK_UPDATE_GOLDEN=1 rewrites)\n", qPrintable(path),
        qPrintable(path));
    return false;
}

} // namespace elk::test
