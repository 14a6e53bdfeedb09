/*
 * communicators.c -- the interposed communicator constructors and
 * MPI_Comm_free: each member arrives together (a cooperative barrier,
 * coll.c) and, under the virtual clock, the new communicator gets its
 * stamp channel (comm.c).
 */
#include "bindings.h"

/* The constructors agree on a context id inside MPICH, spinning; a
 * cooperative barrier first lets every member arrive before that. */
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	vr_enter();
	vr_barrier(comm);
	int rc = PMPI_Comm_split(comm, color, key, newcomm);
	if (rc == MPI_SUCCESS && vr_virtual())
		vr_stamp_create(*newcomm);
	vr_exit();
	return rc;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	vr_enter();
	vr_barrier(comm);
	int rc = PMPI_Comm_dup(comm, newcomm);
	if (rc == MPI_SUCCESS && vr_virtual())
		vr_stamp_create(*newcomm);
	vr_exit();
	return rc;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	vr_enter();
	vr_barrier(comm);
	int rc = PMPI_Comm_create(comm, group, newcomm);
	if (rc == MPI_SUCCESS && vr_virtual())
		vr_stamp_create(*newcomm);
	vr_exit();
	return rc;
}

int MPI_Comm_free(MPI_Comm *comm)
{
	vr_comm_forget(*comm);
	return PMPI_Comm_free(comm);
}
