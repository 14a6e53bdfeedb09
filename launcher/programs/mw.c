/*
 * mw.c -- hl-mw, the master-worker matrix product of paper 003 (Dongarra,
 * Pineau, Robert, Shi, Vivien) as an MPI program: C <- C + A B in q x q
 * blocks, A r x t blocks, B t x s.  Rank 0 is the master: it holds A, B and
 * C and computes nothing; ranks 1..p are the workers, each with m block
 * buffers.  One message per block (notes s5).
 *
 *   hl-mw scheduler=NAME blocks=r,t,s q=Q m=M [c=C w=W] [P=N] [fault=1]
 *
 * m, c and w may be lists, one value per worker (m=45,45,21 c=1,1,4 ...):
 * the heterogeneous workers of vproc/mw (tiles of the least m). *
 * NAME is holm, orroml, ommoml, oddoml, ddoml, bmm or obmm.  c and w (the
 * model's block transfer and update times, default 1 and 1) only shape the
 * static schedules (HoLM's worker count, OMMOML's estimates); P overrides
 * HoLM's count; fault=1 makes the first worker skip one block update, so
 * that a test can see the check fail.  Static schedulers (holm, orroml, ommoml) run the op list
 * of libvproc's simulator (vproc/planner/mw/); the demand-driven ones (oddoml,
 * ddoml, bmm, obmm) serve the workers' credits first come, first served.
 *
 * Protocol.  For each transfer the master sends a small header (kind,
 * tile, inner indices) and then the blocks, all with MPI_Isend so that its
 * port is never held by a worker that is computing; it takes a C tile back
 * by sending a COUT header and receiving the blocks.  A worker posts the
 * receives of a step into a free buffer set as soon as it sees the header
 * (it polls between block updates), and sends the master a credit each
 * time it has computed a step (a set is free again).  The master sends a
 * step only against a free set, and takes C back only once every step of
 * the tile is computed: a worker never holds more than its layout,
 * mu^2 + 2 sets x (mu + mu) blocks (BMM/OBMM: nu^2 + sets x 2 nu^2) <= m.
 *
 * Output (stdout, rank 0): one line
 *   HLMW kernel=mw scheduler=S r= t= s= q= m= p= mu= sets= time= residual=
 *        passed= workers_used= blocks_sent= max_buffers= c_hash=
 * and one line per rank: HLMW-RANK rank= compute= wait= buffers=; then the
 * lines of launcher/programs/hlmpi.h that hetlaunch reads: hetlaunch-result
 * (routine=mw-S kernel=mw n=s q nb=q P=1 Q=p+1 time gflops residual passed)
 * and hetlaunch-rank per rank.
 * Exit status 0 when the check passes (C x against C0 x + A (B x)).
 * MPI calls: Isend, Irecv, Send, Recv, Wait, Waitall, Testall, Reduce,
 * Barrier, Wtime -- all interposed by the runtime (cooperative waiting).
 */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/mw/mw.h"

enum { TAG_HDR = 1, TAG_BLK = 2, TAG_CREDIT = 3, TAG_CBACK = 4, TAG_STATS = 5 };
enum { OP_CIN = 0, OP_STEP = 1, OP_COUT = 2, OP_STOP = 3 };

typedef struct {
	int kind, i0, a, j0, b, k0, kk;
} header;

#define MAXW 4096   /* workers given values in a list */

typedef struct {
	vproc_mw_sched sched;
	int r, t, s, q, p;
	size_t m, P;          /* m: the least of the list */
	double c, w;
	double cv[MAXW], wv[MAXW];  /* per worker, when a list has several */
	size_t mv[MAXW];
	size_t nc, nw, nm;    /* values given */
	int mu, sets, kw;     /* the scheduler's layout */
	int fault;            /* skip one update (tests the check) */
} job;

/* ---- timing: per-rank compute and wait (to move onto hlmpi.h) ---------- */

static double t_compute, t_wait;

static void timed_wait(MPI_Request *r)
{
	double t0 = MPI_Wtime();
	MPI_Wait(r, MPI_STATUS_IGNORE);
	t_wait += MPI_Wtime() - t0;
}

static void timed_recv(void *buf, int n, MPI_Datatype type, int src, int tag, MPI_Status *st)
{
	double t0 = MPI_Wtime();
	MPI_Recv(buf, n, type, src, tag, MPI_COMM_WORLD, st);
	t_wait += MPI_Wtime() - t0;
}

/* ---- generated matrices from the global index (to move onto hlmpi.h) ---- */

static double gen(uint64_t which, uint64_t i, uint64_t j)
{
	uint64_t z = which * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull + j + 1;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0 - 0.5;  /* [-0.5, 0.5) */
}

/* Block (bi, bj) of matrix `which`, column-major q x q. */
static void fill_block(double *blk, int which, int bi, int bj, int q)
{
	for (int jj = 0; jj < q; jj++)
		for (int ii = 0; ii < q; ii++)
			blk[(size_t)jj * q + ii] = gen((uint64_t)which, (uint64_t)bi * q + ii,
			                               (uint64_t)bj * q + jj);
}

/* ---- the block update ------------------------------------------------------ */

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc);

static void update(double *c, const double *a, const double *b, int q)
{
	const double one = 1.0;
	double t0 = MPI_Wtime();
	dgemm_("N", "N", &q, &q, &q, &one, a, &q, b, &q, &one, c, &q);
	t_compute += MPI_Wtime() - t0;
}

/* ---- arguments ---------------------------------------------------------------- */

/* Lists of values: positive times, buffer counts. */
static int parse_times(const char *v, double *out, size_t *n)
{
	char *end;
	for (*n = 0; *n < MAXW; v = end + 1) {
		out[(*n)++] = strtod(v, &end);
		if (end == v || !(out[*n - 1] > 0) || !isfinite(out[*n - 1]))
			return -1;
		if (*end != ',')
			return *end ? -1 : 0;
	}
	return -1;
}

static int parse_sizes(const char *v, size_t *out, size_t *n)
{
	char *end;
	for (*n = 0; *n < MAXW; v = end + 1) {
		unsigned long long x = strtoull(v, &end, 10);
		if (end == v || x == 0)
			return -1;
		out[(*n)++] = (size_t)x;
		if (*end != ',')
			return *end ? -1 : 0;
	}
	return -1;
}

/* One value for all workers, or one each (then p of them). */
static int settle_lists(job *jb)
{
	size_t p = (size_t)jb->p;
	if ((jb->nc > 1 && jb->nc != p) || (jb->nw > 1 && jb->nw != p) || (jb->nm > 1 && jb->nm != p))
		return -1;
	jb->c = jb->nc ? jb->cv[0] : 1.0;
	jb->w = jb->nw ? jb->wv[0] : 1.0;
	jb->m = jb->nm ? jb->mv[0] : 0;
	for (size_t x = 0; x < p && x < MAXW; x++) {
		jb->cv[x] = jb->nc > 1 ? jb->cv[x] : jb->c;
		jb->wv[x] = jb->nw > 1 ? jb->wv[x] : jb->w;
		jb->mv[x] = jb->nm > 1 ? jb->mv[x] : jb->mv[0];
		jb->m = jb->mv[x] < jb->m ? jb->mv[x] : jb->m;
	}
	return 0;
}

static int parse_arg(job *jb, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq)
		return -1;
	size_t kl = (size_t)(eq - arg);
	const char *v = eq + 1;
	if (kl == 9 && strncmp(arg, "scheduler", kl) == 0)
		return (jb->sched = vproc_mw_sched_parse(v)) == VPROC_MW_NSCHED ? -1 : 0;
	if (kl == 6 && strncmp(arg, "blocks", kl) == 0)
		return sscanf(v, "%d,%d,%d", &jb->r, &jb->t, &jb->s) == 3 ? 0 : -1;
	if (kl == 1 && arg[0] == 'q')
		return sscanf(v, "%d", &jb->q) == 1 ? 0 : -1;
	if (kl == 1 && arg[0] == 'm')
		return parse_sizes(v, jb->mv, &jb->nm);
	if (kl == 1 && arg[0] == 'P')
		return sscanf(v, "%zu", &jb->P) == 1 ? 0 : -1;
	if (kl == 5 && strncmp(arg, "fault", kl) == 0)
		return sscanf(v, "%d", &jb->fault) == 1 ? 0 : -1;
	if (kl == 1 && arg[0] == 'c')
		return parse_times(v, jb->cv, &jb->nc);
	if (kl == 1 && arg[0] == 'w')
		return parse_times(v, jb->wv, &jb->nw);
	return -1;
}

static int parse_args(job *jb, int argc, char **argv)
{
	memset(jb, 0, sizeof *jb);
	jb->sched = VPROC_MW_NSCHED;
	for (int i = 1; i < argc; i++)
		if (parse_arg(jb, argv[i]) < 0) {
			fprintf(stderr, "hl-mw: bad argument \"%s\"\n", argv[i]);
			return -1;
		}
	if (jb->sched == VPROC_MW_NSCHED || jb->r < 1 || jb->t < 1 || jb->s < 1 || jb->q < 1 ||
	    jb->nm < 1) {
		fprintf(stderr, "usage: hl-mw scheduler=NAME blocks=r,t,s q=Q m=M [c=C w=W] [P=N]\n");
		return -1;
	}
	return 0;
}

static vproc_mw_problem problem(const job *jb)
{
	vproc_mw_problem pb = { .r = (size_t)jb->r, .t = (size_t)jb->t, .s = (size_t)jb->s,
	                        .p = (size_t)jb->p, .c = jb->c, .w = jb->w, .m = jb->m, .P = jb->P };
	if (jb->nc > 1 || jb->nw > 1 || jb->nm > 1) {
		pb.ci = jb->cv;
		pb.wi = jb->wv;
		pb.mi = jb->mv;
	}
	return pb;
}

/* ====================================================================== worker */

typedef struct {
	const job *jb;
	size_t qq;               /* doubles per block */
	double *C, *set[2];      /* the layout: C tile, A/B sets */
	MPI_Request *req[2];     /* per set: B blocks then A blocks */
	int posted[2];           /* set has a step posted */
	header hs[2];            /* the step in each set */
	header next;             /* the header being received */
	MPI_Request hreq;
	int have_next;           /* hreq completed and `next` not used yet */
	size_t in_use, hwm;      /* blocks held now, at most */
	int nstep;               /* steps of the tile seen */
	int skip;                /* fault=1 on rank 1: skip the next update */
} worker;

static void post_step(worker *wk, const header *h)
{
	int sidx = wk->nstep++ % wk->jb->sets;
	size_t nb = (size_t)(h->a + h->b) * h->kk, qq = wk->qq;
	for (size_t n = 0; n < nb; n++)
		MPI_Irecv(wk->set[sidx] + n * qq, (int)qq, MPI_DOUBLE, 0, TAG_BLK, MPI_COMM_WORLD,
		          &wk->req[sidx][n]);
	wk->posted[sidx] = 1;
	wk->hs[sidx] = *h;
	wk->in_use += nb;
	wk->hwm = wk->in_use > wk->hwm ? wk->in_use : wk->hwm;
}

/* Between updates: a STEP header that has arrived is posted at once if its
 * set is free (the overlap of s5: receive while computing). */
static void poll_header(worker *wk)
{
	if (!wk->have_next) {
		int flag = 0;
		MPI_Testall(1, &wk->hreq, &flag, MPI_STATUSES_IGNORE);
		wk->have_next = flag;
	}
	if (wk->have_next && wk->next.kind == OP_STEP && !wk->posted[wk->nstep % wk->jb->sets]) {
		post_step(wk, &wk->next);
		wk->have_next = 0;
		MPI_Irecv(&wk->next, 7, MPI_INT, 0, TAG_HDR, MPI_COMM_WORLD, &wk->hreq);
	}
}

/* Compute the step in set sidx row by row, as each A row arrives. */
static void compute_step(worker *wk, int sidx)
{
	const header *h = &wk->hs[sidx];
	size_t qq = wk->qq, nB = (size_t)h->kk * h->b;
	double *B = wk->set[sidx], *A = B + nB * qq;
	for (size_t n = 0; n < nB; n++)
		timed_wait(&wk->req[sidx][n]);
	for (int i = 0; i < h->a; i++) {
		for (int kb = 0; kb < h->kk; kb++)
			timed_wait(&wk->req[sidx][nB + (size_t)i * h->kk + kb]);
		for (int kb = 0; kb < h->kk; kb++)
			for (int j = 0; j < h->b; j++) {
				if (wk->skip) {
					wk->skip = 0;
					continue;
				}
				update(wk->C + ((size_t)j * h->a + i) * qq,
				       A + ((size_t)i * h->kk + kb) * qq, B + ((size_t)kb * h->b + j) * qq,
				       wk->jb->q);
				poll_header(wk);
			}
	}
	wk->posted[sidx] = 0;
	wk->in_use -= (size_t)(h->a + h->b) * h->kk;
	int credit = 1;
	MPI_Send(&credit, 1, MPI_INT, 0, TAG_CREDIT, MPI_COMM_WORLD);
}

/* C-in, C-out: the C tile is column-major by blocks, a x b. */
static void c_transfer(worker *wk, const header *h, int in)
{
	size_t nb = (size_t)h->a * h->b, qq = wk->qq;
	if (in) {
		MPI_Request *r = wk->req[0];  /* no step is posted between tiles */
		for (size_t n = 0; n < nb; n++)
			MPI_Irecv(wk->C + n * qq, (int)qq, MPI_DOUBLE, 0, TAG_BLK, MPI_COMM_WORLD, &r[n]);
		for (size_t n = 0; n < nb; n++)
			timed_wait(&r[n]);
		wk->in_use += nb;
		wk->hwm = wk->in_use > wk->hwm ? wk->in_use : wk->hwm;
		wk->nstep = 0;
	} else {
		double t0 = MPI_Wtime();
		for (size_t n = 0; n < nb; n++)
			MPI_Send(wk->C + n * qq, (int)qq, MPI_DOUBLE, 0, TAG_CBACK, MPI_COMM_WORLD);
		t_wait += MPI_Wtime() - t0;
		wk->in_use -= nb;
	}
}

/* Take the next header: the pending one, or wait for it. */
static header next_header(worker *wk)
{
	if (!wk->have_next)
		timed_wait(&wk->hreq);
	wk->have_next = 0;
	header h = wk->next;
	if (h.kind != OP_STOP)
		MPI_Irecv(&wk->next, 7, MPI_INT, 0, TAG_HDR, MPI_COMM_WORLD, &wk->hreq);
	return h;
}

static int worker_alloc(worker *wk, const job *jb)
{
	memset(wk, 0, sizeof *wk);
	wk->jb = jb;
	wk->qq = (size_t)jb->q * jb->q;
	size_t mu = (size_t)jb->mu, panel = (size_t)2 * mu * jb->kw;
	size_t creq = mu * mu > panel ? mu * mu : panel;
	wk->C = malloc(mu * mu * wk->qq * sizeof(double));
	for (int k = 0; k < jb->sets; k++) {
		wk->set[k] = malloc(panel * wk->qq * sizeof(double));
		wk->req[k] = malloc(creq * sizeof(MPI_Request));
		if (!wk->set[k] || !wk->req[k])
			return -1;
	}
	return wk->C ? 0 : -1;
}

static void run_worker(const job *jb, size_t *hwm)
{
	worker wk;
	if (worker_alloc(&wk, jb) < 0) {
		fprintf(stderr, "hl-mw: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	wk.skip = jb->fault && rank == 1;
	MPI_Irecv(&wk.next, 7, MPI_INT, 0, TAG_HDR, MPI_COMM_WORLD, &wk.hreq);
	for (;;) {
		/* a set whose step is posted: compute the oldest first */
		int oldest = (wk.nstep - (wk.posted[0] + (jb->sets > 1 ? wk.posted[1] : 0))) % jb->sets;
		if (wk.posted[oldest]) {
			compute_step(&wk, oldest);
			continue;
		}
		header h = next_header(&wk);
		if (h.kind == OP_STOP)
			break;
		if (h.kind == OP_STEP)
			post_step(&wk, &h);
		else
			c_transfer(&wk, &h, h.kind == OP_CIN);
	}
	*hwm = wk.hwm;
	free(wk.C);
	for (int k = 0; k < jb->sets; k++) {
		free(wk.set[k]);
		free(wk.req[k]);
	}
}

/* ====================================================================== master */

typedef struct {
	const job *jb;
	size_t qq;
	double *A, *B, *C;           /* r x t, t x s, r x s blocks */
	MPI_Request *sreq;           /* every Isend, completed at the end */
	size_t nsreq, capsreq;
	header *hdrs;                /* headers stay alive until sent */
	size_t nhdr, caphdr;
	int *free_sets;              /* [p+1] sets each worker can take */
	int *steps_left;             /* [p+1] steps of its tile not computed */
	int credit;                  /* the credit being received */
	MPI_Request creq;
	size_t blocks_sent;
	int *used;
} master;

static double *blk(double *M, int cols, int i, int j, size_t qq)
{
	return M + ((size_t)i * cols + j) * qq;
}

static void isend(master *ms, const void *buf, int n, MPI_Datatype type, int dst, int tag)
{
	if (ms->nsreq == ms->capsreq) {
		ms->capsreq = ms->capsreq ? 2 * ms->capsreq : 1024;
		ms->sreq = realloc(ms->sreq, ms->capsreq * sizeof *ms->sreq);
		if (!ms->sreq)
			MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Isend(buf, n, type, dst, tag, MPI_COMM_WORLD, &ms->sreq[ms->nsreq++]);
}

/* Headers are read by pending sends: one slot per op, allocated once. */
static const header *keep_header(master *ms, header h)
{
	if (ms->nhdr == ms->caphdr)
		MPI_Abort(MPI_COMM_WORLD, 1);  /* cannot happen: caphdr counts every op */
	ms->hdrs[ms->nhdr] = h;
	return &ms->hdrs[ms->nhdr++];
}

/* One credit from worker x (a step computed: a set is free).  From x, not
 * from any worker: a wildcard receive matches in real order, and under the
 * virtual clock a credit taken before it is needed moves the master's clock
 * to that worker's (later) time -- E1's HoLM waited 7 s so (README). */
static void take_credit(master *ms, int x)
{
	MPI_Status st;
	timed_recv(&ms->credit, 1, MPI_INT, x, TAG_CREDIT, &st);
	ms->free_sets[st.MPI_SOURCE]++;
	ms->steps_left[st.MPI_SOURCE]--;
}

/* The transfer of op h to worker x (rank x), waiting for credits first. */
static void do_op(master *ms, int x, const header *h0)
{
	const job *jb = ms->jb;
	if (h0->kind == OP_STEP)
		while (ms->free_sets[x] == 0)
			take_credit(ms, x);
	if (h0->kind == OP_COUT)
		while (ms->steps_left[x] > 0)
			take_credit(ms, x);
	const header *h = keep_header(ms, *h0);
	isend(ms, h, 7, MPI_INT, x, TAG_HDR);
	ms->used[x] = 1;
	if (h->kind == OP_CIN) {
		for (int j = 0; j < h->b; j++)
			for (int i = 0; i < h->a; i++)
				isend(ms, blk(ms->C, jb->s, h->i0 + i, h->j0 + j, ms->qq), (int)ms->qq,
				      MPI_DOUBLE, x, TAG_BLK);
		ms->steps_left[x] = (jb->t + jb->kw - 1) / jb->kw;
		ms->blocks_sent += (size_t)h->a * h->b;
	} else if (h->kind == OP_STEP) {
		for (int kb = 0; kb < h->kk; kb++)
			for (int j = 0; j < h->b; j++)
				isend(ms, blk(ms->B, jb->s, h->k0 + kb, h->j0 + j, ms->qq), (int)ms->qq,
				      MPI_DOUBLE, x, TAG_BLK);
		for (int i = 0; i < h->a; i++)
			for (int kb = 0; kb < h->kk; kb++)
				isend(ms, blk(ms->A, jb->t, h->i0 + i, h->k0 + kb, ms->qq), (int)ms->qq,
				      MPI_DOUBLE, x, TAG_BLK);
		ms->free_sets[x]--;
		ms->blocks_sent += (size_t)(h->a + h->b) * h->kk;
	} else {
		for (int j = 0; j < h->b; j++)
			for (int i = 0; i < h->a; i++) {
				double t0 = MPI_Wtime();
				MPI_Recv(blk(ms->C, jb->s, h->i0 + i, h->j0 + j, ms->qq), (int)ms->qq,
				         MPI_DOUBLE, x, TAG_CBACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				t_wait += MPI_Wtime() - t0;
			}
		ms->blocks_sent += (size_t)h->a * h->b;
	}
}

static header op_header(const vproc_mw_op *op)
{
	header h = { op->kind == VPROC_MW_OP_CIN ? OP_CIN : op->kind == VPROC_MW_OP_STEP ? OP_STEP
	                                                                                : OP_COUT,
	             (int)op->i0, (int)op->a, (int)op->j0, (int)op->b, (int)op->k0, (int)op->kk };
	return h;
}

/* Static schedulers: the simulator's op list, in its order. */
static int run_static(master *ms)
{
	vproc_mw_problem pb = problem(ms->jb);
	vproc_mw_result res;
	vproc_mw_trace tr = { 0, 0, NULL };
	if (vproc_mw_simulate(&pb, ms->jb->sched, &res, &tr) != VPROC_OK)
		return -1;
	for (size_t n = 0; n < tr.n; n++) {
		header h = op_header(&tr.ops[n]);
		do_op(ms, (int)tr.ops[n].worker + 1, &h);
	}
	vproc_mw_trace_free(&tr);
	return 0;
}

/* ---- demand driven: first come, first served ------------------------------ */

typedef struct {
	int has_tile, steps_sent, nsteps;
	header tile;
} dd_state;

/* Worker x's next op, if it can be served now (0 otherwise). */
static int dd_next(master *ms, dd_state *d, int x, int *next_tile, header *h)
{
	const job *jb = ms->jb;
	int ntr = (jb->r + jb->mu - 1) / jb->mu, ntc = (jb->s + jb->mu - 1) / jb->mu;
	if (!d->has_tile) {
		if (*next_tile >= ntr * ntc)
			return 0;
		int I = *next_tile % ntr, J = *next_tile / ntr;
		header t = { OP_CIN, I * jb->mu, jb->r - I * jb->mu < jb->mu ? jb->r - I * jb->mu : jb->mu,
		             J * jb->mu, jb->s - J * jb->mu < jb->mu ? jb->s - J * jb->mu : jb->mu, 0, 0 };
		(*next_tile)++;
		d->tile = t;
		d->has_tile = 1;
		d->steps_sent = 0;
		d->nsteps = (jb->t + jb->kw - 1) / jb->kw;
		*h = t;
		return 1;
	}
	if (d->steps_sent < d->nsteps) {
		if (ms->free_sets[x] == 0)
			return 0;
		*h = d->tile;
		h->kind = OP_STEP;
		h->k0 = d->steps_sent * jb->kw;
		h->kk = jb->t - h->k0 < jb->kw ? jb->t - h->k0 : jb->kw;
		d->steps_sent++;
		return 1;
	}
	if (ms->steps_left[x] > 0)
		return 0;
	*h = d->tile;
	h->kind = OP_COUT;
	d->has_tile = 0;
	return 1;
}

static int tiles_of(const job *jb)
{
	return ((jb->r + jb->mu - 1) / jb->mu) * ((jb->s + jb->mu - 1) / jb->mu);
}

static void enqueue(int *queue, int *queued, int *tail, int p, int x)
{
	if (!queued[x]) {
		queue[(*tail)++ % (p + 1)] = x;
		queued[x] = 1;
	}
}

/* Workers ready to be served, in the order they became ready (the key
 * (max(T, R_x), R_x, x) of notes s2.4): all at the start, then each after
 * it is served, or when a credit makes its next op possible. */
static int run_demand(master *ms)
{
	int p = ms->jb->p, next_tile = 0, head = 0, tail = 0, busy = 0;
	dd_state *d = calloc((size_t)p + 1, sizeof *d);
	int *queue = calloc((size_t)p + 1, sizeof *queue);
	int *queued = calloc((size_t)p + 1, sizeof *queued);
	if (!d || !queue || !queued)
		return -1;
	for (int x = 1; x <= p; x++)
		enqueue(queue, queued, &tail, p, x);
	while (next_tile < tiles_of(ms->jb) || busy > 0) {
		if (head == tail) {       /* nobody ready: wait for a credit */
			MPI_Status st;
			timed_recv(&ms->credit, 1, MPI_INT, MPI_ANY_SOURCE, TAG_CREDIT, &st);
			ms->free_sets[st.MPI_SOURCE]++;
			ms->steps_left[st.MPI_SOURCE]--;
			enqueue(queue, queued, &tail, p, st.MPI_SOURCE);
			continue;
		}
		int x = queue[head++ % (p + 1)];
		queued[x] = 0;
		header h;
		int had = d[x].has_tile;
		if (!dd_next(ms, &d[x], x, &next_tile, &h))
			continue;          /* waiting for a credit, or nothing left */
		busy += d[x].has_tile - had;
		do_op(ms, x, &h);      /* ready: do_op does not wait */
		enqueue(queue, queued, &tail, p, x);
	}
	free(d);
	free(queue);
	free(queued);
	return 0;
}

/* ---- set-up, check, output ---------------------------------------------------- */

static int master_alloc(master *ms, const job *jb)
{
	memset(ms, 0, sizeof *ms);
	ms->jb = jb;
	ms->qq = (size_t)jb->q * jb->q;
	size_t nA = (size_t)jb->r * jb->t, nB = (size_t)jb->t * jb->s, nC = (size_t)jb->r * jb->s;
	ms->A = malloc(nA * ms->qq * sizeof(double));
	ms->B = malloc(nB * ms->qq * sizeof(double));
	ms->C = malloc(nC * ms->qq * sizeof(double));
	/* every op of any scheduler (per tile a C-in, its steps and a C-out) and
	 * the p STOP headers */
	ms->caphdr = (size_t)tiles_of(jb) * ((size_t)(jb->t + jb->kw - 1) / jb->kw + 2) + (size_t)jb->p;
	ms->hdrs = malloc(ms->caphdr * sizeof *ms->hdrs);
	ms->free_sets = calloc((size_t)jb->p + 1, sizeof *ms->free_sets);
	ms->steps_left = calloc((size_t)jb->p + 1, sizeof *ms->steps_left);
	ms->used = calloc((size_t)jb->p + 1, sizeof *ms->used);
	if (!ms->A || !ms->B || !ms->C || !ms->hdrs || !ms->free_sets || !ms->steps_left || !ms->used)
		return -1;
	for (int x = 1; x <= jb->p; x++)
		ms->free_sets[x] = jb->sets;
	for (int i = 0; i < jb->r; i++)
		for (int k = 0; k < jb->t; k++)
			fill_block(blk(ms->A, jb->t, i, k, ms->qq), 0, i, k, jb->q);
	for (int k = 0; k < jb->t; k++)
		for (int j = 0; j < jb->s; j++)
			fill_block(blk(ms->B, jb->s, k, j, ms->qq), 1, k, j, jb->q);
	for (int i = 0; i < jb->r; i++)
		for (int j = 0; j < jb->s; j++)
			fill_block(blk(ms->C, jb->s, i, j, ms->qq), 2, i, j, jb->q);
	return 0;
}

/* y += M x for a block matrix M of rows x cols blocks (x, y by blocks). */
static void gemv_blocks(const double *M, int rows, int cols, int q, const double *x, double *y)
{
	size_t qq = (size_t)q * q;
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < cols; j++) {
			const double *b = M + ((size_t)i * cols + j) * qq;
			for (int jj = 0; jj < q; jj++)
				for (int ii = 0; ii < q; ii++)
					y[(size_t)i * q + ii] += b[(size_t)jj * q + ii] * x[(size_t)j * q + jj];
		}
}

static double inf_norm(const double *v, size_t n)
{
	double m = 0;
	for (size_t i = 0; i < n; i++)
		m = fmax(m, fabs(v[i]));
	return m;
}

/* ||C x - (C0 x + A (B x))|| / ((||C0 x|| + ||A|| ||B|| ||x||) eps n_AB):
 * the product checked against three matrix-vector products. */
static double residual(master *ms)
{
	const job *jb = ms->jb;
	size_t nr = (size_t)jb->r * jb->q, nt = (size_t)jb->t * jb->q, ns = (size_t)jb->s * jb->q;
	double *x = calloc(ns, sizeof *x), *y = calloc(nt, sizeof *y), *z = calloc(nr, sizeof *z);
	double *cx = calloc(nr, sizeof *cx), *C0 = malloc((size_t)jb->r * jb->s * ms->qq * sizeof *C0);
	if (!x || !y || !z || !cx || !C0)
		return INFINITY;
	for (size_t j = 0; j < ns; j++)
		x[j] = gen(3, j, 0);
	for (int i = 0; i < jb->r; i++)
		for (int j = 0; j < jb->s; j++)
			fill_block(blk(C0, jb->s, i, j, ms->qq), 2, i, j, jb->q);
	gemv_blocks(ms->B, jb->t, jb->s, jb->q, x, y);    /* y = B x */
	gemv_blocks(C0, jb->r, jb->s, jb->q, x, z);       /* z = C0 x */
	double c0x = inf_norm(z, nr);
	gemv_blocks(ms->A, jb->r, jb->t, jb->q, y, z);    /* z += A y */
	gemv_blocks(ms->C, jb->r, jb->s, jb->q, x, cx);   /* C x */
	for (size_t i = 0; i < nr; i++)
		cx[i] -= z[i];
	/* entries of A and B are in [-0.5, 0.5): ||A||_inf <= nt/2, ||B||_inf <= ns/2 */
	double scale = (c0x + (double)nt / 2 * (double)ns / 2 * inf_norm(x, ns)) * DBL_EPSILON *
	               (double)nt;
	double res = inf_norm(cx, nr) / scale;
	free(x), free(y), free(z), free(cx), free(C0);
	return res;
}

/* FNV-1a of C's bytes: equal hashes, bit-identical products. */
static unsigned long long c_hash(const master *ms)
{
	const unsigned char *b = (const unsigned char *)ms->C;
	size_t n = (size_t)ms->jb->r * ms->jb->s * ms->qq * sizeof(double);
	unsigned long long h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

static void stop_workers(master *ms)
{
	header stop = { OP_STOP, 0, 0, 0, 0, 0, 0 };
	for (int x = 1; x <= ms->jb->p; x++)
		isend(ms, keep_header(ms, stop), 7, MPI_INT, x, TAG_HDR);
	double t0 = MPI_Wtime();
	MPI_Waitall((int)ms->nsreq, ms->sreq, MPI_STATUSES_IGNORE);
	t_wait += MPI_Wtime() - t0;
}

/* Per-rank compute, wait and buffers; the result line. */
static int report(master *ms, double time)
{
	const job *jb = ms->jb;
	double res = residual(ms);
	size_t maxbuf = 0, used = 0;
	int passed = res < 16.0;
	char lines[64][128];
	double (*stats)[3] = malloc(((size_t)jb->p + 1) * sizeof *stats);
	if (!stats)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (int x = 1; x <= jb->p; x++) {
		double *st = stats[x];
		MPI_Recv(st, 3, MPI_DOUBLE, x, TAG_STATS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		maxbuf = (size_t)st[2] > maxbuf ? (size_t)st[2] : maxbuf;
		used += (size_t)ms->used[x];
		if (x < 64)
			snprintf(lines[x], sizeof lines[x], "HLMW-RANK rank=%d compute=%.6f wait=%.6f "
			         "buffers=%zu", x, st[0], st[1], (size_t)st[2]);
	}
	passed = passed && maxbuf <= jb->m;
	printf("HLMW kernel=mw scheduler=%s r=%d t=%d s=%d q=%d m=%zu p=%d mu=%d sets=%d "
	       "time=%.6f residual=%.3g passed=%d workers_used=%zu blocks_sent=%zu "
	       "max_buffers=%zu c_hash=%016llx\n", vproc_mw_sched_name(jb->sched), jb->r, jb->t,
	       jb->s, jb->q, jb->m, jb->p, jb->mu, jb->sets, time, res, passed, used,
	       ms->blocks_sent, maxbuf, c_hash(ms));
	printf("HLMW-RANK rank=0 compute=%.6f wait=%.6f buffers=0\n", t_compute, t_wait);
	for (int x = 1; x <= jb->p && x < 64; x++)
		printf("%s\n", lines[x]);
	/* the lines of launcher/programs/hlmpi.h, which hetlaunch reads */
	double q = jb->q, flops = 2.0 * jb->r * jb->s * jb->t * q * q * q;
	printf("hetlaunch-result routine=mw-%s kernel=mw n=%d nb=%d P=1 Q=%d time=%.9g "
	       "gflops=%.6g residual=%.3g passed=%d\n", vproc_mw_sched_name(jb->sched),
	       jb->s * jb->q, jb->q, jb->p + 1, time, time > 0 ? flops / time / 1e9 : 0.0, res,
	       passed);
	printf("hetlaunch-rank rank=0 n=0 compute=%.9g wait=%.9g\n", t_compute, t_wait);
	for (int x = 1; x <= jb->p; x++)
		printf("hetlaunch-rank rank=%d n=%d compute=%.9g wait=%.9g\n", x, jb->q,
		       stats[x][0], stats[x][1]);
	fflush(stdout);
	free(stats);
	return passed ? 0 : 1;
}

/* The layout of the scheduler, as the simulator takes it. */
static int layout(job *jb)
{
	vproc_mw_problem pb = problem(jb);
	vproc_mw_result o;
	if (vproc_mw_simulate(&pb, jb->sched, &o, NULL) != VPROC_OK)
		return -1;
	jb->mu = (int)o.mu;
	jb->sets = (int)o.sets;
	jb->kw = (jb->sched == VPROC_MW_BMM || jb->sched == VPROC_MW_OBMM) ? jb->mu : 1;
	return 0;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	static job jb;   /* large (the per-worker lists): not on the stack */
	int bad = parse_args(&jb, argc, argv) < 0 || size < 2;
	jb.p = size - 1;
	if (!bad && (size - 1 > MAXW || settle_lists(&jb) < 0)) {
		if (rank == 0)
			fprintf(stderr, "hl-mw: give m, c and w once or once per worker (%d)\n", size - 1);
		bad = 1;
	}
	if (!bad && layout(&jb) < 0) {
		if (rank == 0)
			fprintf(stderr, "hl-mw: m = %zu is too small for %s (or a bad size)\n", jb.m,
			        vproc_mw_sched_name(jb.sched));
		bad = 1;
	}
	if (bad) {
		if (rank == 0 && size < 2)
			fprintf(stderr, "hl-mw: needs a master and at least one worker (2 ranks)\n");
		MPI_Finalize();
		return 2;
	}
	int rc = 0;
	if (rank == 0) {
		master ms;
		if (master_alloc(&ms, &jb) < 0) {
			fprintf(stderr, "hl-mw: out of memory\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		MPI_Barrier(MPI_COMM_WORLD);
		double t0 = MPI_Wtime();
		int st = jb.sched == VPROC_MW_HOLM || jb.sched == VPROC_MW_ORROML ||
		                 jb.sched == VPROC_MW_OMMOML ? run_static(&ms) : run_demand(&ms);
		if (st < 0)
			MPI_Abort(MPI_COMM_WORLD, 1);
		stop_workers(&ms);
		double time = MPI_Wtime() - t0;
		rc = report(&ms, time);
	} else {
		size_t hwm = 0;
		MPI_Barrier(MPI_COMM_WORLD);
		run_worker(&jb, &hwm);
		double st[3] = { t_compute, t_wait, (double)hwm };
		MPI_Send(st, 3, MPI_DOUBLE, 0, TAG_STATS, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return rc;
}
