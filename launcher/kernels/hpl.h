/*
 * hpl.h -- kernel: hpl, stock HPL 2.0 through Debian's hpcc (/usr/bin/hpcc,
 * linked with Open MPI), unmodified: hetlaunch writes the hpccinf.txt it
 * reads from its working directory (the run directory) and reads back the
 * hpccoutf.txt it writes there.
 *
 * HPL distributes the matrix 2D block-cyclically over P x Q exactly as
 * ScaLAPACK does (PMAP row-major: rank = I * Q + J, the plan's rank order),
 * so the plan's 1D slice (1 x B) and 2D panels (Bp x Bq) apply unchanged.
 */
#ifndef HL_HPL_H
#define HL_HPL_H

#include <stddef.h>
#include <stdio.h>

#include "kernels.h"
#include "util/rundir.h"

#define HL_HPL_PROGRAM "/usr/bin/hpcc"
#define HL_HPL_INPUT HL_RD_HPCC_IN
#define HL_HPL_OUTPUT HL_RD_HPCC_OUT
/* hpcc reads its first 32 lines with fgets(buf, 82): a longer line would
 * count as two and shift every line after it, so the Ns line is kept under
 * 80 characters: at most this many sizes. */
#define HL_HPL_MAX_SIZES 8

/* HPL's algorithm settings (HPL.dat lines 13-31), HPL's own sample values
 * by default (hl_hpl_defaults). The enums are HPL's codes. */
typedef struct {
	double threshold;     /* residual threshold, 16 */
	int pfact;            /* 0 left, 1 Crout, 2 right */
	size_t nbmin, ndiv;   /* recursion stop, panels per recursion */
	int rfact;            /* recursive panel factorisation: as pfact */
	int bcast;            /* 0 1ring, 1 1ringM, 2 2ring, 3 2ringM, 4 long, 5 longM */
	size_t depth;         /* look-ahead depth */
	int swap;             /* 0 binary-exchange, 1 long, 2 mix */
	size_t swap_threshold;
	int l1_notrans, u_notrans;   /* 0: transposed form */
	int equilibration;
	size_t alignment;     /* in doubles */
	/* Not HPL's: run hpcc's fifteen other benchmarks too (the runtime
	 * skips the costly ones otherwise: vproc/runtime/core/sections.c). */
	int all_benchmarks;
} hl_hpl_settings;

void hl_hpl_defaults(hl_hpl_settings *s);

/* The names of the enums, as hpl: takes them (NULL-terminated). */
extern const char *const hl_hpl_facts[];    /* left crout right */
extern const char *const hl_hpl_bcasts[];   /* 1ring 1ringM 2ring 2ringM long longM */
extern const char *const hl_hpl_swaps[];    /* binary-exchange long mix */
extern const char *const hl_hpl_forms[];    /* transposed no-transposed */

/*
 * hl_hpl_write_input -- hpccinf.txt: every size as HPL's Ns, one nb, one
 * nprow x npcol grid, row-major PMAP, the settings; then no extra PTRANS
 * sizes or block sizes, which keeps hpcc's other benchmarks at the least
 * the input allows (they are sized by HPL's largest matrix).  Returns 0, or
 * -1 on a bad argument (no size, more than HL_HPL_MAX_SIZES, 0) or a write
 * error.
 */
int hl_hpl_write_input(const hl_hpl_settings *s, const size_t *sizes, size_t nsizes, size_t nb,
                       size_t nprow, size_t npcol, FILE *f);

/*
 * hl_hpl_parse -- hpccoutf.txt (and the job's log, for HPL's errors on
 * stderr): one result per WR/WC line, its scaled residual from the line
 * after it, PASSED or FAILED.  passed = at least one result, HPL's
 * "End of Tests." seen, no error line, every residual PASSED.  The first
 * error (HPL ERROR, a FAILED residual, a skipped test) is kept in
 * out->error in HPL's words.  Returns 0, or -1 on NULL or out of memory.
 */
int hl_hpl_parse(hl_kernel k, const char *text, struct hl_results *out);

/* Bytes process (0,0) allocates for an n x n problem (HPL_pdtest's [A|b]
 * plus the panels of the look-ahead), for the plan's memory check. */
size_t hl_hpl_mem_need(hl_kernel k, size_t n, size_t nb, size_t p, size_t q);
/* Its allocations on process (0, 0): the matrix [A | b], and each of the
 * two panels (hl_hpl_mem_need = a + 2 panel). */
void hl_hpl_arrays(size_t n, size_t nb, size_t p, size_t q, size_t *a, size_t *panel);

/* HPL's operation count for order n (2/3 n^3 + 3/2 n^2, HPL_pdtest). */
double hl_hpl_flops(size_t n);

#endif
