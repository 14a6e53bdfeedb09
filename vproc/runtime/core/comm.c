/*
 * comm.c -- what the runtime keeps per communicator.
 *
 * The shadow: a duplicate of the user's communicator that carries our
 * collectives' point-to-point traffic, so it can never match a user
 * receive (even one with MPI_ANY_TAG).  It is made at the first collective
 * on the communicator: every member calls that collective, in the same
 * order (MPI 4.0 s6.14), so the MPI_Comm_dup inside it is matched.
 *
 * The world ranks: the emulated network charges a message by the machines
 * of its two ends, and the plan knows machines by MPI_COMM_WORLD rank.
 *
 * Handles are reused after MPI_Comm_free: the free wrapper forgets them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

typedef struct {
	MPI_Comm comm;
	MPI_Comm shadow;   /* MPI_COMM_NULL until a collective needs it */
	MPI_Comm stamp;    /* virtual clock: the stamps' channel, or MPI_COMM_NULL */
	int chan;          /* its number, the same in every member (vorder.c) */
	int size;
	int *world;        /* NULL until a send needs it */
} vr_comm;

static vr_comm *tab;
static size_t ntab, cap;

static vr_comm *find(MPI_Comm comm, int create)
{
	for (size_t i = 0; i < ntab; i++)
		if (tab[i].comm == comm)
			return &tab[i];
	if (!create)
		return NULL;
	if (ntab == cap) {
		size_t ncap = cap ? 2 * cap : 16;
		vr_comm *t = realloc(tab, ncap * sizeof *t);
		if (t == NULL)
			return NULL;
		tab = t;
		cap = ncap;
	}
	vr_comm *c = &tab[ntab++];
	c->comm = comm;
	c->shadow = MPI_COMM_NULL;
	c->stamp = MPI_COMM_NULL;
	c->chan = 0;
	c->size = 0;
	c->world = NULL;
	return c;
}

MPI_Comm vr_shadow(MPI_Comm comm)
{
	vr_comm *c = find(comm, 1);
	if (c == NULL)
		return MPI_COMM_NULL;
	if (c->shadow == MPI_COMM_NULL && PMPI_Comm_dup(comm, &c->shadow) != MPI_SUCCESS)
		c->shadow = MPI_COMM_NULL;
	return c->shadow;
}

int vr_world_rank(MPI_Comm comm, int rank)
{
	if (comm == MPI_COMM_WORLD)
		return rank;
	vr_comm *c = find(comm, 1);
	if (c == NULL)
		return -1;
	if (c->world == NULL) {
		MPI_Group g, wg;
		int size;
		if (PMPI_Comm_size(comm, &size) != MPI_SUCCESS)
			return -1;
		int *in = malloc((size_t)size * sizeof *in);
		int *out = malloc((size_t)size * sizeof *out);
		if (in == NULL || out == NULL) {
			free(in);
			free(out);
			return -1;
		}
		for (int i = 0; i < size; i++)
			in[i] = i;
		PMPI_Comm_group(comm, &g);
		PMPI_Comm_group(MPI_COMM_WORLD, &wg);
		PMPI_Group_translate_ranks(g, size, in, wg, out);
		PMPI_Group_free(&g);
		PMPI_Group_free(&wg);
		free(in);
		c->world = out;
		c->size = size;
	}
	if (rank < 0 || rank >= c->size)
		return -1;
	return c->world[rank];
}

/* The world ranks of comm's members, or NULL (MPI_COMM_WORLD, or not
 * known: every rank); *size their number. */
const int *vr_comm_members(MPI_Comm comm, int *size)
{
	int inter = 1;   /* an intercommunicator's senders are the remote group */
	if (comm == MPI_COMM_WORLD || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter ||
	    vr_world_rank(comm, 0) < 0)
		return NULL;
	vr_comm *c = find(comm, 0);
	if (c == NULL || c->world == NULL)
		return NULL;
	*size = c->size;
	return c->world;
}

/* The stamps of the virtual clock (vclock.c) travel on a duplicate made
 * when the communicator is (MPI_Init, the interposed constructors): a
 * collective call every member makes at the same point.
 *
 * The ordering of vorder.c names a stamp channel in shared memory (a
 * message pending for a rank, what a blocked rank waits for), so the
 * members agree on a number K here: one more than the largest any member
 * has used, so that all the communicators of one rank have distinct
 * numbers; the stamp channel is 2K, the shadow's 2K + 1. */
static int chan_counter;

void vr_stamp_create(MPI_Comm comm)
{
	if (comm == MPI_COMM_NULL)
		return;
	vr_comm *c = find(comm, 1);
	if (c == NULL || c->stamp != MPI_COMM_NULL)
		return;
	if (PMPI_Comm_dup(comm, &c->stamp) != MPI_SUCCESS) {
		c->stamp = MPI_COMM_NULL;
		return;
	}
	int k = 0;
	if (PMPI_Allreduce(&chan_counter, &k, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
		k = chan_counter;
	chan_counter = k + 1;
	c->chan = 2 * chan_counter;
	/* The shadow now too, not at the first collective: a rank spinning in
	 * MPICH's Comm_dup there waits for members that vorder.c may hold
	 * back for its clock (the LU hung in pdgetf2's Allreduce). */
	vr_shadow(comm);
}

int vr_stamp_channel(MPI_Comm comm, int tag, MPI_Comm *sc, int *stag)
{
	int chan;
	return vr_stamp_chan(comm, tag, sc, stag, &chan);
}

int vr_stamp_chan(MPI_Comm comm, int tag, MPI_Comm *sc, int *stag, int *chan)
{
	for (size_t i = 0; i < ntab; i++) {
		if (tab[i].shadow == comm && comm != MPI_COMM_NULL) {
			*sc = comm;
			*stag = tag + VR_STAMP_TAG;
			*chan = tab[i].chan > 0 ? tab[i].chan + 1 : -1;
			return 0;
		}
		if (tab[i].comm == comm && tab[i].stamp != MPI_COMM_NULL) {
			*sc = tab[i].stamp;
			*stag = tag;
			*chan = tab[i].chan > 0 ? tab[i].chan : -1;
			return 0;
		}
	}
	return -1;
}

int vr_comm_rank_of(MPI_Comm comm, int world)
{
	if (comm == MPI_COMM_WORLD)
		return world;
	int size = 0;
	PMPI_Comm_size(comm, &size);
	for (int r = 0; r < size; r++)
		if (vr_world_rank(comm, r) == world)
			return r;
	return -1;
}

void vr_comm_forget(MPI_Comm comm)
{
	vr_comm *c = find(comm, 0);
	if (c == NULL)
		return;
	if (c->shadow != MPI_COMM_NULL) {
		/* the shadow's own entry (its world ranks) goes with it */
		MPI_Comm sh = c->shadow;
		vr_comm *s = find(sh, 0);
		if (s != NULL) {
			free(s->world);
			*s = tab[--ntab];
			c = find(comm, 0);
		}
		PMPI_Comm_free(&sh);
		c->shadow = MPI_COMM_NULL;
	}
	if (c->stamp != MPI_COMM_NULL)
		PMPI_Comm_free(&c->stamp);
	free(c->world);
	*c = tab[--ntab];
}

/* ---- the user's posted receives, by request handle ----------------------
 * A small open-addressing table: the receives in flight at once are few
 * (BLACS keeps a handful).  A full table only loses wake-ups, never
 * correctness: the sender's nap bounds its wait. */
enum { NRECV = 512 };
static struct { MPI_Request req; MPI_Comm comm; int source, tag; } recvs[NRECV];
static int recvs_init;

static unsigned slot(MPI_Request r)
{
	/* MPICH's handles are ints, Open MPI's pointers: hash the bits (the
	 * same value as before for an int). */
	uintptr_t v = 0;
	memcpy(&v, &r, sizeof r < sizeof v ? sizeof r : sizeof v);
	return (unsigned)((v * 2654435761u) % NRECV);
}

void vr_recv_posted(MPI_Request req, MPI_Comm comm, int source, int tag)
{
	if (!recvs_init) {
		for (int i = 0; i < NRECV; i++)
			recvs[i].req = MPI_REQUEST_NULL;
		recvs_init = 1;
	}
	unsigned h = slot(req);
	for (unsigned k = 0; k < NRECV; k++) {
		unsigned i = (h + k) % NRECV;
		if (recvs[i].req == MPI_REQUEST_NULL || recvs[i].req == req) {
			recvs[i].req = req;
			recvs[i].comm = comm;
			recvs[i].source = source;
			recvs[i].tag = tag;
			return;
		}
	}
}

int vr_recv_peek(MPI_Request req, MPI_Comm *comm, int *source, int *tag)
{
	if (!recvs_init || req == MPI_REQUEST_NULL)
		return -1;
	unsigned h = slot(req);
	for (unsigned k = 0; k < NRECV; k++) {
		unsigned i = (h + k) % NRECV;
		if (recvs[i].req == req) {
			*comm = recvs[i].comm;
			*source = recvs[i].source;
			*tag = recvs[i].tag;
			return 0;
		}
		if (recvs[i].req == MPI_REQUEST_NULL)
			return -1;
	}
	return -1;
}

MPI_Comm vr_recv_done(MPI_Request req)
{
	if (!recvs_init || req == MPI_REQUEST_NULL)
		return MPI_COMM_NULL;
	unsigned h = slot(req);
	for (unsigned k = 0; k < NRECV; k++) {
		unsigned i = (h + k) % NRECV;
		if (recvs[i].req == req) {
			MPI_Comm c = recvs[i].comm;
			/* backward-shift deletion keeps the probe chains intact */
			unsigned j = i;
			for (;;) {
				recvs[i].req = MPI_REQUEST_NULL;
				for (;;) {
					j = (j + 1) % NRECV;
					if (recvs[j].req == MPI_REQUEST_NULL)
						return c;
					unsigned hj = slot(recvs[j].req);
					/* can the entry at j move to i? */
					if ((i <= j) ? (hj <= i || hj > j) : (hj <= i && hj > j))
						break;
				}
				recvs[i] = recvs[j];
				i = j;
			}
		}
		if (recvs[i].req == MPI_REQUEST_NULL)
			return MPI_COMM_NULL;
	}
	return MPI_COMM_NULL;
}
