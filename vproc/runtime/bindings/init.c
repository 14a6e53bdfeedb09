/*
 * init.c -- the interposed MPI_Init, MPI_Init_thread, MPI_Query_thread,
 * MPI_Finalize and MPI_Abort: where the runtime attaches to the emulation
 * (emu.c) and leaves it.  Above coll.c (MPI_Finalize's barrier), which is above
 * p2p.c's sendrecv: the bindings call one way.
 */
#include "bindings.h"

int MPI_Init(int *argc, char ***argv)
{
	vr_wait_init();
	int rc = PMPI_Init(argc, argv);
	if (rc == MPI_SUCCESS)
		vr_emu_init(), vr_placement_report();
	return rc;
}

/* Under emulation one thread per rank makes MPI calls (emu.c's compute
 * segments are that thread's): at most MPI_THREAD_FUNNELED is provided. */
static int provided_level = MPI_THREAD_SINGLE;

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	vr_wait_init();
	int rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc == MPI_SUCCESS) {
		vr_emu_init(), vr_placement_report();
		if (vr_emulating() && *provided > MPI_THREAD_FUNNELED)
			*provided = MPI_THREAD_FUNNELED;
		provided_level = *provided;
	}
	return rc;
}

int MPI_Query_thread(int *provided)
{
	int rc = PMPI_Query_thread(provided);
	if (rc == MPI_SUCCESS && vr_emulating() && *provided > provided_level)
		*provided = provided_level;
	return rc;
}

int MPI_Finalize(void)
{
	vr_emu_finalizing();
	vr_enter();
	vr_bsend_flush(vr_wait);   /* the buffered sends of the virtual clock */
	/* MPI_Finalize synchronizes inside MPICH, spinning: arrive together. */
	vr_barrier(MPI_COMM_WORLD);
	vr_emu_finalize();
	return PMPI_Finalize();
}

/* Recorded before MPI ends the job (emu.c): Hydra can kill the ranks
 * before MPICH's "MPI_Abort(" line reaches the log.  BLACS's blacs_abort
 * and MPICH's Fortran MPI_ABORT come here too. */
int MPI_Abort(MPI_Comm comm, int errorcode)
{
	vr_emu_aborting(errorcode);
	return PMPI_Abort(comm, errorcode);
}

/* Open MPI's Fortran MPI_ABORT calls PMPI_Abort, not MPI_Abort (MPICH's
 * calls MPI_Abort): its entry is interposed as well. */
void mpi_abort_(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr);
void mpi_abort_(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr)
{
	*ierr = MPI_Abort(MPI_Comm_f2c(*comm), *errorcode);
}
