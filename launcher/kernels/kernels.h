/*
 * kernels.h -- the kernels hetlaunch runs, as ONE table: adding a
 * kernel adds a row here and its own files, not branches in config.c,
 * plan.c or run.c.  A row says what the kernel is called in the YAML file,
 * which program runs it by default, how that program is told the problem,
 * how much memory a process needs, and how its output is read.
 *
 *   kernel  tester  program                      input   result lines
 *   lu      driver  lib/hetlaunch/hl-driver      argv    hetlaunch-result
 *   qr      driver  lib/hetlaunch/hl-driver      argv    hetlaunch-result
 *   chol    driver  lib/hetlaunch/hl-driver      argv    hetlaunch-result
 *   mm      driver  lib/hetlaunch/hl-driver      argv    hetlaunch-result
 *   lu      stock   xdlu                         LU.dat  testers.c
 *   qr      stock   xdqr                         QR.dat  testers.c
 *   mm      stock   PBLAS/TIMING/dpb3tim         PDBLAS3TIM.dat  testers.c
 *   exec    -       program:                     args:   hetlaunch-result if
 *                                                        any, else wall time
 *   ring    driver  lib/hetlaunch/hl-ring        plan    layout_ring.c (layout: ring)
 *   mw      driver  lib/hetlaunch/hl-mw          plan    hetlaunch-result (layout: master-worker)
 *   mmm     driver  lib/hetlaunch/hl-mmm         plan    hetlaunch-result (layout: columns)
 *   hpl     -       /usr/bin/hpcc (Open MPI)     hpccinf.txt  hpccoutf.txt (hpl.c)
 *
 * A kernel that only one layout can feed (ring) names it; its arguments come
 * from that layout's plan (hl_layout_ops.kernel_args) and its log is read by
 * its own parser.
 */
#ifndef HL_KERNELS_H
#define HL_KERNELS_H

#include <stddef.h>

typedef enum {
	HL_KERNEL_LU, HL_KERNEL_QR, HL_KERNEL_CHOL, HL_KERNEL_MM, HL_KERNEL_EXEC,
	HL_KERNEL_RING, HL_KERNEL_MW, HL_KERNEL_MMM, HL_KERNEL_HPL
} hl_kernel;

typedef enum {
	HL_INPUT_ARGS,   /* the program's own args: (exec) */
	HL_INPUT_DAT,    /* an input file in the run directory (stock testers) */
	HL_INPUT_ARGV,   /* KERNEL NB P Q N... on the command line (hl-driver) */
	HL_INPUT_PLAN,   /* what the layout's plan says (hl_layout_ops.kernel_args) */
	HL_INPUT_HPCC    /* hpccinf.txt in the run directory, every size in it (hpl.h) */
} hl_input;

struct hl_results;

typedef struct {
	const char *name;        /* kernel: NAME */
	hl_kernel id;
	int stock;               /* 1: the row of `tester: stock` */
	/* The default program: an absolute path, or a path under the
	 * installation (beside bin/, see hl_beside_binary); NULL: program:. */
	const char *program;
	int beside_binary;
	hl_input input;
	/* Bytes per process of an n x n problem on a p x q grid (process
	 * (0,0), which holds the most); NULL: unknown (exec). */
	size_t (*mem_need)(hl_kernel k, size_t n, size_t nb, size_t p, size_t q);
	size_t mem_limit;        /* a fixed array in the program; 0: it allocates */
	/* Read the job's log into *out (cleared first); 0, or -1 when out of
	 * memory.  out->passed is the verdict. */
	int (*parse)(hl_kernel k, const char *log, struct hl_results *out);
	const char *layout;      /* the only layout that runs it; NULL: any dense one */
	const char *env;         /* overrides the program's path; NULL: HETLAUNCH_DRIVER */
	/* 1: every block is updated to the end (a product), so the order of a
	 * slice or panel does not change the balance and the dense layouts
	 * group each machine's processes (vproc_pattern_group); 0: LU, QR and
	 * Cholesky shrink, 000 s3.4's order stands. */
	int order_free;
	/* A file the program writes its results into, in its working
	 * directory (hpcc: hpccoutf.txt, which it appends to): removed before
	 * the job, read (after the log) by parse; NULL: the log only. */
	const char *output;
	/* 1: the default program is linked with Open MPI (Debian's hpcc):
	 * mpi: openmpi is implied and the program runs as it is. */
	int openmpi;
	/* 1: under compute: skip the default program branches on no value it
	 * receives in a large message (hl-driver: the BLAS that would read
	 * them are not run, and the pivots and norms ScaLAPACK branches on
	 * come from the runtime's PDAMAX and PDNRM2, bindings/pblas.c), so
	 * its large sends from folded memory go out empty
	 * (VR_FLAG_DATA_UNREAD).  0: HPL sends its pivots inside its panel,
	 * and a user's program may read anything. */
	int data_unread;
} hl_kernel_def;

/* The row for kernel NAME (stock: tester: stock), or NULL. */
const hl_kernel_def *hl_kernel_find(const char *name, int stock);
/* The row of a kernel id; never NULL for a valid id. */
const hl_kernel_def *hl_kernel_row(hl_kernel k, int stock);
/* "lu, qr, chol, mm, exec": for error messages. */
const char *hl_kernel_names(void);
const char *hl_kernel_name(hl_kernel k);

/*
 * hl_kernel_program -- the program to start: program if given, else the
 * row's default (resolved beside the binary).  Returns 0, or -1 with a
 * message in err.
 */
int hl_kernel_program(const hl_kernel_def *row, const char *program, char *out, size_t len,
                      char *err, size_t errlen);

/*
 * hl_kernel_args -- the program's arguments for a problem list on a
 * nprow x npcol grid: a NULL-terminated array (free with hl_kernel_args_free),
 * or NULL when out of memory.  exec: args as given.
 */
char **hl_kernel_args(const hl_kernel_def *row, char *const *args, size_t nargs,
                      const size_t *sizes, size_t nsizes, size_t nb, size_t nprow,
                      size_t npcol);
void hl_kernel_args_free(char **v);

/*
 * hl_driver_parse -- the lines of launcher/programs/hlmpi.h (hetlaunch-result,
 * hetlaunch-rank) in a log.  passed = at least one result and every one
 * passed=1.  A user's exec program may print them too.
 */
int hl_driver_parse(hl_kernel k, const char *log, struct hl_results *out);

#endif
