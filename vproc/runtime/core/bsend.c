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
#include <limits.h>
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

/* A predefined type of floating-point numbers: the matrices' values. */
static int named_floating(MPI_Datatype t)
{
	return t == MPI_DOUBLE || t == MPI_FLOAT || t == MPI_C_DOUBLE_COMPLEX ||
	       t == MPI_C_FLOAT_COMPLEX || t == MPI_DOUBLE_PRECISION || t == MPI_REAL ||
	       t == MPI_DOUBLE_COMPLEX || t == MPI_COMPLEX;
}

/* 1 if every element of type is a floating-point number.  Integers (the
 * pivots IGEBS2D sends) are read by the program even under skip,
 * whatever memory they are in.  A derived type's derived parts are
 * copies get_contents made, freed after. */
static int floating(MPI_Datatype type)
{
	int ni, na, nd, comb;
	if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &comb) != MPI_SUCCESS)
		return 0;
	if (comb == MPI_COMBINER_NAMED)
		return named_floating(type);
	enum { MOST = 8 };   /* BLACS's vectors and indexed types have one part */
	int ints[MOST];
	MPI_Aint addrs[MOST];
	MPI_Datatype parts[MOST];
	if (ni > MOST || na > MOST || nd > MOST || nd < 1 ||
	    PMPI_Type_get_contents(type, ni, na, nd, ints, addrs, parts) != MPI_SUCCESS)
		return 0;
	int all = 1;
	for (int k = 0; k < nd; k++) {
		int pni, pna, pnd, pcomb;
		if (PMPI_Type_get_envelope(parts[k], &pni, &pna, &pnd, &pcomb) != MPI_SUCCESS)
			all = 0;
		else if (pcomb == MPI_COMBINER_NAMED)
			all = all && named_floating(parts[k]);
		else {
			all = all && floating(parts[k]);
			PMPI_Type_free(&parts[k]);
		}
	}
	return all;
}

/* Data in folded memory (compute: skip, fold.c) is not packed; data the
 * program never reads (floating-point numbers, in a stamped message) is
 * not sent at all (vr_fold_unread).  A ring
 * hop's sender packed a 1-2 MB panel before its send, on the critical
 * path: a 256-rank LU (n = 8192, 1 x 256) took 148-157 s with the copies,
 * 124-135 s without.  Contiguous data goes out of a folded block whose
 * pages are its own (vr_fold_alias): the very bytes packing would give
 * (HPL sends its pivots inside its panel).  Strided data (a panel inside
 * its matrix) goes out as a buffer of its size: gathering it is the copy
 * avoided, and its values are the shared buffer's garbage already (other
 * blocks map the same pages); sending only what was contiguous, the same
 * LU took 143-151 s. */
static void *folded_data(const void *buf, int count, MPI_Datatype type, void **block, int *bytes,
                         int may_empty)
{
	MPI_Aint lb, extent, tlb, textent;
	int ts = 0;
	if (count <= 0 || PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
	    PMPI_Type_get_true_extent(type, &tlb, &textent) != MPI_SUCCESS ||
	    PMPI_Type_size(type, &ts) != MPI_SUCCESS || extent < 0 || textent < 0 ||
	    (long long)ts * count > INT_MAX)
		return NULL;
	const char *data = (const char *)buf + tlb;
	size_t span = (size_t)(count - 1) * (size_t)extent + (size_t)textent;
	static char none;   /* what an empty send points at */
	if (may_empty && vr_fold_unread(data, span) && floating(type)) {
		vr_fold_elided((size_t)ts * (size_t)count);
		*bytes = 0;   /* the stamp carries the count (vclock.c) */
		*block = NULL;
		return &none;
	}
	*bytes = ts * count;
	if (extent == ts && textent == ts)
		return vr_fold_alias(data, span, block);
	if (!vr_fold_holds(data, span) || (*block = malloc((size_t)*bytes + 1)) == NULL)
		return NULL;
	vr_fold_unpacked((size_t)*bytes);
	return *block;
}

/* The data to send, packed into *copy (malloc'd) or seen in folded
 * memory (*copy its block); NULL if neither could be had. */
static void *packed(const void *buf, int count, MPI_Datatype type, MPI_Comm comm, void **copy,
                    int *bytes, int may_empty)
{
	int size = 0;
	void *data = folded_data(buf, count, type, copy, bytes, may_empty);
	if (data != NULL)
		return data;
	*bytes = 0;
	if (PMPI_Pack_size(count, type, comm, &size) != MPI_SUCCESS ||
	    (*copy = malloc(size > 0 ? (size_t)size : 1)) == NULL ||
	    PMPI_Pack(buf, count, type, *copy, size, bytes, comm) != MPI_SUCCESS)
		return NULL;
	return *copy;
}

/* Returns MPI_SUCCESS, or the error of a send that could not be buffered
 * (then sent as the caller would have: *req is a real request). */
int vr_bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
             MPI_Request *req, int may_empty)
{
	vr_bsend_progress();
	int bytes = 0;
	void *copy = NULL, *data;
	if (nout == capout) {
		int ncap = capout ? 2 * capout : 64;
		outstanding *t = realloc(out, (size_t)ncap * sizeof *t);
		if (t == NULL)
			return PMPI_Isend(buf, count, type, dest, tag, comm, req);
		out = t;
		capout = ncap;
	}
	if ((data = packed(buf, count, type, comm, &copy, &bytes, may_empty)) == NULL) {
		free(copy);
		return PMPI_Isend(buf, count, type, dest, tag, comm, req);
	}
	MPI_Request r;
	int rc = PMPI_Isend(data, bytes, MPI_PACKED, dest, tag, comm, &r);
	if (rc != MPI_SUCCESS) {
		free(copy);
		return rc;
	}
	out[nout++] = (outstanding){ r, copy };
	*req = MPI_REQUEST_NULL;
	return MPI_SUCCESS;
}

/* Every buffered send MPI still holds, waited for by `wait` (the
 * cooperative vr_wait at MPI_Finalize; passed in, so that this file calls
 * nothing above it: wait.c tests bsend.c's list, not the reverse).  Each
 * send leaves the array before its wait: the wait may test the others
 * (vorder.c's naps call vr_bsend_progress), which completes and frees
 * them and moves the last entry; a copy of a request left in the array
 * could be freed under the wait (an Open MPI request is a pointer) and
 * the entry freed after it another send's buffer. */
int vr_bsend_flush(int (*wait)(MPI_Request *, MPI_Status *))
{
	while (nout > 0) {
		outstanding o = out[--nout];
		int rc = wait(&o.req, MPI_STATUS_IGNORE);
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
