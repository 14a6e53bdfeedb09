/*
 * ring_milp.c -- one mixed integer program over every ring of q >= 2
 * machines (notes s4), solved by GLPK.  It replaces the paper's per-q ILPs
 * (004 s5.2, Prop 4), which minimise sum d for a fixed q and so can pick the
 * wrong machines (notes s4, ERROR 2b), allow self-loops (ERROR 2a) and miss
 * the max term (s4 c).  Here T itself is minimised:
 *
 *   min T  s.t.  sum_j x_ij = sum_j x_ji = z_i          (degree)
 *                sum z >= 2,  sum y = 1,  y_i <= z_i       (a root in the ring)
 *                u_i - u_j + p x_ij <= p - 1 + p y_i + p y_j  (MTZ, i != j)
 *                alpha_i <= z_i,  sum alpha = 1
 *                W w_i alpha_i + H sum_j c_ij (x_ij + x_ji) <= T
 *   x, z, y binary; u in [0, p-1]; alpha >= 0.
 *
 * p^2 + 3p + 1 columns, p^2 + 4p + 3 rows.  GLPK proves small platforms
 * quickly but may not prove Strasbourg at W/H = 300 in minutes (notes s4):
 * it is a cross-check of vproc_ring_exact and the solver beyond its reach.
 */
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/internal.h"
#include "ring.h"

typedef struct {
	size_t p;
	int nx;     /* x columns: 1..nx, then z, y, u, alpha, T */
	int *xcol;  /* [p*p] column of x_ij, 0 on the diagonal */
} cols;

static int col_z(const cols *cl, size_t i) { return cl->nx + 1 + (int)i; }
static int col_y(const cols *cl, size_t i) { return cl->nx + 1 + (int)(cl->p + i); }
static int col_u(const cols *cl, size_t i) { return cl->nx + 1 + (int)(2 * cl->p + i); }
static int col_a(const cols *cl, size_t i) { return cl->nx + 1 + (int)(3 * cl->p + i); }
static int col_T(const cols *cl) { return cl->nx + 1 + (int)(4 * cl->p); }

/* Triplets of the constraint matrix, 1-based as glp_load_matrix wants. */
typedef struct {
	int *ia, *ja;
	double *ar;
	int n;
} trip;

static void put(trip *t, int row, int col, double v)
{
	t->n++;
	t->ia[t->n] = row;
	t->ja[t->n] = col;
	t->ar[t->n] = v;
}

static int add_row(glp_prob *lp, int type, double lb, double ub)
{
	int r = glp_add_rows(lp, 1);
	glp_set_row_bnds(lp, r, type, lb, ub);
	return r;
}

static void columns(glp_prob *lp, const cols *cl, const vproc_ring_platform *pl)
{
	size_t p = cl->p;
	glp_add_cols(lp, col_T(cl));
	for (int k = 1; k <= col_T(cl); k++)
		glp_set_col_kind(lp, k, GLP_BV);
	for (size_t i = 0; i < p; i++) {
		glp_set_col_kind(lp, col_u(cl, i), GLP_CV);
		glp_set_col_bnds(lp, col_u(cl, i), GLP_DB, 0.0, (double)(p - 1));
		glp_set_col_kind(lp, col_a(cl, i), GLP_CV);
		glp_set_col_bnds(lp, col_a(cl, i), GLP_DB, 0.0, 1.0);
	}
	glp_set_col_kind(lp, col_T(cl), GLP_CV);
	glp_set_col_bnds(lp, col_T(cl), GLP_LO, 0.0, 0.0);
	glp_set_obj_coef(lp, col_T(cl), 1.0);
	glp_set_obj_dir(lp, GLP_MIN);
	(void)pl;
}

static void rows(glp_prob *lp, const cols *cl, const vproc_ring_platform *pl, trip *t)
{
	size_t p = cl->p;
	double P = (double)p;
	int rz = add_row(lp, GLP_LO, 2.0, 0.0), ry = add_row(lp, GLP_FX, 1.0, 1.0);
	int ra = add_row(lp, GLP_FX, 1.0, 1.0);
	for (size_t i = 0; i < p; i++) {
		int out = add_row(lp, GLP_FX, 0.0, 0.0), in = add_row(lp, GLP_FX, 0.0, 0.0);
		int yz = add_row(lp, GLP_UP, 0.0, 0.0), az = add_row(lp, GLP_UP, 0.0, 0.0);
		int rt = add_row(lp, GLP_UP, 0.0, 0.0);
		for (size_t j = 0; j < p; j++) {
			if (j == i)
				continue;
			put(t, out, cl->xcol[i * p + j], 1.0);
			put(t, in, cl->xcol[j * p + i], 1.0);
			double cij = pl->H * pl->c[i * p + j];
			put(t, rt, cl->xcol[i * p + j], cij);
			put(t, rt, cl->xcol[j * p + i], cij);
			int mtz = add_row(lp, GLP_UP, 0.0, P - 1.0);
			put(t, mtz, col_u(cl, i), 1.0);
			put(t, mtz, col_u(cl, j), -1.0);
			put(t, mtz, cl->xcol[i * p + j], P);
			put(t, mtz, col_y(cl, i), -P);
			put(t, mtz, col_y(cl, j), -P);
		}
		put(t, out, col_z(cl, i), -1.0);
		put(t, in, col_z(cl, i), -1.0);
		put(t, yz, col_y(cl, i), 1.0);
		put(t, yz, col_z(cl, i), -1.0);
		put(t, az, col_a(cl, i), 1.0);
		put(t, az, col_z(cl, i), -1.0);
		put(t, rt, col_a(cl, i), pl->W * pl->w[i]);
		put(t, rt, col_T(cl), -1.0);
		put(t, rz, col_z(cl, i), 1.0);
		put(t, ry, col_y(cl, i), 1.0);
		put(t, ra, col_a(cl, i), 1.0);
	}
}

/* The best bound of the open nodes, kept while GLPK searches. */
static void on_tree(glp_tree *tree, void *info)
{
	double *bound = info;
	int node = glp_ios_best_node(tree);
	if (node)
		*bound = glp_ios_node_bound(tree, node);
}

/* The ring of the MIP solution: from the root, follow x_ij = 1. */
static size_t ring_of(glp_prob *lp, const cols *cl, size_t *order)
{
	size_t p = cl->p, root = p, q = 0;
	for (size_t i = 0; i < p; i++)
		if (glp_mip_col_val(lp, col_y(cl, i)) > 0.5)
			root = i;
	if (root == p)
		return 0;
	size_t cur = root;
	do {
		order[q++] = cur;
		size_t next = p;
		for (size_t j = 0; j < p && next == p; j++)
			if (j != cur && glp_mip_col_val(lp, cl->xcol[cur * p + j]) > 0.5)
				next = j;
		cur = next;
	} while (cur != p && cur != root && q < p);
	return cur == root ? q : 0;
}

/* Build and solve; *q = 0 when GLPK found no ring. */
static vproc_status solve(const vproc_ring_platform *pl, double time_limit, size_t *order,
                          size_t *q, int *proven, double *bound)
{
	size_t p = pl->p;
	cols cl = { p, 0, vproc_calloc(p * p, sizeof(int)) };
	size_t nnz = 12 * p * p + 16 * p + 8;
	trip t = { vproc_calloc(nnz + 1, sizeof(int)), vproc_calloc(nnz + 1, sizeof(int)),
	           vproc_calloc(nnz + 1, sizeof(double)), 0 };
	vproc_status st = (cl.xcol && t.ia && t.ja && t.ar) ? VPROC_OK : VPROC_ENOMEM;
	if (st == VPROC_OK) {
		for (size_t i = 0; i < p; i++)
			for (size_t j = 0; j < p; j++)
				if (i != j)   /* never x_ii (notes s4, ERROR 2a) */
					cl.xcol[i * p + j] = ++cl.nx;
		int was = glp_term_out(GLP_OFF);   /* vproc does no I/O */
		glp_prob *lp = glp_create_prob();
		columns(lp, &cl, pl);
		rows(lp, &cl, pl, &t);
		glp_load_matrix(lp, t.n, t.ia, t.ja, t.ar);
		glp_iocp parm;
		glp_init_iocp(&parm);
		parm.presolve = GLP_ON;
		parm.msg_lev = GLP_MSG_OFF;
		parm.tm_lim = time_limit * 1000.0 < 2e9 ? (int)(time_limit * 1000.0) : 2000000000;
		parm.cb_func = on_tree;
		parm.cb_info = bound;
		*bound = 0.0;
		int ret = glp_intopt(lp, &parm), ms = glp_mip_status(lp);
		*q = (ret == 0 || ret == GLP_ETMLIM) && (ms == GLP_OPT || ms == GLP_FEAS)
		             ? ring_of(lp, &cl, order) : 0;
		*proven = ret == 0 && ms == GLP_OPT;
		if (*proven)
			*bound = glp_mip_obj_val(lp);
		glp_delete_prob(lp);
		glp_term_out(was);
	}
	free(cl.xcol);
	free(t.ia);
	free(t.ja);
	free(t.ar);
	return st;
}

vproc_status vproc_ring_milp(const vproc_ring_platform *pl, double time_limit,
                             vproc_ring *out)
{
	memset(out, 0, sizeof *out);
	vproc_status st = vproc_ring_check(pl);
	if (st != VPROC_OK)
		return st;
	if (!isfinite(time_limit) || !(time_limit > 0.0))
		return VPROC_EINVAL;
	if ((st = vproc_ring_alloc(pl->p, out)) != VPROC_OK)
		return st;
	size_t fast = vproc_fastest(pl->p, pl->w), q = 0;
	double alone = pl->W * pl->w[fast], bound = 0.0;
	int proven = 1;
	if (pl->p >= 2)
		st = solve(pl, time_limit, out->order, &q, &proven, &bound);
	if (st == VPROC_OK && pl->p >= 2 && q == 0 && !proven)
		st = VPROC_ERANGE;   /* stopped before any ring: nothing to report */
	if (st == VPROC_OK && q >= 2) {
		st = vproc_ring_set(pl, q, out->order, out);
	} else if (st == VPROC_OK) {
		out->order[0] = fast;
		st = vproc_ring_set(pl, 1, out->order, out);
	}
	if (st == VPROC_OK && q >= 2 && alone <= out->T) {
		out->order[0] = fast;
		st = vproc_ring_set(pl, 1, out->order, out);
	}
	if (st != VPROC_OK) {
		vproc_ring_free(out);
		return st;
	}
	out->lower_bound = pl->p >= 2 ? fmin(alone, proven ? out->T : bound) : alone;
	/* Stopped on time_limit, the best ring may still reach the bound: the
	 * fastest machine alone, which the MILP does not model, often does. */
	out->optimal = proven || vproc_ring_at_bound(out->T, out->lower_bound);
	if (out->optimal)
		out->lower_bound = out->T;
	return VPROC_OK;
}

int vproc_ring_at_bound(double T, double lb)
{
	return lb > 0.0 && T <= lb * (1.0 + VPROC_RING_BOUND_TOL);
}
