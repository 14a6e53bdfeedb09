/*
 * bsend.c -- under the virtual clock, standard-mode sends are buffered
 *.
 *
 * Why: the ordering of vorder.c holds a rank's bookings until every
 * sibling's clock has passed them, and a rank blocked in a send bounds
 * the others by its clock.  A large MPI message completes only when its
 * receiver posts the receive (UCX rendezvous), so a sender blocked in
 * MPI_Send waited for a receiver that waited, in vorder.c, for the
 * sender's clock: the 96-rank LU escaped such a cycle 650 times per
 * run.  In the model the sender is free once its bytes are on the wire
 * (003 s2.2, vclock.c), so the runtime does what MPI allows a standard
 * send to do: it packs the data into a buffer of its own, sends that, and
 * returns; the buffer goes when MPI is done with it (tested at every send
 * and while a rank waits for the order, all waited for at MPI_Finalize).
 * A user's MPI_Isend gets a request that is complete already (a
 * generalized request, MPI 4.0 s13.2).  MPI_Ssend and MPI_Irsend keep
 * their semantics.
 */
#include <stdlib.h>

#include "core.h"

typedef struct {
	MPI_Request req;
	void *buf;
} outstanding;

static outstanding *out;
static int nout, capout;
static int progressing;

/* Not re-entered: a test inside a test would be MPI re-entered (the MPI
 * stack's clock reads once got here from inside PMPI_Test, vclock.c), and
 * the inner loop would move the entries under the outer one. */
void vr_bsend_progress(void)
{
	if (progressing)
		return;
	progressing = 1;
	for (int i = 0; i < nout;) {
		int flag = 0;
		if (PMPI_Test(&out[i].req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || flag) {
			free(out[i].buf);
			out[i] = out[--nout];
		} else {
			i++;
		}
	}
	progressing = 0;
}

int vr_bsend_outstanding(void)
{
	return nout;
}

/* The data of (buf, count, type) lies in folded memory (compute: skip,
 * fold.c): the shared buffer's garbage, which copying would not change.
 * Packing it was a third of a 256-rank LU's wall time (n = 8192, 1 x
 * 256: 154 s with the copies, 124 s without), each ring hop's sender
 * copying a panel before its send. */
static int folded(const void *buf, int count, MPI_Datatype type)
{
	MPI_Aint lb, extent, tlb, textent;
	if (count <= 0 || PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
	    PMPI_Type_get_true_extent(type, &tlb, &textent) != MPI_SUCCESS || extent < 0 || textent < 0)
		return 0;
	size_t span = (size_t)(count - 1) * (size_t)extent + (size_t)textent;
	return vr_fold_holds((const char *)buf + tlb, span);
}

/* PMPI_Pack, or for folded data only the packed size (the data's, not
 * Pack_size's bound: the receiver takes exactly what was sent). */
static int pack(const void *buf, int count, MPI_Datatype type, void *copy, int size, int *pos,
                MPI_Comm comm)
{
	int ts = 0;
	if (!folded(buf, count, type) || PMPI_Type_size(type, &ts) != MPI_SUCCESS ||
	    (long long)ts * count > size)
		return PMPI_Pack(buf, count, type, copy, size, pos, comm);
	*pos = ts * count;
	vr_fold_unpacked((size_t)*pos);
	return MPI_SUCCESS;
}

/* Returns MPI_SUCCESS, or the error of a send that could not be buffered
 * (then sent as the caller would have: *req is a real request). */
int vr_bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
             MPI_Request *req)
{
	vr_bsend_progress();
	int size = 0, pos = 0;
	void *copy = NULL;
	if (nout == capout) {
		int ncap = capout ? 2 * capout : 64;
		outstanding *t = realloc(out, (size_t)ncap * sizeof *t);
		if (t == NULL)
			return PMPI_Isend(buf, count, type, dest, tag, comm, req);
		out = t;
		capout = ncap;
	}
	if (PMPI_Pack_size(count, type, comm, &size) != MPI_SUCCESS ||
	    (copy = malloc(size > 0 ? (size_t)size : 1)) == NULL ||
	    pack(buf, count, type, copy, size, &pos, comm) != MPI_SUCCESS) {
		free(copy);
		return PMPI_Isend(buf, count, type, dest, tag, comm, req);
	}
	MPI_Request r;
	int rc = PMPI_Isend(copy, pos, MPI_PACKED, dest, tag, comm, &r);
	if (rc != MPI_SUCCESS) {
		free(copy);
		return rc;
	}
	out[nout++] = (outstanding){ r, copy };
	*req = MPI_REQUEST_NULL;
	return MPI_SUCCESS;
}

/* Each send leaves the array before its wait: the wait may test the
 * others (vorder.c's naps call vr_bsend_progress), which completes and
 * frees them and moves the last entry; a copy of a request left in the
 * array could be freed under the wait (an Open MPI request is a pointer)
 * and the entry freed after it another send's buffer. */
int vr_bsend_flush(void)
{
	while (nout > 0) {
		outstanding o = out[--nout];
		int rc = vr_wait(&o.req, MPI_STATUS_IGNORE);
		free(o.buf);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	return MPI_SUCCESS;
}

/* ---- a request complete from the start ----------------------------------- */

static int done_query(void *extra, MPI_Status *st)
{
	(void)extra;
	PMPI_Status_set_elements(st, MPI_BYTE, 0);
	PMPI_Status_set_cancelled(st, 0);
	st->MPI_SOURCE = MPI_UNDEFINED;
	st->MPI_TAG = MPI_UNDEFINED;
	return MPI_SUCCESS;
}

static int done_free(void *extra)
{
	(void)extra;
	return MPI_SUCCESS;
}

static int done_cancel(void *extra, int complete)
{
	(void)extra;
	(void)complete;
	return MPI_SUCCESS;
}

int vr_completed_request(MPI_Request *req)
{
	int rc = PMPI_Grequest_start(done_query, done_free, done_cancel, NULL, req);
	return rc == MPI_SUCCESS ? PMPI_Grequest_complete(*req) : rc;
}
