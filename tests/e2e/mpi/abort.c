/*
 * abort.c -- every rank passes a barrier; rank R (argv[1]) then calls
 * MPI_Abort with the error code C (argv[2]) while the others wait in a
 * second barrier.  hetlaunch must name R and C from the runtime's record,
 * whether or not the MPI launcher's line about the abort reached the log
 * (tests/e2e/run_test.sh, openmpi_test.sh).
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD);
	if (argc > 2 && atoi(argv[1]) == rank)
		MPI_Abort(MPI_COMM_WORLD, atoi(argv[2]));
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
