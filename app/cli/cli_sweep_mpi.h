// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk sweep --mpi: MPI ranks split a sweep as shards; rank 0 gathers the points (app/cli only).
#pragma once

#include <QString>

#include "engine/run/sweep.h"

namespace elk::app::cli {

/// Whether this elk was built with MPI (ELK_WITH_MPI and OpenMPI found).
bool mpiAvailable();

struct MpiRanks {
    int rank = 0;
    int size = 1;
};

/// MPI_Init and this process's rank; false (and `error`) when MPI is unavailable or fails to start.
bool mpiStart(MpiRanks& ranks, QString& error);
/// Sends this rank's finished points to rank 0, which fills them into its `result` (every rank
/// calls it; only rank 0's result is complete afterwards). Returns after all ranks have sent.
void mpiGatherPoints(const MpiRanks& ranks, run::SweepResult& result);
/// MPI_Finalize.
void mpiFinish();

} // namespace elk::app::cli
