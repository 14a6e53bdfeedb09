/*
 * testers.h -- Debian's stock, unmodified ScaLAPACK testers (package
 * scalapack-mpi-test, MPICH build): where they are, the input file each one
 * reads from its working directory, and what they print.
 *
 *   kernel  program                    reads            times
 *   lu      xdlu                       LU.dat           PDGETRF (+ PDGETRS)
 *   qr      xdqr                       QR.dat           PDGEQRF
 *   mm      PBLAS/TIMING/dpb3tim       PDBLAS3TIM.dat   PDGEMM
 *
 * The formats were read off the drivers (TESTING/LIN/pdludriver.f,
 * pdqrdriver.f, PBLAS/TIMING/pdblas3tim.f) and checked against real runs;
 * tests/data/ holds captured outputs.
 */
#ifndef HL_TESTERS_H
#define HL_TESTERS_H

#include <stddef.h>
#include <stdio.h>

#include "kernels.h"

#ifndef HL_TESTER_DIR
#define HL_TESTER_DIR "/usr/lib/x86_64-linux-gnu/scalapack/mpich-tests"
#endif

/* The default program of kernel k, and the file name it reads from its
 * working directory; NULL for HL_KERNEL_EXEC (and out-of-range k). */
const char *hl_tester_program(hl_kernel k);
const char *hl_tester_dat_name(hl_kernel k);

/*
 * hl_tester_write_dat -- write the input file of ONE square problem of order
 * n, block size nb (nb x nb blocks), on ONE nprow x npcol grid, to f.
 * lu: M = N = n, NRHS = NBRHS = 1, residual threshold 16, no condition
 * estimation / iterative refinement.  qr: the QR factorization only,
 * MB = NB = nb.  mm: PDGEMM only, C = A*B with A, B, C n x n, 'N','N'.
 * Output goes to device 6 (stdout).  Returns 0, or -1 if k is exec or out of
 * range, an argument is 0 or does not fit a Fortran INTEGER, or writing f
 * failed (ferror).
 */
int hl_tester_write_dat(hl_kernel k, size_t n, size_t nb, size_t nprow,
                        size_t npcol, FILE *f);

/*
 * Each tester works inside one static array (TOTMEM bytes per process,
 * fixed at compile time) and skips a problem that does not fit, printing
 * "need TOTMEM of at least X" (lu, qr) or "Not enough memory. Need: X" (mm).
 * hl_tester_mem_need is that X for the files hl_tester_write_dat writes
 * (process (0,0), which holds the most, with the padding the residual
 * checks add); hl_tester_mem_limit is TOTMEM.  A problem runs iff
 * need <= limit.  Both 0 for exec.  Lets a caller refuse a problem before
 * starting MPI.
 */
size_t hl_tester_mem_limit(hl_kernel k);
size_t hl_tester_mem_need(hl_kernel k, size_t n, size_t nb, size_t nprow,
                          size_t npcol);

/* One timed problem, as the tester printed it on its WALL line. */
typedef struct {
	size_t n, nb, nprow, npcol;
	double time;      /* s: LU Time (lu), Fact Time (qr), WALL time (mm);
	                   * printed with 2 (lu, qr) or 3 (mm) decimals */
	double sol_time;  /* s: lu's Sol Time (PDGETRS); 0 for qr and mm */
	double gflops;    /* the tester's MFLOPS / 1000; lu's covers factor +
	                   * solve.  NAN when the field overflowed ("****") */
	double rate_time; /* s: the tester's own operation count / its MFLOPS,
	                   * i.e. the unrounded time it measured (lu: factor +
	                   * solve).  More digits than `time`; NAN if unknown */
	char check[8];    /* "PASSED", "FAILED", "BYPASS"; "" for mm (the PBLAS
	                   * timer checks no residual) */
	char routine[24]; /* hl-driver: e.g. "PDGETRF+PDGETRS"; "" otherwise */
	double residual;  /* hl-driver: the scaled residual; NAN if unknown */
	int wall;         /* 1: no result line, time is the job's wall time */
	int span;         /* 1: no result line, time is the largest rank's
	                   * MPI_Init to MPI_Finalize on the virtual clock */
} hl_result;

/* One rank's compute and wait seconds (hl-driver's hetlaunch-rank lines),
 * summed over the problems of the job. */
typedef struct {
	size_t rank;
	double compute, wait;
} hl_rank_time;

typedef struct hl_results {
	hl_result *results;  /* in the order printed */
	size_t nresults;
	/* The summary ("N tests completed and passed residual checks." ...);
	 * -1 when the tester did not print that line (mm prints none). */
	long npassed, nfailed, nskipped, nunchecked;
	int finished;        /* the tester printed its end marker */
	char *error;         /* the first error line it printed (memory, bad
	                      * input, INFO != 0, Fortran/MPI abort), or NULL */
	int error_is_check;  /* 1: error is a residual check's FAILED line, which
	                      * means nothing when the BLAS did not run */
	int passed;          /* see hl_tester_parse */
	hl_rank_time *ranks; /* by rank, from hetlaunch-rank lines; NULL if none */
	size_t nranks;
} hl_results;

/*
 * hl_tester_parse -- read a tester's whole log (stdout, possibly with stderr
 * interleaved line by line) and fill *out (which it first clears; free it
 * with hl_results_free even on error).  Only lines of the exact expected
 * shape count, so stray stderr lines, blank lines and the "||...||"
 * residual lines are skipped; a result line mangled by interleaving is lost,
 * which can only turn a pass into a failure.
 *
 * passed = at least one result, the end marker seen, no error line, no
 * failed or skipped count, and for lu/qr every result "PASSED" (mm: every
 * result has a time).  Returns 0 (whatever the verdict), -1 on bad
 * arguments (NULL, exec kernel) or out of memory.
 */
int hl_tester_parse(hl_kernel k, const char *log, hl_results *out);
void hl_results_init(hl_results *r);
void hl_results_free(hl_results *r);

#endif
