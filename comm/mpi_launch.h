// mpi_launch.h: whether this process is a rank of an MPI job, read from the environment
// before MPI is initialised. MpiSession (world.h) initialises MPI only then, so that a process
// that runs alone (`gaugefix --version`, `info`, a one-process fix) starts no MPI singleton
// (Open MPI forks an orted for one, and some login nodes forbid them).
//
// mpi_launcher() names the first of these that is set (docs/architecture.md, "MPI start"):
//   GAUGEFIX_MPI=1            asked for: a launcher the rule below does not know
//   OMPI_COMM_WORLD_SIZE      Open MPI's mpirun / mpiexec, any number of ranks
//   PMIX_RANK                 a PMIx launcher (Open MPI 5's mpirun, prterun, srun --mpi=pmix)
//   PMI_RANK                  a PMI-1/PMI-2 launcher (MPICH's and Intel MPI's Hydra mpiexec,
//                             srun --mpi=pmi2, Cray PALS)
//   SLURM_STEP_NUM_TASKS > 1  srun of several tasks without these (Slurm's PMI-1 library reads
//                             SLURM_* only). SLURM_PROCID and SLURM_NTASKS are no sign: the shell
//                             of a batch script has them (rank 0 of the job's task count)
//                             without being a task of an srun step.
// "" where none is: one process, no MPI.
#pragma once
#include <string>

namespace gf {

std::string mpi_launcher();

} // namespace gf
