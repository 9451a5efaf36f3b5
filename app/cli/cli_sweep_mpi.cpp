// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Built only with MPI (app/CMakeLists.txt); cli_sweep_nompi.cpp answers otherwise.
#include "app/cli/cli_sweep_mpi.h"

#include <mpi.h>

#include <QByteArray>
#include <QDataStream>
#include <QIODevice>

namespace elk::app::cli {

bool mpiAvailable()
{
    return true;
}

bool mpiStart(MpiRanks& ranks, QString& error)
{
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised && MPI_Init(nullptr, nullptr) != MPI_SUCCESS) {
        error = QStringLiteral("MPI_Init failed (start elk under mpirun)");
        return false;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &ranks.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks.size);
    return true;
}

void mpiGatherPoints(const MpiRanks& ranks, run::SweepResult& result)
{
    // Each rank's finished points: index, from-cache flag, error text, latencies (NaN kept).
    QByteArray mine;
    {
        QDataStream out(&mine, QIODevice::WriteOnly);
        for (std::size_t p = 0; p < result.points.size(); ++p) {
            const run::SweepPoint& point = result.points[p];
            if (!point.done)
                continue;
            out << quint64(p) << point.fromCache << QByteArray::fromStdString(point.error)
                << quint32(point.latencyMs.size());
            for (double latency : point.latencyMs)
                out << latency;
        }
    }
    const int length = int(mine.size());
    std::vector<int> lengths(std::size_t(ranks.size), 0);
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(std::size_t(ranks.size), 0);
    int total = 0;
    for (int r = 0; r < ranks.size; ++r) {
        offsets[std::size_t(r)] = total;
        total += lengths[std::size_t(r)];
    }
    QByteArray all(ranks.rank == 0 ? total : 0, '\0');
    MPI_Gatherv(mine.data(), length, MPI_BYTE, all.data(), lengths.data(), offsets.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
    if (ranks.rank != 0)
        return;
    for (int r = 1; r < ranks.size; ++r) {
        const QByteArray part = all.mid(offsets[std::size_t(r)], lengths[std::size_t(r)]);
        QDataStream in(part);
        while (!in.atEnd()) {
            quint64 index = 0;
            bool fromCache = false;
            QByteArray error;
            quint32 count = 0;
            in >> index >> fromCache >> error >> count;
            if (in.status() != QDataStream::Ok || index >= result.points.size())
                break;
            run::SweepPoint& point = result.points[std::size_t(index)];
            point.latencyMs.assign(count, 0.0);
            for (double& latency : point.latencyMs)
                in >> latency;
            point.error = error.toStdString();
            point.fromCache = fromCache;
            point.done = true;
        }
    }
}

void mpiFinish()
{
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (!finalised)
        MPI_Finalize();
}

} // namespace elk::app::cli
