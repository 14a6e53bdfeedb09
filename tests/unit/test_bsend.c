/*
 * test_bsend.c -- the virtual clock's buffered sends (vproc/runtime/bsend.c)
 * against a mock MPI whose requests behave as Open MPI's: a completed
 * request is freed at once, and its handle must never be tested again (in
 * Open MPI it is a pointer to the freed object; MPICH's integer handles
 * hid the misuse).  The mock catches what the real library turned into
 * "double free" and SIGSEGV under `mpi: openmpi`: a test of a freed
 * request, MPI re-entered from inside a test, a send buffer freed while
 * MPI still holds it or freed twice.
 *
 * Built against MPICH's mpi.h (integer handles, no symbols needed) and
 * linked with -Wl,--wrap=free, so that the buffers bsend.c frees are seen.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runtime/core/core.h"

enum { NREQ = 64 };

typedef struct {
	int live;      /* started, not yet completed and freed */
	int ready;     /* completes at its next test */
	void *buf;     /* what MPI holds while live */
	int buf_freed;
	int count;     /* the bytes sent */
} mock_req;
static mock_req req[NREQ];
static int packs, in_folded;           /* PMPI_Pack calls; the data folded or not */
static int unread;                     /* VR_FLAG_DATA_UNREAD */
static size_t unpacked;                /* the bytes vr_fold_alias saw */
static int nreq, in_test, waits;
static void (*inside_test)(void);     /* what runs inside each PMPI_Test */
static void (*inside_wait)(void);     /* what runs inside vr_wait */

void __real_free(void *p);
void __wrap_free(void *p);
/* malloc may give a freed buffer's address to a later send: the latest
 * send with that buffer is the one freed. */
void __wrap_free(void *p)
{
	int i = nreq - 1;
	while (i >= 0 && (p == NULL || req[i].buf != p))
		i--;
	if (i >= 0) {
		if (req[i].buf_freed)
			fail_msg("buffer of send %d freed twice", i);
		if (req[i].live)
			fail_msg("buffer of send %d freed while MPI holds it", i);
		req[i].buf_freed = 1;
	}
	__real_free(p);
}

/* ---- the mock MPI ---------------------------------------------------------- */

int PMPI_Test(MPI_Request *r, int *flag, MPI_Status *st)
{
	(void)st;
	if (in_test)
		fail_msg("PMPI_Test re-entered from inside PMPI_Test");
	int i = *r - 1;
	if (*r == MPI_REQUEST_NULL) {
		*flag = 1;
		return MPI_SUCCESS;
	}
	assert_true(i >= 0 && i < nreq);
	if (!req[i].live)
		fail_msg("send %d tested after MPI freed its request", i);
	in_test = 1;
	if (inside_test)
		inside_test();
	in_test = 0;
	*flag = req[i].ready;
	if (*flag) {
		req[i].live = 0;
		*r = MPI_REQUEST_NULL;
	}
	return MPI_SUCCESS;
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *r)
{
	(void)type, (void)dest, (void)tag, (void)comm;
	assert_true(nreq < NREQ);
	req[nreq] = (mock_req){ 1, 0, (void *)buf, 0, count };
	*r = ++nreq;
	return MPI_SUCCESS;
}

int PMPI_Pack_size(int count, MPI_Datatype type, MPI_Comm comm, int *size)
{
	(void)type, (void)comm;
	*size = count;
	return MPI_SUCCESS;
}

int PMPI_Pack(const void *in, int count, MPI_Datatype type, void *outbuf, int size, int *pos,
              MPI_Comm comm)
{
	(void)type, (void)comm;
	assert_true(count <= size);
	packs++;
	memcpy(outbuf, in, (size_t)count);
	*pos = count;
	return MPI_SUCCESS;
}

/* MPI_BYTE: extent and size 1; MPI_INT and MPI_FLOAT stand for strided
 * types: 4 bytes of data in an extent of 8; MPI_DOUBLE: 8 and 8 */
int PMPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent)
{
	*lb = 0, *extent = type == MPI_INT || type == MPI_FLOAT || type == MPI_DOUBLE ? 8 : 1;
	return MPI_SUCCESS;
}

int PMPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent)
{
	return PMPI_Type_get_extent(type, lb, extent);
}

int PMPI_Type_size(MPI_Datatype type, int *size)
{
	*size = type == MPI_INT || type == MPI_FLOAT ? 4 : type == MPI_DOUBLE ? 8 : 1;
	return MPI_SUCCESS;
}

/* every type is predefined here */
int PMPI_Type_get_envelope(MPI_Datatype type, int *ni, int *na, int *nd, int *combiner)
{
	(void)type;
	*ni = *na = *nd = 0;
	*combiner = MPI_COMBINER_NAMED;
	return MPI_SUCCESS;
}

int PMPI_Type_get_contents(MPI_Datatype type, int ni, int na, int nd, int *ints, MPI_Aint *addrs,
                           MPI_Datatype *types)
{
	(void)type, (void)ni, (void)na, (void)nd, (void)ints, (void)addrs, (void)types;
	fail_msg("get_contents of a predefined type");
	return MPI_ERR_TYPE;
}

int PMPI_Type_free(MPI_Datatype *type)
{
	(void)type;
	fail_msg("a predefined type freed");
	return MPI_ERR_TYPE;
}

int vr_fold_holds(const void *p, size_t len)
{
	(void)p, (void)len;
	return in_folded;
}

void vr_fold_unpacked(size_t bytes)
{
	unpacked += bytes;
}

/* fold.c: folded data under VR_FLAG_DATA_UNREAD needs no bytes */
int vr_fold_unread(const void *p, size_t len)
{
	(void)p, (void)len;
	return in_folded && unread;
}

void vr_fold_elided(size_t bytes)
{
	unpacked += bytes;
}

/* fold.c: the data is folded when the test says so; its alias is a
 * block of its own, which bsend.c must free once MPI is done with it */
void *vr_fold_alias(const void *p, size_t len, void **block)
{
	if (!in_folded)
		return NULL;
	*block = malloc(len);
	assert_non_null(*block);
	memcpy(*block, p, len);
	unpacked += len;
	return *block;
}

int PMPI_Grequest_start(MPI_Grequest_query_function *q, MPI_Grequest_free_function *f,
                        MPI_Grequest_cancel_function *c, void *extra, MPI_Request *r)
{
	(void)q, (void)f, (void)c, (void)extra;
	*r = 1000;
	return MPI_SUCCESS;
}

int PMPI_Grequest_complete(MPI_Request r)
{
	(void)r;
	return MPI_SUCCESS;
}

int PMPI_Status_set_elements(MPI_Status *st, MPI_Datatype type, int count)
{
	(void)st, (void)type, (void)count;
	return MPI_SUCCESS;
}

int PMPI_Status_set_cancelled(MPI_Status *st, int flag)
{
	(void)st, (void)flag;
	return MPI_SUCCESS;
}

/* wait.c's loop, with what the virtual clock's order does while it
 * waits (vorder.c's nap: vr_bsend_progress) between its tests. */
int vr_wait(MPI_Request *r, MPI_Status *st)
{
	for (;;) {
		int flag = 0;
		if (inside_wait)
			inside_wait();
		int rc = PMPI_Test(r, &flag, st);
		if (rc != MPI_SUCCESS || flag)
			return rc;
	}
}

/* ---- the tests -------------------------------------------------------------- */

static int setup(void **state)
{
	(void)state;
	memset(req, 0, sizeof req);
	nreq = in_test = waits = packs = in_folded = unread = 0;
	unpacked = 0;
	inside_test = inside_wait = NULL;
	return 0;
}

static void bsend_n(int n)
{
	char data[8] = "payload";
	for (int k = 0; k < n; k++) {
		MPI_Request r = 7;
		assert_int_equal(vr_bsend(data, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &r, 1), MPI_SUCCESS);
		assert_int_equal(r, MPI_REQUEST_NULL);
	}
}

static void ready(int from, int to)
{
	for (int i = from; i < to && i < nreq; i++)
		req[i].ready = 1;
}

static void all_done(int n)
{
	assert_int_equal(vr_bsend_outstanding(), 0);
	for (int i = 0; i < n; i++) {
		assert_false(req[i].live);
		assert_true(req[i].buf_freed);
	}
}

/* vorder.c's nap inside the flush's wait: every send can complete. */
static void ready_all(void)
{
	ready(0, nreq);
}

static void nap_all_ready(void)
{
	ready(0, nreq);
	vr_bsend_progress();
}

/* ... only the first and the last at the first nap, the rest later. */
static void nap_some_ready(void)
{
	if (waits++ == 0)
		ready(0, 1), ready(nreq - 1, nreq);
	else
		ready(0, nreq);
	vr_bsend_progress();
}

/* MPI_Finalize's flush: every send completed, each buffer freed once. */
static void test_flush_plain(void **state)
{
	(void)state;
	bsend_n(4);
	assert_int_equal(vr_bsend_outstanding(), 4);
	inside_wait = ready_all;
	assert_int_equal(vr_bsend_flush(vr_wait), MPI_SUCCESS);
	all_done(4);
}

/* The order's naps test the buffered sends while the flush waits for one
 * of them: each completes, and is freed, once. */
static void test_flush_progress_inside_wait(void **state)
{
	(void)state;
	bsend_n(5);
	inside_wait = nap_all_ready;
	assert_int_equal(vr_bsend_flush(vr_wait), MPI_SUCCESS);
	all_done(5);
}

/* Only some complete inside the wait: the one waited for stays MPI's
 * until its own wait ends, the others' buffers stay theirs. */
static void test_flush_partial_progress(void **state)
{
	(void)state;
	bsend_n(3);
	inside_wait = nap_some_ready;
	assert_int_equal(vr_bsend_flush(vr_wait), MPI_SUCCESS);
	all_done(3);
}

/* The runtime reached from inside PMPI_Test (a clock read of the MPI
 * stack that charged a segment, vclock.c) must not test again. */
static void test_progress_not_reentered(void **state)
{
	(void)state;
	bsend_n(3);
	ready(0, 3);
	inside_test = vr_bsend_progress;
	vr_bsend_progress();
	all_done(3);
}

/* Sends complete at the next send's progress; the rest at the flush. */
static void test_send_progress(void **state)
{
	(void)state;
	bsend_n(2);
	ready(0, 2);
	bsend_n(1);
	assert_int_equal(vr_bsend_outstanding(), 1);
	assert_true(req[0].buf_freed && req[1].buf_freed);
	inside_wait = ready_all;
	assert_int_equal(vr_bsend_flush(vr_wait), MPI_SUCCESS);
	all_done(3);
}

/* A user's MPI_Isend gets a request complete from the start. */
static void test_completed_request(void **state)
{
	(void)state;
	MPI_Request r = MPI_REQUEST_NULL;
	assert_int_equal(vr_completed_request(&r), MPI_SUCCESS);
	assert_int_not_equal(r, MPI_REQUEST_NULL);
}

/* Data in folded memory (compute: skip) is sent from its alias, not
 * packed: the same bytes, the alias freed once sent; other data is
 * packed. */
static void test_folded_not_packed(void **state)
{
	(void)state;
	in_folded = 1;
	bsend_n(2);
	assert_int_equal(packs, 0);
	assert_int_equal(req[0].count, 8);
	assert_int_equal(req[1].count, 8);
	assert_int_equal(unpacked, 16);
	in_folded = 0;
	bsend_n(1);
	assert_int_equal(packs, 1);
	assert_int_equal(req[2].count, 8);
	assert_int_equal(unpacked, 16);
	ready(0, nreq);
	assert_int_equal(vr_bsend_flush(vr_wait), MPI_SUCCESS);
	all_done(3);
}

/* Strided data in folded memory goes out as a buffer of its size, not
 * gathered: 2 ints of a strided type, 8 bytes. */
static void test_folded_strided(void **state)
{
	(void)state;
	int data[4] = { 1, 2, 3, 4 };
	MPI_Request r = 7;
	in_folded = 1;
	assert_int_equal(vr_bsend(data, 2, MPI_INT, 1, 0, MPI_COMM_WORLD, &r, 1), MPI_SUCCESS);
	assert_int_equal(packs, 0);
	assert_int_equal(req[0].count, 8);
	assert_int_equal(unpacked, 8);
	ready(0, nreq);
	assert_int_equal(vr_bsend_flush(vr_wait), MPI_SUCCESS);
	all_done(1);
}

/* Folded floating-point data the program never reads
 * (VR_FLAG_DATA_UNREAD) in a stamped message goes out as no bytes,
 * contiguous (MPI_DOUBLE) or strided (MPI_FLOAT here), packed by no one
 * and aliased by no block (nothing of bsend.c's to free); the data's
 * bytes are counted, not its span; the stamp carries them. */
static void test_unread_empty(void **state)
{
	(void)state;
	double d[2] = { 1, 2 };
	float f[4] = { 1, 2, 3, 4 };
	MPI_Request r = 7;
	in_folded = unread = 1;
	assert_int_equal(vr_bsend(d, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r, 1), MPI_SUCCESS);
	assert_int_equal(vr_bsend(f, 2, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, &r, 1), MPI_SUCCESS);
	assert_int_equal(r, MPI_REQUEST_NULL);
	assert_int_equal(packs, 0);
	assert_int_equal(req[0].count, 0);
	assert_int_equal(req[1].count, 0);
	assert_int_equal(unpacked, 16 + 8);   /* the strided data's 8 bytes, not its span of 12 */
	ready(0, nreq);
	assert_int_equal(vr_bsend_flush(vr_wait), MPI_SUCCESS);
	assert_int_equal(vr_bsend_outstanding(), 0);
	assert_false(req[0].live || req[1].live);
	assert_false(req[0].buf_freed || req[1].buf_freed);
}

/* ... but integers (the pivots), bytes, unstamped messages and data
 * outside folded memory keep their bytes. */
static void test_unread_kept(void **state)
{
	(void)state;
	int ints[4] = { 1, 2, 3, 4 };
	char bytes[8] = "payload";
	double d[2] = { 1, 2 };
	MPI_Request r = 7;
	in_folded = unread = 1;
	assert_int_equal(vr_bsend(ints, 2, MPI_INT, 1, 0, MPI_COMM_WORLD, &r, 1), MPI_SUCCESS);
	assert_int_equal(vr_bsend(bytes, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &r, 1), MPI_SUCCESS);
	assert_int_equal(vr_bsend(d, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r, 0), MPI_SUCCESS);
	in_folded = 0;
	assert_int_equal(vr_bsend(d, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r, 1), MPI_SUCCESS);
	assert_int_equal(req[0].count, 8);
	assert_int_equal(req[1].count, 8);
	assert_int_equal(req[2].count, 16);
	assert_int_equal(packs, 1);   /* the last: not folded (the mock packs `count` bytes) */
	ready(0, nreq);
	assert_int_equal(vr_bsend_flush(vr_wait), MPI_SUCCESS);
	all_done(4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_flush_plain, setup),
		cmocka_unit_test_setup(test_send_progress, setup),
		cmocka_unit_test_setup(test_flush_progress_inside_wait, setup),
		cmocka_unit_test_setup(test_flush_partial_progress, setup),
		cmocka_unit_test_setup(test_progress_not_reentered, setup),
		cmocka_unit_test_setup(test_completed_request, setup),
		cmocka_unit_test_setup(test_folded_not_packed, setup),
		cmocka_unit_test_setup(test_folded_strided, setup),
		cmocka_unit_test_setup(test_unread_empty, setup),
		cmocka_unit_test_setup(test_unread_kept, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
