/*
 * test_testers.c -- the stock testers' input files and their results: the
 * .dat files read back line by line, the parser on captured outputs of the
 * real xdlu, xdqr and dpb3tim (tests/data/, see its README), and the memory
 * each tester asks for against the numbers the testers printed.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>

#include <cmocka.h>

#include "kernels/testers.h"

#include "data.h"

static void parse_file(hl_kernel k, const char *name, hl_results *r)
{
	char *log = slurp(name);
	assert_int_equal(hl_tester_parse(k, log, r), 0);
	free(log);
}

/* The .dat text of one problem, in memory. */
static char *dat(hl_kernel k, size_t n, size_t nb, size_t p, size_t q)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(hl_tester_write_dat(k, n, nb, p, q, f), 0);
	fclose(f);
	return buf;
}

/* The leading number of the first line that holds `comment` as whole words,
 * as the tester's list-directed READ would see it; -1 if there is none. */
static long value_of(const char *text, const char *comment)
{
	size_t len = strlen(comment);
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		const char *end = nl ? nl : l + strlen(l);
		for (const char *c = strstr(l, comment); c && c + len <= end;
		     c = strstr(c + 1, comment)) {
			char after = c[len];
			if (after == '_' || isalnum((unsigned char)after))
				continue;
			char *e;
			long v = strtol(l, &e, 10);
			return e > l ? v : -1;
		}
		if (!nl)
			break;
		l = nl + 1;
	}
	return -1;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* ---- programs ----------------------------------------------------------- */

static void programs(void **state)
{
	(void)state;
	static const hl_kernel ks[] = { HL_KERNEL_LU, HL_KERNEL_QR, HL_KERNEL_MM };
	static const char *const dats[] = { "LU.dat", "QR.dat", "PDBLAS3TIM.dat" };
	for (size_t i = 0; i < 3; i++) {
		const char *p = hl_tester_program(ks[i]);
		assert_non_null(p);
		/* scalapack-mpi-test is one of the packages make check installs */
		if (access(p, X_OK) != 0)
			fail_msg("%s is not an executable", p);
		assert_string_equal(hl_tester_dat_name(ks[i]), dats[i]);
		assert_true(hl_tester_mem_limit(ks[i]) > 0);
	}
	assert_null(hl_tester_program(HL_KERNEL_EXEC));
	assert_null(hl_tester_dat_name(HL_KERNEL_EXEC));
	assert_int_equal(hl_tester_mem_limit(HL_KERNEL_EXEC), 0);
	assert_int_equal(hl_tester_mem_need(HL_KERNEL_EXEC, 100, 10, 1, 1), 0);
}

/* ---- input files -------------------------------------------------------- */

static const size_t shapes[][4] = {    /* n, nb, nprow, npcol */
	{ 300, 32, 1, 2 }, { 256, 16, 2, 1 }, { 1, 1, 1, 1 },
	{ 2048, 64, 3, 7 }, { 2147483647, 2147483647, 65536, 1 },
};

/* xdlu reads 18 lines (pdluinfo.f); the values hetlaunch chose come back. */
static void lu_dat(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		const size_t *s = shapes[i];
		char *t = dat(HL_KERNEL_LU, s[0], s[1], s[2], s[3]);
		assert_int_equal(count_lines(t), 18);
		assert_int_equal(value_of(t, "values of M"), (long)s[0]);
		assert_int_equal(value_of(t, "values of N"), (long)s[0]);
		assert_int_equal(value_of(t, "values of NB"), (long)s[1]);
		assert_int_equal(value_of(t, "values of P"), (long)s[2]);
		assert_int_equal(value_of(t, "values of Q"), (long)s[3]);
		assert_int_equal(value_of(t, "values of NRHS"), 1);
		assert_int_equal(value_of(t, "values of NBRHS"), 1);
		assert_int_equal(value_of(t, "device out"), 6);
		assert_int_equal(value_of(t, "number of problems sizes"), 1);
		assert_int_equal(value_of(t, "number of process grids"), 1);
		assert_int_equal(value_of(t, "threshold"), 16);
		assert_non_null(strstr(t, "\nF\t"));     /* no cond. est. / iter. ref. */
		free(t);
	}
}

/* xdqr: 16 lines, one factorization, 'QR'. */
static void qr_dat(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		const size_t *s = shapes[i];
		char *t = dat(HL_KERNEL_QR, s[0], s[1], s[2], s[3]);
		assert_int_equal(count_lines(t), 16);
		assert_int_equal(value_of(t, "number of factorizations"), 1);
		assert_non_null(strstr(t, "\n'QR'\t"));
		assert_int_equal(value_of(t, "values of M"), (long)s[0]);
		assert_int_equal(value_of(t, "values of N"), (long)s[0]);
		assert_int_equal(value_of(t, "values of MB"), (long)s[1]);
		assert_int_equal(value_of(t, "values of NB"), (long)s[1]);
		assert_int_equal(value_of(t, "values of P"), (long)s[2]);
		assert_int_equal(value_of(t, "values of Q"), (long)s[3]);
		assert_int_equal(value_of(t, "device out"), 6);
		free(t);
	}
}

/* dpb3tim: 11 header lines, 5 option lines, M N K, 3 x 10 descriptor lines,
 * then 8 routine lines read with FORMAT(A7, L2): only PDGEMM is on. */
static void mm_dat(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		const size_t *s = shapes[i];
		char *t = dat(HL_KERNEL_MM, s[0], s[1], s[2], s[3]);
		assert_int_equal(count_lines(t), 11 + 5 + 3 + 30 + 8);
		assert_int_equal(value_of(t, "logical computational blocksize"), (long)s[1]);
		assert_int_equal(value_of(t, "values of P"), (long)s[2]);
		assert_int_equal(value_of(t, "values of Q"), (long)s[3]);
		assert_int_equal(value_of(t, "number of tests problems"), 1);
		static const char *const dims[] = {
			"values of M", "values of N", "values of K",
			"values of M_A", "values of N_A", "values of M_B",
			"values of N_B", "values of M_C", "values of N_C",
		};
		for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++)
			assert_int_equal(value_of(t, dims[d]), (long)s[0]);
		static const char *const blocks[] = { "IMB_", "INB_", "MB_", "NB_" };
		for (size_t b = 0; b < 4; b++)
			for (char x = 'A'; x <= 'C'; x++) {
				char key[32];
				snprintf(key, sizeof key, "values of %s%c", blocks[b], x);
				assert_int_equal(value_of(t, key), (long)s[1]);
			}
		assert_non_null(strstr(t, "\n'N'\t\tvalues of TRANSA"));
		assert_non_null(strstr(t, "\n'N'\t\tvalues of TRANSB"));
		assert_non_null(strstr(t, "\n0.0D0\t"));       /* BETA: C = A*B */
		const char *r = strstr(t, "\nPDGEMM");
		assert_non_null(r);
		r++;
		for (size_t j = 0; j < 8; j++) {
			assert_true(r[7] == ' ');
			assert_true(r[8] == (j == 0 ? 'T' : 'F'));
			assert_true(j != 0 || strncmp(r, "PDGEMM ", 7) == 0);
			r = strchr(r, '\n') + 1;
		}
		assert_int_equal(*r, '\0');
		free(t);
	}
}

static void dat_bad_args(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_int_equal(hl_tester_write_dat(HL_KERNEL_EXEC, 100, 10, 1, 1, f), -1);
	assert_int_equal(hl_tester_write_dat(HL_KERNEL_LU, 0, 10, 1, 1, f), -1);
	assert_int_equal(hl_tester_write_dat(HL_KERNEL_LU, 100, 0, 1, 1, f), -1);
	assert_int_equal(hl_tester_write_dat(HL_KERNEL_QR, 100, 10, 0, 1, f), -1);
	assert_int_equal(hl_tester_write_dat(HL_KERNEL_MM, 100, 10, 1, 0, f), -1);
	assert_int_equal(hl_tester_write_dat(HL_KERNEL_MM, (size_t)2147483648u, 10, 1, 1, f), -1);
	assert_int_equal(hl_tester_write_dat(HL_KERNEL_LU, 100, 10, 1, 1, NULL), -1);
	assert_int_equal(ftell(f), 0);                  /* nothing written */
	fclose(f);
	/* A stream that cannot be written. */
	FILE *ro = fopen("/dev/null", "r");
	assert_non_null(ro);
	assert_int_equal(hl_tester_write_dat(HL_KERNEL_LU, 100, 10, 1, 1, ro), -1);
	fclose(ro);
}

/* ---- results ------------------------------------------------------------ */

/* The WALL line of an lu or qr log, read independently with sscanf. */
typedef struct { size_t n, nb, p, q; double t, sol, mflops; char check[8]; } wall;

static wall wall_line(hl_kernel k, const char *log)
{
	wall w = { 0 };
	const char *l = strstr(log, "\nWALL ");
	assert_non_null(l);
	size_t m, nrhs, nbrhs, mb;
	if (k == HL_KERNEL_LU)
		assert_int_equal(sscanf(l, " WALL %zu %zu %zu %zu %zu %zu %zu %lf %lf %lf %7s",
		                        &m, &w.n, &w.nb, &nrhs, &nbrhs, &w.p, &w.q,
		                        &w.t, &w.sol, &w.mflops, w.check), 11);
	else
		assert_int_equal(sscanf(l, " WALL %zu %zu %zu %zu %zu %zu %lf %lf %7s",
		                        &m, &w.n, &mb, &w.nb, &w.p, &w.q, &w.t,
		                        &w.mflops, w.check), 9);
	return w;
}

static void check_against_wall(hl_kernel k, const char *name, int passed)
{
	char *log = slurp(name);
	wall w = wall_line(k, log);
	hl_results r;
	assert_int_equal(hl_tester_parse(k, log, &r), 0);
	assert_int_equal(r.nresults, 1);
	const hl_result *x = &r.results[0];
	assert_int_equal(x->n, w.n);
	assert_int_equal(x->nb, w.nb);
	assert_int_equal(x->nprow, w.p);
	assert_int_equal(x->npcol, w.q);
	assert_true(x->time == w.t);
	assert_true(x->sol_time == (k == HL_KERNEL_LU ? w.sol : 0));
	assert_true(fabs(x->gflops - w.mflops / 1000) < 1e-12);
	assert_string_equal(x->check, w.check);
	/* The operation counts: the tester computed MFLOPS from the unrounded
	 * time, so ours must round to the times it printed (2 decimals each),
	 * give or take the rounding of MFLOPS itself (2 decimals). */
	double printed = x->time + x->sol_time;
	double tol = (k == HL_KERNEL_LU ? 0.01 : 0.005) + x->rate_time * 0.005 / w.mflops;
	assert_true(fabs(x->rate_time - printed) <= tol + 1e-9);
	assert_int_equal(r.finished, 1);
	assert_null(r.error);
	assert_int_equal(r.nskipped, 0);
	assert_int_equal(r.passed, passed);
	assert_int_equal(r.npassed, passed ? 1 : 0);
	assert_int_equal(r.nfailed, passed ? 0 : 1);
	assert_int_equal(r.nunchecked, -1);
	hl_results_free(&r);
	free(log);
}

static void lu_passed(void **state)
{
	(void)state;
	check_against_wall(HL_KERNEL_LU, "lu-passed-1x2.txt", 1);
	check_against_wall(HL_KERNEL_LU, "lu-passed-2x1.txt", 1);
	/* 18 s (4 ranks busy-polling on 2 cores, nb 8): the only capture long
	 * enough for the 2 N^2 NRHS term of the count to show (0.3%). */
	check_against_wall(HL_KERNEL_LU, "lu-passed-2x2-slow.txt", 1);
	/* Spot check of the first one: 1 x 2, n 300, nb 32, PASSED. */
	hl_results r;
	parse_file(HL_KERNEL_LU, "lu-passed-1x2.txt", &r);
	assert_int_equal(r.results[0].n, 300);
	assert_int_equal(r.results[0].nprow, 1);
	assert_int_equal(r.results[0].npcol, 2);
	assert_string_equal(r.results[0].check, "PASSED");
	hl_results_free(&r);
}

static void qr_passed(void **state)
{
	(void)state;
	check_against_wall(HL_KERNEL_QR, "qr-passed-1x2.txt", 1);
	check_against_wall(HL_KERNEL_QR, "qr-passed-2x1.txt", 1);
}

static void lu_qr_failed(void **state)
{
	(void)state;
	check_against_wall(HL_KERNEL_LU, "lu-failed-edited.txt", 0);
	check_against_wall(HL_KERNEL_QR, "qr-failed-edited.txt", 0);
	/* Real failures: the same files with threshold 0. */
	check_against_wall(HL_KERNEL_LU, "lu-failed-thresh0.txt", 0);
	check_against_wall(HL_KERNEL_QR, "qr-failed-thresh0.txt", 0);
}

/* A negative threshold turns the checks off: BYPASS is not a pass. */
static void lu_bypass(void **state)
{
	(void)state;
	hl_results r;
	parse_file(HL_KERNEL_LU, "lu-bypass-thresh-neg.txt", &r);
	assert_int_equal(r.nresults, 1);
	assert_string_equal(r.results[0].check, "BYPASS");
	assert_int_equal(r.nunchecked, 1);
	assert_int_equal(r.npassed, -1);
	assert_int_equal(r.finished, 1);
	assert_int_equal(r.passed, 0);
	hl_results_free(&r);
}

/* The M N K line, A's NB and the grid come from the lines before. */
static void mm_passed(void **state)
{
	(void)state;
	static const struct { const char *file; size_t n, nb, p, q; } cases[] = {
		{ "mm-passed-1x2.txt", 300, 32, 1, 2 },
		{ "mm-passed-2x1.txt", 256, 16, 2, 1 },
		{ "mm-interleaved-edited.txt", 256, 16, 2, 1 },
	};
	for (size_t i = 0; i < 3; i++) {
		char *log = slurp(cases[i].file);
		double t, mflops;
		const char *l = strstr(log, "|  PDGEMM");
		assert_non_null(l);
		assert_int_equal(sscanf(l, "|  PDGEMM %lf %lf", &t, &mflops), 2);
		hl_results r;
		assert_int_equal(hl_tester_parse(HL_KERNEL_MM, log, &r), 0);
		assert_int_equal(r.nresults, 1);
		const hl_result *x = &r.results[0];
		assert_int_equal(x->n, cases[i].n);
		assert_int_equal(x->nb, cases[i].nb);
		assert_int_equal(x->nprow, cases[i].p);
		assert_int_equal(x->npcol, cases[i].q);
		assert_true(x->time == t);
		assert_true(fabs(x->gflops - mflops / 1000) < 1e-12);
		assert_string_equal(x->check, "");
		/* 2 n^3 flops: rounds to the printed 3-decimal time */
		double tol = 0.0005 + x->rate_time * 0.0005 / mflops;
		assert_true(fabs(x->rate_time - t) <= tol + 1e-9);
		assert_int_equal(r.npassed, -1);
		assert_int_equal(r.nfailed, -1);
		assert_int_equal(r.finished, 1);
		assert_null(r.error);
		assert_int_equal(r.passed, 1);
		hl_results_free(&r);
		free(log);
	}
}

/* Stray stderr lines, blank lines and "||" lines do not disturb a result;
 * a result line with stderr glued to it is lost, and that is a failure. */
static void interleaved(void **state)
{
	(void)state;
	hl_results clean, mixed, mangled;
	parse_file(HL_KERNEL_LU, "lu-passed-2x1.txt", &clean);
	parse_file(HL_KERNEL_LU, "lu-interleaved-edited.txt", &mixed);
	assert_int_equal(mixed.passed, 1);
	assert_int_equal(mixed.nresults, 1);
	assert_memory_equal(&mixed.results[0], &clean.results[0], sizeof(hl_result));
	parse_file(HL_KERNEL_LU, "lu-mangled-edited.txt", &mangled);
	assert_int_equal(mangled.nresults, 0);
	assert_int_equal(mangled.npassed, 1);      /* the summary still says so */
	assert_int_equal(mangled.passed, 0);
	hl_results_free(&clean);
	hl_results_free(&mixed);
	hl_results_free(&mangled);
}

/* A rank died after the result line: no summary, no end marker. */
static void truncated(void **state)
{
	(void)state;
	hl_results r;
	parse_file(HL_KERNEL_LU, "lu-truncated-edited.txt", &r);
	assert_int_equal(r.nresults, 1);
	assert_string_equal(r.results[0].check, "PASSED");
	assert_int_equal(r.finished, 0);
	assert_int_equal(r.npassed, -1);
	assert_non_null(r.error);
	assert_non_null(strstr(r.error, "BAD TERMINATION"));
	assert_int_equal(r.passed, 0);
	hl_results_free(&r);
	/* The same without MPI's banner: still not a pass. */
	char *log = slurp("lu-passed-1x2.txt");
	*strstr(log, "\nFinished") = '\0';
	assert_int_equal(hl_tester_parse(HL_KERNEL_LU, log, &r), 0);
	assert_int_equal(r.nresults, 1);
	assert_null(r.error);
	assert_int_equal(r.passed, 0);
	hl_results_free(&r);
	free(log);
}

static void no_dat(void **state)
{
	(void)state;
	hl_results r;
	parse_file(HL_KERNEL_LU, "lu-no-dat.txt", &r);
	assert_int_equal(r.nresults, 0);
	assert_int_equal(r.finished, 0);
	assert_non_null(r.error);
	assert_non_null(strstr(r.error, "Cannot open file 'LU.dat'"));
	assert_int_equal(r.passed, 0);
	hl_results_free(&r);
}

/* ---- memory ------------------------------------------------------------- */

/* The problem hetlaunch asked for, from the echo of the .dat's line 2. */
static void asked(const char *log, size_t *n, size_t *nb, size_t *p, size_t *q)
{
	const char *l = strstr(log, "'hetlaunch: ");
	assert_non_null(l);
	l = strchr(l, ',');
	assert_int_equal(sscanf(l, ", n %zu, nb %zu, %zu x %zu grid", n, nb, p, q), 4);
}

/*
 * Skipped for memory: the tester printed what it needed.  xdqr and dpb3tim
 * test once, xdlu twice (factorization, then solve); ours is the larger, so
 * it equals a "solve" message and exceeds a "factorization" one.
 */
static void memory_skips(void **state)
{
	(void)state;
	static const struct { hl_kernel k; const char *file, *marker; int stage1; } cases[] = {
		{ HL_KERNEL_LU, "lu-skipped-memory.txt", "need TOTMEM of at least", 1 },
		{ HL_KERNEL_LU, "lu-skipped-solve-memory.txt", "need TOTMEM of at least", 0 },
		{ HL_KERNEL_QR, "qr-skipped-memory.txt", "need TOTMEM of at least", 0 },
		{ HL_KERNEL_QR, "qr-skipped-memory-2x1.txt", "need TOTMEM of at least", 0 },
		{ HL_KERNEL_MM, "mm-skipped-memory.txt", "Need:", 0 },
		{ HL_KERNEL_MM, "mm-skipped-memory-2x1.txt", "Need:", 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *log = slurp(cases[i].file);
		hl_results r;
		assert_int_equal(hl_tester_parse(cases[i].k, log, &r), 0);
		assert_int_equal(r.nresults, 0);
		assert_int_equal(r.passed, 0);
		assert_int_equal(r.finished, 1);
		assert_int_equal(r.nskipped, cases[i].k == HL_KERNEL_MM ? -1 : 1);
		assert_non_null(r.error);
		const char *m = strstr(r.error, cases[i].marker);
		assert_non_null(m);
		size_t printed = strtoul(m + strlen(cases[i].marker), NULL, 10);
		size_t n, nb, p, q;
		asked(log, &n, &nb, &p, &q);
		size_t need = hl_tester_mem_need(cases[i].k, n, nb, p, q);
		if (cases[i].stage1)
			assert_true(need > printed);
		else
			assert_int_equal(need, printed);
		assert_true(need > hl_tester_mem_limit(cases[i].k));
		hl_results_free(&r);
		free(log);
	}
}

/*
 * The largest n that ran, with nb = 32 on 1 x 2 and 2 x 1, found by running
 * the real testers at n and n + 1 (n + 1 was skipped for memory; dpb3tim
 * at n = 400 on 1 x 2 needs exactly its 2000000 bytes).
 */
static void memory_boundary(void **state)
{
	(void)state;
	static const struct { hl_kernel k; size_t p, q, nmax; } cases[] = {
		{ HL_KERNEL_LU, 1, 2, 919 }, { HL_KERNEL_LU, 2, 1, 910 },
		{ HL_KERNEL_QR, 1, 2, 600 }, { HL_KERNEL_QR, 2, 1, 600 },
		{ HL_KERNEL_MM, 1, 2, 400 }, { HL_KERNEL_MM, 2, 1, 400 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		hl_kernel k = cases[i].k;
		size_t lim = hl_tester_mem_limit(k), n = cases[i].nmax;
		assert_true(hl_tester_mem_need(k, n, 32, cases[i].p, cases[i].q) <= lim);
		assert_true(hl_tester_mem_need(k, n + 1, 32, cases[i].p, cases[i].q) > lim);
	}
	assert_int_equal(hl_tester_mem_need(HL_KERNEL_MM, 400, 32, 1, 2), 2000000);
	assert_int_equal(hl_tester_mem_need(HL_KERNEL_LU, 0, 32, 1, 2), 0);
	/* More processes, smaller pieces: a 2 x 2 grid holds what 1 x 2 cannot. */
	assert_true(hl_tester_mem_need(HL_KERNEL_LU, 1000, 32, 2, 2) <
	            hl_tester_mem_limit(HL_KERNEL_LU));
}

/* ---- robustness --------------------------------------------------------- */

static char *replace(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	assert_non_null(at);
	size_t a = (size_t)(at - s), lf = strlen(from), lt = strlen(to);
	char *r = malloc(strlen(s) - lf + lt + 1);
	assert_non_null(r);
	memcpy(r, s, a);
	memcpy(r + a, to, lt);
	strcpy(r + a + lt, at + lf);
	return r;
}

/* A field too narrow for its value prints as asterisks (F8.2 MFLOPS at
 * 100 GFLOPS and up): the result stands, its rate is unknown.  An
 * unreadable order n drops the line. */
static void overflowed_fields(void **state)
{
	(void)state;
	char *log = slurp("lu-passed-1x2.txt");
	char *stars = replace(log, "  189.95 PASSED", "******** PASSED");
	hl_results r;
	assert_int_equal(hl_tester_parse(HL_KERNEL_LU, stars, &r), 0);
	assert_int_equal(r.nresults, 1);
	assert_true(isnan(r.results[0].gflops));
	assert_true(isnan(r.results[0].rate_time));
	assert_true(r.results[0].time == 0.10);
	assert_int_equal(r.passed, 1);
	hl_results_free(&r);
	char *badn = replace(log, "WALL   300   300", "WALL   300 *****");
	assert_int_equal(hl_tester_parse(HL_KERNEL_LU, badn, &r), 0);
	assert_int_equal(r.nresults, 0);
	assert_int_equal(r.passed, 0);
	hl_results_free(&r);
	free(stars);
	free(badn);
	free(log);
}

/* CRLF line ends, no final newline, and the wrong kernel. */
static void line_ends_and_kernels(void **state)
{
	(void)state;
	char *log = slurp("qr-passed-2x1.txt");
	size_t n = strlen(log), lines = count_lines(log);
	char *crlf = malloc(n + lines + 1), *o = crlf;
	assert_non_null(crlf);
	for (const char *s = log; *s; s++) {
		if (*s == '\n')
			*o++ = '\r';
		*o++ = *s;
	}
	*o = '\0';
	hl_results r;
	assert_int_equal(hl_tester_parse(HL_KERNEL_QR, crlf, &r), 0);
	assert_int_equal(r.passed, 1);
	hl_results_free(&r);
	while (n && log[n - 1] == '\n')
		log[--n] = '\0';
	assert_int_equal(hl_tester_parse(HL_KERNEL_QR, log, &r), 0);
	assert_int_equal(r.passed, 1);
	assert_int_equal(r.finished, 1);
	hl_results_free(&r);
	/* A QR log read as LU or MM has no result of that shape. */
	assert_int_equal(hl_tester_parse(HL_KERNEL_LU, log, &r), 0);
	assert_int_equal(r.nresults, 0);
	assert_int_equal(r.passed, 0);
	hl_results_free(&r);
	assert_int_equal(hl_tester_parse(HL_KERNEL_MM, log, &r), 0);
	assert_int_equal(r.nresults, 0);
	assert_int_equal(r.passed, 0);
	hl_results_free(&r);
	free(crlf);
	free(log);
}

static void parse_bad_args(void **state)
{
	(void)state;
	hl_results r;
	assert_int_equal(hl_tester_parse(HL_KERNEL_LU, NULL, &r), -1);
	assert_int_equal(r.nresults, 0);
	assert_int_equal(r.passed, 0);
	assert_int_equal(hl_tester_parse(HL_KERNEL_EXEC, "END OF TESTS.\n", &r), -1);
	assert_int_equal(hl_tester_parse(HL_KERNEL_LU, "", NULL), -1);
	assert_int_equal(hl_tester_parse(HL_KERNEL_LU, "", &r), 0);
	assert_int_equal(r.passed, 0);
	assert_int_equal(r.npassed, -1);
	hl_results_free(&r);
	hl_results_free(&r);                        /* twice is harmless */
	hl_results_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(programs),
		cmocka_unit_test(lu_dat),
		cmocka_unit_test(qr_dat),
		cmocka_unit_test(mm_dat),
		cmocka_unit_test(dat_bad_args),
		cmocka_unit_test(lu_passed),
		cmocka_unit_test(qr_passed),
		cmocka_unit_test(lu_qr_failed),
		cmocka_unit_test(lu_bypass),
		cmocka_unit_test(mm_passed),
		cmocka_unit_test(interleaved),
		cmocka_unit_test(truncated),
		cmocka_unit_test(no_dat),
		cmocka_unit_test(memory_skips),
		cmocka_unit_test(memory_boundary),
		cmocka_unit_test(overflowed_fields),
		cmocka_unit_test(line_ends_and_kernels),
		cmocka_unit_test(parse_bad_args),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
