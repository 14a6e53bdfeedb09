/*
 * hpl.c -- hpccinf.txt for, and the results of, stock HPL inside Debian's
 * hpcc (hpl.h).  The input format was read off HPL_pdinfo.c and hpcc's
 * io.c (HPCC_InputFileInit), the output off HPL_pdtest.c, and both checked
 * against real runs (tests/data/hpcc-*.txt).
 */
#define _GNU_SOURCE
#include "hpl.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/dense/dense.h"
#include "testers.h"

const char *const hl_hpl_facts[] = { "left", "crout", "right", NULL };
const char *const hl_hpl_bcasts[] = { "1ring", "1ringM", "2ring", "2ringM", "long", "longM",
	                              NULL };
const char *const hl_hpl_swaps[] = { "binary-exchange", "long", "mix", NULL };
const char *const hl_hpl_forms[] = { "transposed", "no-transposed", NULL };

void hl_hpl_defaults(hl_hpl_settings *s)
{
	/* HPL's sample HPL.dat (and hpcc's _hpccinf.txt): right-looking
	 * panels, Crout recursion, the modified increasing ring, look-ahead 1,
	 * mixed swapping above 64 columns. */
	*s = (hl_hpl_settings){ .threshold = 16.0, .pfact = 2, .nbmin = 4, .ndiv = 2, .rfact = 1,
	                        .bcast = 1, .depth = 1, .swap = 2, .swap_threshold = 64,
	                        .l1_notrans = 0, .u_notrans = 0, .equilibration = 1,
	                        .alignment = 8 };
}

/* ---- hpccinf.txt ----------------------------------------------------------- */

/* Lines 1-12: the problem and the grid.  Lines 1-2 are free text. */
static void write_problem(FILE *f, const size_t *sizes, size_t nsizes, size_t nb, size_t p,
                          size_t q)
{
	fprintf(f, "HPLinpack benchmark input file, written by hetlaunch\n");
	fprintf(f, "hetlaunch: HPL, nb %zu, %zu x %zu grid, row-major rank order\n", nb, p, q);
	fprintf(f, HL_RD_HPL_OUT "      output file name (if any)\n");
	fprintf(f, "6            device out (6=stdout,7=stderr,file)\n");
	fprintf(f, "%-12zu # of problems sizes (N)\n", nsizes);
	for (size_t i = 0; i < nsizes; i++)
		fprintf(f, "%zu ", sizes[i]);
	fprintf(f, " Ns\n");
	fprintf(f, "1            # of NBs\n");
	fprintf(f, "%-12zu NBs\n", nb);
	fprintf(f, "0            PMAP process mapping (0=Row-,1=Column-major)\n");
	fprintf(f, "1            # of process grids (P x Q)\n");
	fprintf(f, "%-12zu Ps\n", p);
	fprintf(f, "%-12zu Qs\n", q);
}

/* Lines 13-31: the algorithm. */
static void write_algorithm(FILE *f, const hl_hpl_settings *s)
{
	fprintf(f, "%-12g threshold\n", s->threshold);
	fprintf(f, "1            # of panel fact\n");
	fprintf(f, "%-12d PFACTs (0=left, 1=Crout, 2=Right)\n", s->pfact);
	fprintf(f, "1            # of recursive stopping criterium\n");
	fprintf(f, "%-12zu NBMINs (>= 1)\n", s->nbmin);
	fprintf(f, "1            # of panels in recursion\n");
	fprintf(f, "%-12zu NDIVs\n", s->ndiv);
	fprintf(f, "1            # of recursive panel fact.\n");
	fprintf(f, "%-12d RFACTs (0=left, 1=Crout, 2=Right)\n", s->rfact);
	fprintf(f, "1            # of broadcast\n");
	fprintf(f, "%-12d BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)\n", s->bcast);
	fprintf(f, "1            # of lookahead depth\n");
	fprintf(f, "%-12zu DEPTHs (>=0)\n", s->depth);
	fprintf(f, "%-12d SWAP (0=bin-exch,1=long,2=mix)\n", s->swap);
	fprintf(f, "%-12zu swapping threshold\n", s->swap_threshold);
	fprintf(f, "%-12d L1 in (0=transposed,1=no-transposed) form\n", s->l1_notrans);
	fprintf(f, "%-12d U  in (0=transposed,1=no-transposed) form\n", s->u_notrans);
	fprintf(f, "%-12d Equilibration (0=no,1=yes)\n", s->equilibration);
	fprintf(f, "%-12zu memory alignment in double (> 0)\n", s->alignment);
}

int hl_hpl_write_input(const hl_hpl_settings *s, const size_t *sizes, size_t nsizes, size_t nb,
                       size_t nprow, size_t npcol, FILE *f)
{
	if (!s || !f || !sizes || nsizes == 0 || nsizes > HL_HPL_MAX_SIZES || !nb || !nprow ||
	    !npcol)
		return -1;
	for (size_t i = 0; i < nsizes; i++)
		if (sizes[i] == 0 || sizes[i] > 10000000)
			return -1;
	write_problem(f, sizes, nsizes, nb, nprow, npcol);
	write_algorithm(f, s);
	/* Line 32 is skipped; 33-36: PTRANS's extra sizes and block sizes.
	 * None: PTRANS then runs at HPL's N / 2 and nb only (io.c). */
	fprintf(f, "##### This line (no. 32) is ignored (it serves as a separator). ######\n");
	fprintf(f, "0            Number of additional problem sizes for PTRANS\n");
	fprintf(f, "0            values of N\n");
	fprintf(f, "0            number of additional blocking sizes for PTRANS\n");
	fprintf(f, "0            values of NB\n");
	return ferror(f) ? -1 : 0;
}

/* ---- memory ---------------------------------------------------------------- */

double hl_hpl_flops(size_t n)
{
	double x = (double)n;
	return 2.0 / 3.0 * x * x * x + 1.5 * x * x;
}

void hl_hpl_arrays(size_t n, size_t nb, size_t p, size_t q, size_t *a, size_t *panel)
{
	/* HPL_pdtest: [A | b] with its leading dimension, mp + 1 by nq + 1;
	 * HPL_pdpanel_init: per panel (two with look-ahead) L1, L2 and U,
	 * about nb (mp + nq + nb) doubles. */
	size_t mp = vproc_numroc(n, nb, 0, p), nq = vproc_numroc(n, nb, 0, q);
	*a = 8 * (mp + 1 + 8) * (nq + 1);
	*panel = 8 * nb * (mp + nq + nb + 4);
}

size_t hl_hpl_mem_need(hl_kernel k, size_t n, size_t nb, size_t p, size_t q)
{
	(void)k;
	if (!n || !nb || !p || !q)
		return 0;
	size_t a, panel;
	hl_hpl_arrays(n, nb, p, q, &a, &panel);
	return a + 2 * panel;
}

/* ---- hpccoutf.txt ---------------------------------------------------------- */

/* "WR11C2R4   400   32   1   2   0.04   1.209e+00": T/V N NB P Q Time Gflops
 * (HPL_pdtest's "W%c%1d%c%c%1d%c%1d%12d %5d %5d %5d %18.2f %18.3e"). */
static int wr_line(const char *s, hl_result *r)
{
	char tv[32];
	unsigned long n, nb, p, q;
	double t, g;
	int used = 0;
	if (s[0] != 'W' || (s[1] != 'R' && s[1] != 'C') || !isdigit((unsigned char)s[2]) ||
	    sscanf(s, "%31s %lu %lu %lu %lu %lf %lf %n", tv, &n, &nb, &p, &q, &t, &g, &used) != 7 ||
	    s[used] != '\0' || n == 0 || nb == 0 || p == 0 || q == 0 || !(t >= 0))
		return -1;
	*r = (hl_result){ .n = n, .nb = nb, .nprow = p, .npcol = q, .time = t, .gflops = g,
	                  .residual = NAN, .check = "" };
	r->rate_time = g > 0 && isfinite(g) ? hl_hpl_flops(n) / (g * 1e9) : NAN;
	snprintf(r->routine, sizeof r->routine, "HPL %.12s", tv);
	return 0;
}

/* "||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)=   0.0081691 ...... PASSED" */
static int residual_line(const char *s, double *res, char *check)
{
	const char *eq = strstr(s, ")*N)=");
	if (strncmp(s, "||Ax-b||_oo/(", 13) != 0 || eq == NULL)
		return -1;
	char word[16];
	if (sscanf(eq + 5, "%lf ...... %15s", res, word) != 2)
		return -1;
	if (strcmp(word, "PASSED") != 0 && strcmp(word, "FAILED") != 0)
		return -1;
	strcpy(check, word);
	return 0;
}

/* HPL_pwarn's ">>> ... <<<" and "HPL ERROR from process ..." lines, HPL's
 * skips and failures, and an MPI abort. */
static int hpl_error_line(const char *s)
{
	static const char *const inside[] = {
		"HPL ERROR", ">>>", "Memory allocation failed", "MPI_Abort", "BAD TERMINATION",
	};
	for (size_t i = 0; i < sizeof inside / sizeof inside[0]; i++)
		if (strstr(s, inside[i]))
			return 1;
	return 0;
}

#define ERROR_MAX 300

static int keep_error(hl_results *out, const char *s)
{
	if (out->error)
		return 0;
	return (out->error = strndup(s, ERROR_MAX)) == NULL ? -1 : 0;
}

static int push_result(hl_results *out, const hl_result *r, size_t *cap)
{
	if (out->nresults == *cap) {
		size_t nc = *cap ? 2 * *cap : 4;
		hl_result *p = realloc(out->results, nc * sizeof *p);
		if (p == NULL)
			return -1;
		out->results = p;
		*cap = nc;
	}
	out->results[out->nresults++] = *r;
	return 0;
}

/* "     0 tests completed and failed residual checks," and its siblings */
static void hpl_summary(const char *s, hl_results *out)
{
	long v;
	char rest[64];
	if (sscanf(s, "%ld tests %63[^\n]", &v, rest) != 2)
		return;
	if (strncmp(rest, "completed and passed", 20) == 0)
		out->npassed = v;
	else if (strncmp(rest, "completed and failed", 20) == 0)
		out->nfailed = v;
	else if (strncmp(rest, "skipped", 7) == 0)
		out->nskipped = v;
}

/* hpcc's sections: HPL's lines count only inside "Begin of HPL section."
 * (PTRANS prints its own "N tests completed ..." and PASSED lines); a plain
 * HPL's output has no sections and counts whole. */
typedef enum { SEC_NONE, SEC_HPL, SEC_OTHER } section;

static int section_line(const char *s, section *sec)
{
	if (strncmp(s, "Begin of ", 9) == 0 && strstr(s, " section.")) {
		*sec = strcmp(s, "Begin of HPL section.") == 0 ? SEC_HPL : SEC_OTHER;
		return 1;
	}
	if (strncmp(s, "End of ", 7) == 0 && strstr(s, " section.")) {
		*sec = SEC_OTHER;
		return 1;
	}
	return 0;
}

/* One line (no newline, leading blanks removed); -1 when out of memory. */
static int hpl_line(const char *s, hl_results *out, size_t *cap, section *sec)
{
	hl_result r;
	if (section_line(s, sec) || (*sec == SEC_OTHER && !hpl_error_line(s)))
		return 0;
	if (wr_line(s, &r) == 0)
		return push_result(out, &r, cap);
	double res;
	char check[8];
	if (out->nresults && residual_line(s, &res, check) == 0) {
		hl_result *last = &out->results[out->nresults - 1];
		last->residual = res;
		strcpy(last->check, check);
		if (strcmp(check, "FAILED") != 0 || out->error)
			return 0;
		out->error_is_check = 1;
		return keep_error(out, s);
	}
	if (strcmp(s, "End of Tests.") == 0)
		out->finished = 1;
	else if (hpl_error_line(s))
		return keep_error(out, s);
	else
		hpl_summary(s, out);
	return 0;
}

static int hpl_verdict(const hl_results *r)
{
	if (r->nresults == 0 || !r->finished || r->error || r->nfailed > 0 || r->nskipped > 0)
		return 0;
	for (size_t i = 0; i < r->nresults; i++)
		if (strcmp(r->results[i].check, "PASSED") != 0)
			return 0;
	return 1;
}

int hl_hpl_parse(hl_kernel k, const char *text, hl_results *out)
{
	(void)k;
	if (!out)
		return -1;
	hl_results_init(out);
	if (!text)
		return -1;
	size_t cap = 0;
	int rc = 0;
	section sec = SEC_NONE;
	for (const char *s = text; *s && rc == 0;) {
		size_t len = strcspn(s, "\n");
		char *line = strndup(s, len);
		if (line == NULL)
			return -1;
		char *t = line;
		while (*t == ' ' || *t == '\t')
			t++;
		size_t tl = strlen(t);
		while (tl && isspace((unsigned char)t[tl - 1]))
			t[--tl] = '\0';
		rc = hpl_line(t, out, &cap, &sec);
		free(line);
		s += len + (s[len] == '\n');
	}
	out->passed = rc == 0 && hpl_verdict(out);
	return rc;
}
