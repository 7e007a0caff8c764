# test/mpi/mpi-env.sh - what configure found for the MPI tests (generated from mpi-env.sh.in)
MPICC='mpicc'
MPIFC='mpifort'
MPIRUN='mpirun'
MPIRUN_FLAGS='--oversubscribe'
SMPIRUN='/usr/bin/smpirun'
