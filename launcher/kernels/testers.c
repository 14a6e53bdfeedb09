/*
 * testers.c -- input files for, and results of, Debian's stock ScaLAPACK
 * testers (see testers.h).  hetlaunch never modifies them: it writes the
 * .dat file they read and reads what they print.
 */
#include "testers.h"
#include "planner/dense/dense.h"
#include "util/rundir.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- programs and file names ------------------------------------------ */

const char *hl_tester_program(hl_kernel k)
{
	switch (k) {
	case HL_KERNEL_LU: return HL_TESTER_DIR "/xdlu";
	case HL_KERNEL_QR: return HL_TESTER_DIR "/xdqr";
	case HL_KERNEL_MM: return HL_TESTER_DIR "/PBLAS/TIMING/dpb3tim";
	default:           return NULL;
	}
}

const char *hl_tester_dat_name(hl_kernel k)
{
	switch (k) {
	case HL_KERNEL_LU: return HL_RD_LU_DAT;
	case HL_KERNEL_QR: return HL_RD_QR_DAT;
	case HL_KERNEL_MM: return HL_RD_MM_DAT;
	default:           return NULL;
	}
}

/* ---- input files ------------------------------------------------------- */

/*
 * The testers read their files with Fortran list-directed READs, one READ
 * per line: the values come first and the rest of the line is ignored, which
 * is how the shipped files carry a comment on each line.  We keep those
 * comments so a user who opens the run directory can read the file.
 */

/* The first two lines of every file.  The second is the exception to the
 * comments: it is read whole (FORMAT A) and echoed at the top of the
 * output, so it names the problem instead. */
static void write_title(FILE *f, const char *title, const char *what, size_t n, size_t nb,
                        size_t p, size_t q)
{
	fprintf(f, "'%s, written by hetlaunch'\n", title);
	fprintf(f, "'hetlaunch: %s, n %zu, nb %zu, %zu x %zu grid'\n", what, n, nb, p, q);
}

/* Residual threshold 16 (HPL's), in LU.dat and QR.dat: the scaled residuals
 * of a correct run are O(1) (0.01 to 0.1 on this machine), a wrong result
 * gives 1e10 or more, so the margin costs nothing and avoids false alarms
 * on big grids. */
static void write_lu(FILE *f, size_t n, size_t nb, size_t p, size_t q)
{
	write_title(f, "ScaLAPACK LU factorization input file", "LU", n, nb, p, q);
	fprintf(f, "'" HL_RD_LU_OUT "'\t\toutput file name (if any)\n");
	fprintf(f, "6\t\t\tdevice out (6 = stdout)\n");
	fprintf(f, "1\t\t\tnumber of problems sizes\n");
	fprintf(f, "%zu\t\t\tvalues of M\n", n);
	fprintf(f, "%zu\t\t\tvalues of N\n", n);
	fprintf(f, "1\t\t\tnumber of NB's\n");
	fprintf(f, "%zu\t\t\tvalues of NB\n", nb);
	fprintf(f, "1\t\t\tnumber of NRHS's\n");
	fprintf(f, "1\t\t\tvalues of NRHS\n");
	fprintf(f, "1\t\t\tNumber of NBRHS's\n");
	fprintf(f, "1\t\t\tvalues of NBRHS\n");
	fprintf(f, "1\t\t\tnumber of process grids (ordered pairs of P & Q)\n");
	fprintf(f, "%zu\t\t\tvalues of P\n", p);
	fprintf(f, "%zu\t\t\tvalues of Q\n", q);
	fprintf(f, "16.0\t\t\tthreshold\n");
	/* 'T' would run PDGECON and PDGERFS after the timed factorization: they
	 * add wall-clock time but not to the LU time we report, and they keep a
	 * second copy of A and b in the tester's fixed 4 MB array, which
	 * lowers the largest n that fits by about 1/sqrt(2).  And Debian's xdlu
	 * with 'T' is unreliable: on 1 x 2, n 200-400, it often stops with
	 * "On entry to PDGETRS parameter number 1 had an illegal value" and
	 * then spins forever; 'F' never did in any of our runs. */
	fprintf(f, "F\t\t\t(T or F) Test Cond. Est. and Iter. Ref. Routines\n");
}

static void write_qr(FILE *f, size_t n, size_t nb, size_t p, size_t q)
{
	write_title(f, "ScaLAPACK QR factorization input file", "QR", n, nb, p, q);
	fprintf(f, "'" HL_RD_QR_OUT "'\t\t\toutput file name (if any)\n");
	fprintf(f, "6\t\t\t\tdevice out (6 = stdout)\n");
	fprintf(f, "1\t\t\t\tnumber of factorizations\n");
	fprintf(f, "'QR'\t\t\t\tfactorizations: QR, QL, LQ, RQ, QP, TZ\n");
	fprintf(f, "1\t\t\t\tnumber of problems sizes\n");
	fprintf(f, "%zu\t\t\t\tvalues of M\n", n);
	fprintf(f, "%zu\t\t\t\tvalues of N\n", n);
	fprintf(f, "1\t\t\t\tnumber of blocking sizes\n");
	fprintf(f, "%zu\t\t\t\tvalues of MB\n", nb);
	fprintf(f, "%zu\t\t\t\tvalues of NB\n", nb);
	fprintf(f, "1\t\t\t\tnumber of process grids (ordered pairs P & Q)\n");
	fprintf(f, "%zu\t\t\t\tvalues of P\n", p);
	fprintf(f, "%zu\t\t\t\tvalues of Q\n", q);
	fprintf(f, "16.0\t\t\t\tthreshold\n");
}

/* The descriptor lines of one n x n operand X (A, B or C) of PDGEMM. */
static void write_mm_operand(FILE *f, char x, size_t n, size_t nb)
{
	fprintf(f, "%zu\t\tvalues of M_%c\n", n, x);
	fprintf(f, "%zu\t\tvalues of N_%c\n", n, x);
	fprintf(f, "%zu\t\tvalues of IMB_%c\n", nb, x);
	fprintf(f, "%zu\t\tvalues of INB_%c\n", nb, x);
	fprintf(f, "%zu\t\tvalues of MB_%c\n", nb, x);
	fprintf(f, "%zu\t\tvalues of NB_%c\n", nb, x);
	fprintf(f, "0\t\tvalues of RSRC_%c\n", x);
	fprintf(f, "0\t\tvalues of CSRC_%c\n", x);
	fprintf(f, "1\t\tvalues of I%c\n", x);
	fprintf(f, "1\t\tvalues of J%c\n", x);
}

static void write_mm(FILE *f, size_t n, size_t nb, size_t p, size_t q)
{
	static const char *const routines[] = {
		"PDGEMM", "PDSYMM", "PDSYRK", "PDSYR2K",
		"PDTRMM", "PDTRSM", "PDGEADD", "PDTRADD",
	};
	write_title(f, "Level 3 PBLAS, Timing input file", "PDGEMM", n, nb, p, q);
	fprintf(f, "'" HL_RD_MM_OUT "'\toutput file name (if any)\n");
	fprintf(f, "6\t\tdevice out (6 = stdout)\n");
	fprintf(f, "%zu\t\tvalue of the logical computational blocksize NB\n", nb);
	fprintf(f, "1\t\tnumber of process grids (ordered pairs of P & Q)\n");
	fprintf(f, "%zu\t\tvalues of P\n", p);
	fprintf(f, "%zu\t\tvalues of Q\n", q);
	fprintf(f, "1.0D0\t\tvalue of ALPHA\n");
	fprintf(f, "0.0D0\t\tvalue of BETA (C = A*B)\n");
	fprintf(f, "1\t\tnumber of tests problems\n");
	fprintf(f, "'N'\t\tvalues of DIAG (unused by PDGEMM)\n");
	fprintf(f, "'L'\t\tvalues of SIDE (unused by PDGEMM)\n");
	fprintf(f, "'N'\t\tvalues of TRANSA\n");
	fprintf(f, "'N'\t\tvalues of TRANSB\n");
	fprintf(f, "'U'\t\tvalues of UPLO (unused by PDGEMM)\n");
	fprintf(f, "%zu\t\tvalues of M\n", n);
	fprintf(f, "%zu\t\tvalues of N\n", n);
	fprintf(f, "%zu\t\tvalues of K\n", n);
	write_mm_operand(f, 'A', n, nb);
	write_mm_operand(f, 'B', n, nb);
	write_mm_operand(f, 'C', n, nb);
	/* Read with FORMAT(A7, L2): the name in columns 1-7, the flag in 8-9. */
	for (size_t i = 0; i < sizeof routines / sizeof routines[0]; i++)
		fprintf(f, "%-7s %c\tput F for no test in the same column\n",
		        routines[i], i == 0 ? 'T' : 'F');
}

/* The testers hold every value in a default Fortran INTEGER (32 bits). */
static int fortran_int(size_t x)
{
	return x >= 1 && x <= (size_t)INT_MAX;
}

int hl_tester_write_dat(hl_kernel k, size_t n, size_t nb, size_t nprow,
                        size_t npcol, FILE *f)
{
	if (!f || !fortran_int(n) || !fortran_int(nb) || !fortran_int(nprow) ||
	    !fortran_int(npcol))
		return -1;
	switch (k) {
	case HL_KERNEL_LU: write_lu(f, n, nb, nprow, npcol); break;
	case HL_KERNEL_QR: write_qr(f, n, nb, nprow, npcol); break;
	case HL_KERNEL_MM: write_mm(f, n, nb, nprow, npcol); break;
	default:           return -1;
	}
	return ferror(f) ? -1 : 0;
}

/* ---- memory the testers ask for ---------------------------------------- */

static size_t zmax(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* TOTMEM of each driver, in bytes (the Debian build matches the upstream
 * sources: checked against the boundary where the testers start skipping). */
size_t hl_tester_mem_limit(hl_kernel k)
{
	switch (k) {
	case HL_KERNEL_LU: return 4000000;
	case HL_KERNEL_QR: return 2000000;
	case HL_KERNEL_MM: return 2000000;
	default:           return 0;
	}
}

static size_t gcd(size_t a, size_t b)
{
	while (b) {
		size_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/*
 * In doubles, following pdludriver.f for our file (M = N, NRHS = NBRHS = 1,
 * checks on, no condition estimation), on process (0,0), which holds the
 * most rows and columns.  Stage 1, factorization: A between guard zones of
 * pre and post doubles (leading dimension padded by nb), the pivots, and the
 * checks' workspace.  Stage 2, solve: the right-hand side (process column 0
 * holds it) and a larger check workspace, placed after stage 1's pointer.
 * The driver tests each stage against its array; stage 2 always needs more.
 */
static size_t lu_need(size_t n, size_t nb, size_t p, size_t q)
{
	size_t mp = vproc_numroc(n, nb, 0, p), nq = vproc_numroc(n, nb, 0, q);
	size_t pre = zmax(nb, mp), post = zmax(nb, nq);
	size_t lld = zmax(1, mp) + nb;
	size_t ippiv = pre + 1 + lld * nq + post + pre;
	size_t lipiv = (4 * (mp + nb) + 7) / 8;        /* INTEGERs in doubles */
	size_t ipw = ippiv + lipiv + post + pre;
	size_t work = zmax(zmax(2, nq), mp * nb + nq * nb);  /* + post */
	size_t lcmq = p / gcd(p, q);                   /* lcm(p, q) / q */
	size_t solve = nq + mp + zmax(zmax(nq * nb, 2), vproc_numroc(nq, nb, 0, lcmq));
	size_t ipw2 = ipw + lld + post + pre;          /* after b */
	return ipw2 + zmax(work, solve) + post;
}

/* pdqrdriver.f, factorization 'QR', M = N, MB = NB, checks on: A with its
 * guard zones, tau, PDGEQRF's workspace and the check's. */
static size_t qr_need(size_t n, size_t nb, size_t p, size_t q)
{
	size_t mp = vproc_numroc(n, nb, 0, p), nq = vproc_numroc(n, nb, 0, q);
	size_t pre = zmax(nb, mp), post = zmax(nb, nq);
	size_t lld = zmax(1, mp) + nb;
	size_t iptau = pre + 1 + lld * nq + post + pre;
	size_t ipw = iptau + nq + post + pre;
	size_t lwork = nb * (mp + nq + nb);
	return ipw + lwork + mp * nb + post;
}

/* pdblas3tim.f: A, B and C back to back after a guard zone of mp doubles
 * (PMDESCCHK with no gap), leading dimension mp. */
static size_t mm_need(size_t n, size_t nb, size_t p, size_t q)
{
	size_t mp = vproc_numroc(n, nb, 0, p), nq = vproc_numroc(n, nb, 0, q);
	return mp + 3 * zmax(1, mp) * nq;
}

size_t hl_tester_mem_need(hl_kernel k, size_t n, size_t nb, size_t nprow,
                          size_t npcol)
{
	if (n == 0 || nb == 0 || nprow == 0 || npcol == 0)
		return 0;
	switch (k) {
	case HL_KERNEL_LU: return 8 * lu_need(n, nb, nprow, npcol);
	case HL_KERNEL_QR: return 8 * qr_need(n, nb, nprow, npcol);
	case HL_KERNEL_MM: return 8 * mm_need(n, nb, nprow, npcol);
	default:           return 0;
	}
}

/* ---- results ------------------------------------------------------------ */

void hl_results_init(hl_results *r)
{
	memset(r, 0, sizeof *r);
	r->npassed = r->nfailed = r->nskipped = r->nunchecked = -1;
}

void hl_results_free(hl_results *r)
{
	if (!r)
		return;
	free(r->results);
	free(r->error);
	free(r->ranks);
	hl_results_init(r);
}

#define MAX_TOKENS 16

/* Split line in place at blanks; returns the number of tokens, or
 * MAX_TOKENS + 1 if there are more (no result line is that long). */
static size_t split(char *line, char **tok)
{
	size_t n = 0;
	char *s = line;
	for (;;) {
		while (*s && isspace((unsigned char)*s))
			s++;
		if (!*s)
			return n;
		if (n == MAX_TOKENS)
			return MAX_TOKENS + 1;
		tok[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* A Fortran I field: decimal digits only. */
static int parse_count(const char *s, size_t *out)
{
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || errno || v > SIZE_MAX)
		return -1;
	*out = (size_t)v;
	return 0;
}

/* A Fortran F field.  A field too narrow for its value prints as
 * asterisks: the line is still a result, its value unknown (NAN). */
static int parse_real(const char *s, double *out)
{
	if (*s == '*') {
		while (*s == '*')
			s++;
		if (*s)
			return -1;
		*out = NAN;
		return 0;
	}
	if (!isdigit((unsigned char)*s) && *s != '-' && *s != '.')
		return -1;
	char *end;
	double v = strtod(s, &end);
	if (*end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

static int parse_counts(char **tok, size_t n, size_t *out)
{
	for (size_t i = 0; i < n; i++)
		if (parse_count(tok[i], &out[i]) < 0)
			return -1;
	return 0;
}

static int parse_reals(char **tok, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++)
		if (parse_real(tok[i], &out[i]) < 0)
			return -1;
	return 0;
}

static int parse_check(const char *s, hl_result *r)
{
	static const char *const words[] = { "PASSED", "FAILED", "BYPASS" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcmp(s, words[i]) == 0) {
			strcpy(r->check, words[i]);
			return 0;
		}
	return -1;
}

/* The time the tester measured, from its operation count and its MFLOPS
 * (which it computed from the unrounded time). */
static double rate_time(double nops, double mflops)
{
	return isfinite(mflops) && mflops > 0 ? nops / (mflops * 1e6) : NAN;
}

/*
 * pdludriver.f, FORMAT 9993:
 *   WALL   200   200  32     1    1    1    2     0.01     0.00   417.48 PASSED
 *   TIME M N NB NRHS NBRHS P Q "LU Time" "Sol Time" MFLOPS CHECK
 * MFLOPS counts 2/3 N^3 - 1/2 N^2 + 2 N^2 NRHS over both times (M = N); a
 * non-square problem is factored only (M N^2 - N^3/3 - N^2/2, N <= M).
 */
static int lu_line(char **tok, size_t ntok, hl_result *r)
{
	size_t v[7];    /* M N NB NRHS NBRHS P Q */
	double t[3];    /* LU time, Sol time, MFLOPS */
	if (ntok != 12 || strcmp(tok[0], "WALL") != 0 ||
	    parse_counts(tok + 1, 7, v) < 0 || parse_reals(tok + 8, 3, t) < 0 ||
	    parse_check(tok[11], r) < 0)
		return -1;
	r->n = v[1];
	r->nb = v[2];
	r->nprow = v[5];
	r->npcol = v[6];
	r->time = t[0];
	r->sol_time = t[1];
	r->gflops = t[2] / 1000;
	double m = (double)v[0], n = (double)v[1], nrhs = (double)v[3];
	double mx = m > n ? m : n, mn = m > n ? n : m;
	double nops = m == n ? 2.0 / 3.0 * n * n * n - 0.5 * n * n + 2 * n * n * nrhs
	                     : mx * mn * mn - mn * mn * mn / 3 - mn * mn / 2;
	r->rate_time = rate_time(nops, t[2]);
	return 0;
}

/*
 * pdqrdriver.f, FORMAT 9993:
 *   WALL    200    200  32  32     2     1      0.01     1163.79 PASSED   0.6E-01
 *   TIME M N MB NB P Q "Fact Time" MFLOPS CHECK Residual
 * MFLOPS counts 2 mn^2 (mx - mn/3) + (mx + mn) mn, mn = min(M,N).
 */
static int qr_line(char **tok, size_t ntok, hl_result *r)
{
	size_t v[6];    /* M N MB NB P Q */
	double t[2];    /* Fact time, MFLOPS */
	if ((ntok != 10 && ntok != 11) || strcmp(tok[0], "WALL") != 0 ||
	    parse_counts(tok + 1, 6, v) < 0 || parse_reals(tok + 7, 2, t) < 0 ||
	    parse_check(tok[9], r) < 0)
		return -1;
	r->n = v[1];
	r->nb = v[3];
	r->nprow = v[4];
	r->npcol = v[5];
	r->time = t[0];
	r->gflops = t[1] / 1000;
	double m = (double)v[0], n = (double)v[1];
	double mx = m > n ? m : n, mn = m > n ? n : m;
	r->rate_time = rate_time(2 * mn * mn * (mx - mn / 3) + (mx + mn) * mn, t[1]);
	return 0;
}

/*
 * The PBLAS timer spreads one result over several lines:
 *     Test number  1 started on a    1 x    2 process grid.
 *          M      N      K    SIDE  UPLO  TRANSA  TRANSB  DIAG
 *        200    200    200      L     U       N       N     N
 *         IA     JA     MA     NA   IMBA   INBA    MBA    NBA RSRCA CSRCA
 *          1      1    200    200     32     32     32     32     0     0
 *   |  PDGEMM           0.002       6671.693         -1.000          0.000
 * (separator lines in between).  We keep what the last header announced.
 */
typedef struct {
	size_t p, q, m, n, k, nb;
	int want;       /* 'M': the M N K line is next, 'A': A's descriptor */
} mm_ctx;

static int mm_line(char **tok, size_t ntok, mm_ctx *c, hl_result *r)
{
	size_t v[10];
	if (ntok == 11 && strcmp(tok[0], "Test") == 0 &&
	    strcmp(tok[3], "started") == 0 && strcmp(tok[7], "x") == 0) {
		if (parse_count(tok[6], &c->p) < 0 || parse_count(tok[8], &c->q) < 0)
			c->p = c->q = 0;
		c->m = c->n = c->k = c->nb = 0;
		return -1;
	}
	if (ntok == 8 && strcmp(tok[0], "M") == 0 && strcmp(tok[2], "K") == 0) {
		c->want = 'M';
		return -1;
	}
	if (ntok == 10 && strcmp(tok[0], "IA") == 0 && strcmp(tok[7], "NBA") == 0) {
		c->want = 'A';
		return -1;
	}
	if (c->want == 'M' && ntok == 8 && parse_counts(tok, 3, v) == 0) {
		c->m = v[0], c->n = v[1], c->k = v[2];
		c->want = 0;
		return -1;
	}
	if (c->want == 'A' && ntok == 10 && parse_counts(tok, 10, v) == 0) {
		c->nb = v[7];
		c->want = 0;
		return -1;
	}
	double t[4];    /* WALL time, WALL Mflops, CPU time, CPU Mflops */
	if (ntok != 6 || strcmp(tok[0], "|") != 0 || strcmp(tok[1], "PDGEMM") != 0 ||
	    parse_reals(tok + 2, 4, t) < 0 || !c->p || !c->q || !c->n || !c->nb)
		return -1;
	r->n = c->n;
	r->nb = c->nb;
	r->nprow = c->p;
	r->npcol = c->q;
	r->time = t[0];
	r->gflops = t[1] / 1000;
	/* 2 M N K, the count of LAPACK's DOPBL3 that PDOPBL3 follows. */
	r->rate_time = rate_time(2.0 * (double)c->m * (double)c->n * (double)c->k, t[1]);
	return 0;
}

/* "    1 tests completed and passed residual checks." and its siblings. */
static int summary_line(const char *s, hl_results *out)
{
	const struct { const char *text; long *count; } lines[] = {
		{ "tests completed and passed residual checks.", &out->npassed },
		{ "tests completed and failed residual checks.", &out->nfailed },
		{ "tests skipped because of illegal input values.", &out->nskipped },
		{ "tests completed without checking.", &out->nunchecked },
	};
	if (!isdigit((unsigned char)*s))
		return -1;
	char *end;
	long v = strtol(s, &end, 10);
	while (*end == ' ')
		end++;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		if (strcmp(end, lines[i].text) == 0) {
			*lines[i].count = v;
			return 0;
		}
	return -1;
}

/*
 * Lines that say the problem did not run as asked: the drivers' own
 * messages (memory, illegal input, PDGETRF INFO != 0, PXERBLA), and the
 * Fortran runtime's or MPI's when a process dies.
 */
static int error_line(const char *s)
{
	static const char *const prefixes[] = {
		"Unable to perform", "ILLEGAL", "Bad ", "Not enough memory",
		"PDGETRF INFO=", "***** Operation not supported", "Illegal input",
		">> Invalid", "Subprogram name", "Incompatible arguments",
		"BLACS ERROR",
	};
	static const char *const inside[] = {
		"Fortran runtime error", "had an illegal value", "MPI_Abort",
		"BAD TERMINATION",
	};
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(s, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	for (size_t i = 0; i < sizeof inside / sizeof inside[0]; i++)
		if (strstr(s, inside[i]))
			return 1;
	return 0;
}

static int push(hl_results *out, const hl_result *r, size_t *cap)
{
	if (out->nresults == *cap) {
		size_t ncap = *cap ? 2 * *cap : 4;
		hl_result *p = realloc(out->results, ncap * sizeof *p);
		if (!p)
			return -1;
		out->results = p;
		*cap = ncap;
	}
	out->results[out->nresults++] = *r;
	return 0;
}

/* The text part of one line: no leading blanks, no trailing blanks or CR. */
static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

#define ERROR_MAX 300   /* keep the first error line up to this length */

/* One line of the log; -1 only when out of memory. */
static int parse_line(hl_kernel k, char *line, mm_ctx *mm, hl_results *out,
                      size_t *cap)
{
	char *s = trim(line);
	const char *end = k == HL_KERNEL_MM ? "End of Tests." : "END OF TESTS.";
	if (strcmp(s, end) == 0) {
		out->finished = 1;
		return 0;
	}
	if (summary_line(s, out) == 0)
		return 0;
	if (error_line(s)) {
		if (!out->error && !(out->error = strndup(s, ERROR_MAX)))
			return -1;
		return 0;
	}
	char *tok[MAX_TOKENS];
	size_t ntok = split(s, tok);
	hl_result r = { .check = "", .residual = NAN };
	int got = k == HL_KERNEL_LU ? lu_line(tok, ntok, &r)
	        : k == HL_KERNEL_QR ? qr_line(tok, ntok, &r)
	        : mm_line(tok, ntok, mm, &r);
	return got == 0 ? push(out, &r, cap) : 0;
}

static int verdict(hl_kernel k, const hl_results *r)
{
	if (r->nresults == 0 || !r->finished || r->error || r->nfailed > 0 ||
	    r->nskipped > 0)
		return 0;
	for (size_t i = 0; i < r->nresults; i++) {
		const hl_result *x = &r->results[i];
		if (k == HL_KERNEL_MM ? !(x->time >= 0) : strcmp(x->check, "PASSED") != 0)
			return 0;
	}
	return 1;
}

int hl_tester_parse(hl_kernel k, const char *log, hl_results *out)
{
	if (!out)
		return -1;
	hl_results_init(out);
	if (!log || (k != HL_KERNEL_LU && k != HL_KERNEL_QR && k != HL_KERNEL_MM))
		return -1;
	char *copy = strdup(log);
	if (!copy)
		return -1;
	mm_ctx mm = { 0 };
	size_t cap = 0;
	int rc = 0;
	for (char *line = copy; line && rc == 0;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		rc = parse_line(k, line, &mm, out, &cap);
		line = nl ? nl + 1 : NULL;
	}
	free(copy);
	out->passed = rc == 0 && verdict(k, out);
	return rc;
}
