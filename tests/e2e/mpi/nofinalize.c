/*
 * nofinalize.c -- every rank passes a barrier; the ranks named on the
 * command line then exit(0) without MPI_Finalize, the others finalize.
 * MPICH's mpiexec returns 0 for such a job, Open MPI's mpirun 1 with
 * "exiting improperly": hetlaunch must fail it either way and name the
 * ranks (tests/e2e/run_test.sh, openmpi_test.sh).
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD);
	for (int i = 1; i < argc; i++)
		if (atoi(argv[i]) == rank)
			exit(0);
	MPI_Finalize();
	return 0;
}
