// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Built without MPI: elk sweep --mpi explains how to get it.
#include "app/cli/cli_sweep_mpi.h"

namespace elk::app::cli {

bool mpiAvailable()
{
    return false;
}

bool mpiStart(MpiRanks&, QString& error)
{
    error = QStringLiteral("this elk was built without MPI: install libopenmpi-dev (packaging/install-deps.sh) and "
                           "rebuild, or split the sweep with --shard K/N");
    return false;
}

void mpiGatherPoints(const MpiRanks&, run::SweepResult&) { }

void mpiFinish() { }

} // namespace elk::app::cli
