/*
 * mw.h -- matrix product on a master-worker platform with limited worker
 * memory (paper 003: Dongarra, Pineau, Robert, Shi, Vivien, "Revisiting
 * Matrix Product on Master-Worker Platforms"; checked notes
 * ../shared/specs/003-master-worker.md, cited "notes sN").
 *
 * C <- C + A B in q x q blocks: A is r x t blocks, B is t x s, C is r x s.
 * A star: the master holds every block and computes nothing; p workers,
 * each with m block buffers.  Moving one block between the master and a
 * worker costs c; one block update C_ij += A_ik B_kj costs w.  The master
 * is one-port: one transfer at a time, in either direction (s2).
 *
 * Pure: no I/O, no MPI, no exit(); every fallible function returns a
 * vproc_status.
 */
#ifndef VPROC_MW_H
#define VPROC_MW_H

#include <stddef.h>

#include "planner/planner.h"

/* ------------------------------------------------------------------------
 * toy.c, toy_exact.c -- the s3 toy model: t = 1 (rank-one updates), no
 * result returned, unbounded worker memory.  Task T(i,j) = A_i B_j lasts
 * w; sending file A_i or B_j to a worker costs c; workers receive while
 * they compute.
 * ------------------------------------------------------------------------ */

typedef struct {
	size_t p;     /* workers, >= 1 */
	size_t r, s;  /* files A_1..A_r and B_1..B_s, >= 1 */
	double c, w;  /* send time of one file, time of one task, > 0 */
} vproc_mw_toy;

enum {
	/* Thrifty: ties between an A and a B file always go to A (the
	 * default alternates the type, A first; notes s2.1, s3). */
	VPROC_MW_THRIFTY_A_FIRST = 1u << 0,
	/* Min-min: ties between tasks go by (j, i) -- column-major -- instead
	 * of (i, j) (notes s3: 133 instead of 139 on Fig 4). */
	VPROC_MW_MINMIN_COLUMN_MAJOR = 1u << 1
};

/*
 * vproc_mw_toy_alternating -- the alternating greedy of s3 (Prop 1) on ONE
 * worker (in->p is ignored): A1, B1, A2, B2, ... then the rest of the
 * longer list; each task runs as soon as its two files are there.
 *   in        [in]  the instance
 *   makespan  [out] the end of the last task
 */
vproc_status vproc_mw_toy_alternating(const vproc_mw_toy *in, double *makespan);

/*
 * vproc_mw_toy_minmin -- Min-min (s3; ties per notes s2.1): repeatedly
 * place the (task, worker) of least start date, key (start, files missing,
 * worker, i, j), sending its missing files at once, A first.
 *   flags  [in]  0 or VPROC_MW_MINMIN_COLUMN_MAJOR
 */
vproc_status vproc_mw_toy_minmin(const vproc_mw_toy *in, unsigned flags, double *makespan);

/*
 * vproc_mw_toy_thrifty -- Thrifty (s3; its three informal rules made exact
 * in notes s2.1): keep each enrolled worker busy, enrol a new one only
 * when no enrolled worker is about to starve.
 *   flags  [in]  0 or VPROC_MW_THRIFTY_A_FIRST
 */
vproc_status vproc_mw_toy_thrifty(const vproc_mw_toy *in, unsigned flags, double *makespan);

/*
 * vproc_mw_toy_exact -- the least makespan over every schedule, by branch
 * and bound over the send sequences (workers and unsent files taken in
 * canonical order) and, for each, the best assignment of the tasks.
 * Tiny instances only: r s <= 12 and p <= 3, else VPROC_ERANGE.
 *   upper  [in]  the makespan of a feasible schedule (e.g. Min-min's): only
 *                better ones are searched; 0 for none
 */
vproc_status vproc_mw_toy_exact(const vproc_mw_toy *in, double upper, double *makespan);

/* ------------------------------------------------------------------------
 * layout.c -- memory layouts, bounds, volume (s4, s5, s6.2)
 * ------------------------------------------------------------------------ */

/* Maximum re-use (s4.1): the largest mu with 1 + mu + mu^2 <= m. */
size_t vproc_mw_mu_reuse(size_t m);
/* HoLM (s5, Alg 1): the largest mu with mu^2 + 4 mu <= m (two A/B sets). */
size_t vproc_mw_mu_holm(size_t m);
/* DDOML (s6.2): the largest mu with mu^2 + 2 mu <= m (one A/B set). */
size_t vproc_mw_mu_dd(size_t m);
/* BMM (Toledo): nu = floor(sqrt(m / 3)); OBMM: floor(sqrt(m / 5)) (s6.2). */
size_t vproc_mw_nu_bmm(size_t m);
size_t vproc_mw_nu_obmm(size_t m);
/* Block buffers in `bytes` of memory for q x q blocks of doubles (notes s4). */
size_t vproc_mw_buffers(double bytes, size_t q);

/* Communication-to-computation ratios (s4.2): maximum re-use 2/t + 2/mu;
 * Toledo's lemma sqrt(27/(32 m)); Loomis-Whitney sqrt(27/(8 m)); the
 * bound of [22] sqrt(1/(8 m)).  The constants k: sqrt(32/27), sqrt(8/27). */
double vproc_mw_ccr_reuse(size_t mu, size_t t);
double vproc_mw_ccr_toledo(double m);
double vproc_mw_ccr_lw(double m);
double vproc_mw_ccr_ref22(double m);
double vproc_mw_k_toledo(void);
double vproc_mw_k_lw(void);

/* Blocks moved with a x a tiles (edge tiles clipped): C in and out, and for
 * each tile each of its A rows and B columns once per k:
 *   V = 2 r s + t (r ceil(s/a) + s ceil(r/a))   (notes s4). */
size_t vproc_mw_volume(size_t r, size_t t, size_t s, size_t a);

/* HoLM's resource selection (s5.1): P = min(p, ceil(mu w / (2 c))), >= 1.
 * The loss 2cP/(tw) and its bound mu/t + 2c/(tw) (s5.2). */
size_t vproc_mw_holm_workers(size_t p, size_t mu, double c, double w);
double vproc_mw_holm_loss(size_t P, size_t t, double c, double w);
double vproc_mw_holm_loss_bound(size_t mu, size_t t, double c, double w);

/* ------------------------------------------------------------------------
 * enrol.c -- heterogeneous workers (beyond the paper, notes s6.1)
 * ------------------------------------------------------------------------ */

/*
 * vproc_mw_enrol -- which workers HoLM should use when each has its own c_i,
 * w_i and m_i.  Worker i working flat out needs the fraction
 * f_i = 2 c_i / (mu_i w_i) (+ 2 c_i / (t w_i) for C when t > 0) of the
 * master's port and computes 1/w_i updates per unit time: maximise
 * sum x_i / w_i subject to sum x_i f_i <= 1, 0 <= x_i <= 1, a fractional
 * knapsack solved by taking workers by increasing c_i / mu_i (the value per
 * unit of port, mu_i / (2 c_i)); ties to the lower index.
 *   p      [in]  workers
 *   c,w    [in]  p transfer and update times, finite and > 0
 *   m      [in]  p buffer counts, each with mu_holm >= 1
 *   t      [in]  the inner dimension in blocks, or 0 to ignore C traffic
 *   order  [out] p worker indices in enrolment order
 *   x      [out] p fractions of use, by worker index
 *   count  [out] workers enrolled (x_i > 0)
 *   rate   [out] updates per unit time, sum x_i / w_i
 * Homogeneous workers give count = ceil(mu w / 2c) (s5.1).
 */
vproc_status vproc_mw_enrol(size_t p, const double *c, const double *w, const size_t *m,
                            size_t t, size_t *order, double *x, size_t *count, double *rate);

/* ------------------------------------------------------------------------
 * simulate.c -- the block model: an event simulation of the one-port
 * master running each scheduler of s6.2 (engine rules: notes s2.4)
 * ------------------------------------------------------------------------ */

typedef enum {
	VPROC_MW_HOLM = 0, /* Alg 1 on P workers, two A/B sets */
	VPROC_MW_ORROML,   /* Alg 1 on all p workers */
	VPROC_MW_OMMOML,   /* the worker that will finish the next block first */
	VPROC_MW_ODDOML,   /* demand driven, two sets */
	VPROC_MW_DDOML,    /* demand driven, one set, larger mu */
	VPROC_MW_BMM,      /* Toledo: three nu x nu squares, no overlap */
	VPROC_MW_OBMM,     /* five squares, two A/B sets */
	VPROC_MW_NSCHED
} vproc_mw_sched;

/* "holm", "orroml", ... (lower case); NULL out of range. */
const char *vproc_mw_sched_name(vproc_mw_sched s);
/* The scheduler named `name`, or VPROC_MW_NSCHED. */
vproc_mw_sched vproc_mw_sched_parse(const char *name);

enum {
	/* HoLM with ragged sizes (notes s6.2): a round takes the next P tiles
	 * of Alg 1's order even across a group of tile columns, instead of
	 * leaving workers idle in the last, narrower group. */
	VPROC_MW_RAGGED_FILL = 1u << 0
};

typedef struct {
	size_t r, t, s;   /* A is r x t blocks, B t x s, C r x s; each >= 1 */
	size_t p;         /* workers, >= 1 */
	double c, w;      /* homogeneous transfer and update times, > 0 */
	size_t m;         /* block buffers per worker */
	/* Heterogeneous workers (beyond the paper): when not NULL, p values
	 * replacing c, w and m.  Tiles then use the mu of the least m_i. */
	const double *ci, *wi;
	const size_t *mi;
	size_t P;         /* HoLM's workers; 0 = vproc_mw_holm_workers (or
	                   * the enrolment for heterogeneous workers) */
	unsigned flags;   /* VPROC_MW_RAGGED_FILL */
} vproc_mw_problem;

typedef struct {
	double makespan;       /* when the last C block is back on the master */
	size_t enrolled;       /* workers it may use: HoLM's P, else p */
	size_t workers_used;   /* workers that got at least one tile */
	size_t blocks_moved;   /* blocks sent and received by the master */
	size_t updates;        /* block updates computed: r s t */
	size_t mu;             /* tile side (mu or nu) */
	size_t sets;           /* A/B buffer sets: 1 or 2 */
	size_t buffers;        /* buffers a worker holds at most, <= m */
	size_t tiles;          /* C tiles */
	double port_busy;      /* time the master's port was in use */
} vproc_mw_result;

/* One transfer of the schedule, in the master's order. */
typedef enum { VPROC_MW_OP_CIN, VPROC_MW_OP_STEP, VPROC_MW_OP_COUT } vproc_mw_opkind;

typedef struct {
	vproc_mw_opkind kind;
	size_t worker;        /* 0-based */
	size_t i0, a;         /* tile rows i0 .. i0+a-1 */
	size_t j0, b;         /* tile columns j0 .. j0+b-1 */
	size_t k0, kk;        /* STEP: inner indices k0 .. k0+kk-1 */
	double start, end;    /* on the master's port */
} vproc_mw_op;

/* The whole schedule; vproc_mw_trace_free releases ops. */
typedef struct {
	size_t n, cap;
	vproc_mw_op *ops;
} vproc_mw_trace;

/*
 * vproc_mw_simulate -- run scheduler `sched` on problem `pb` in the block
 * model and report its makespan, workers and traffic.
 *   pb     [in]  the problem (every size >= 1, times finite and > 0, and m
 *                large enough for the scheduler's layout: VPROC_EINVAL if not)
 *   sched  [in]  the scheduler
 *   out    [out] the result
 *   trace  [out] the transfers in the master's order, or NULL
 * O(number of transfers x p).
 */
vproc_status vproc_mw_simulate(const vproc_mw_problem *pb, vproc_mw_sched sched,
                               vproc_mw_result *out, vproc_mw_trace *trace);
void vproc_mw_trace_free(vproc_mw_trace *trace);

/*
 * vproc_mw_lower_bound -- a lower bound on the makespan of any schedule
 * (layout.c): the largest of the port time to move every block once (C in
 * and out), the Loomis-Whitney volume r s t sqrt(27/(8m)) (s4.2) times c,
 * and the work r s t over the workers' summed speed.
 *   lb  [out] the bound, in the units of c and w
 */
vproc_status vproc_mw_lower_bound(const vproc_mw_problem *pb, double *lb);

/*
 * vproc_mw_holm_best_P -- beyond the paper (notes s6.2): HoLM as Alg 1
 * prints it with s5.1's P*, and with VPROC_MW_RAGGED_FILL for P in
 * {P*-1, P*, P*+1} (within 1..p); the fastest (ties: the first tried).
 *   pb     [in]  the problem (its P and flags are ignored)
 *   P      [out] the chosen worker count
 *   flags  [out] pb->flags, with VPROC_MW_RAGGED_FILL if the fill won
 *   out    [out] its simulation
 */
vproc_status vproc_mw_holm_best_P(const vproc_mw_problem *pb, size_t *P, unsigned *flags,
                                  vproc_mw_result *out);

#endif
