/*
 * harness.h -- experiments/: what every paper's ids share.
 *
 * An id is one function that recomputes a table or a figure of a paper
 * with libvproc and fills a report: rows of (label, the paper's value, ours,
 * match), a note, markdown for REPRODUCTION.md and gnuplot data.  The
 * harness turns it into DIR/ID.json (the summary.json entry, written with
 * the project's JSON writer, launcher/util/json.c), DIR/ID.md and DIR/ID.dat,
 * each written atomically (launcher/util/fsutil.c).
 *
 * A paper's ids live in experiments/<paper>/ids.c as one ex_paper table;
 * experiments/repro.c lists the tables; experiments/run lists the ids in
 * report order (REGISTRY) and checks that both agree.
 *
 * A value matches when rounding or truncating ours to the decimals the
 * paper prints gives the printed figure (tests/common/paper.h: the papers do both).
 */
#ifndef EX_HARNESS_H
#define EX_HARNESS_H

#include <stdarg.h>
#include <stddef.h>

#include "paper.h"
#include "planner/planner.h"

/* ---- failures: a library call or a write that fails ends repro (exit 1) */
void die(const char *what, const char *detail) __attribute__((noreturn));
void must(vproc_status st, const char *what);

/* ---- independent samples over processes (parallel.c) ----------------------
 * fn(i, slot, arg) for i = 0 .. count - 1, each writing its result (size
 * bytes, no pointers) to out + i * size, spread over EXP_JOBS worker
 * processes (default: the online processors, at most 8).  The slots come
 * back in index order, so a caller that reduces them in that order gets a
 * serial run's numbers.  A worker that fails ends repro (exit 1). */
void ex_parallel(size_t count, size_t size, void (*fn)(size_t i, void *slot, void *arg),
                 void *arg, void *out);

/* ---- growing strings ------------------------------------------------------ */
typedef struct {
	char *s;
	size_t len, cap;
} sbuf;

void sb_vprintf(sbuf *b, const char *fmt, va_list ap);
void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sb_take(sbuf *b);                      /* the string; b is empty again */
char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));

/* ---- JSON values as text (a row's paper and ours) ---------------------------- */
void sb_num(sbuf *b, double x);              /* integers plainly, else 10 digits */
char *jnum(double x);
char *jdec(double x, int dec);               /* a printed value: the paper's decimals */
char *jnums(const double *v, size_t n, int dec);        /* dec < 0: ours in full */
char *jmatrix(const double *v, size_t p, size_t q, int dec);
char *jsizes(const size_t *v, size_t n, size_t base);   /* + base (1: 1-based) */
char *jnames(const char *const *names, const size_t *idx, size_t n);
int printed_all(const double *ours, const double *paper, size_t n, int dec);
int sizes_equal(const size_t *a, const size_t *b, size_t n, size_t base);

/* ---- a report --------------------------------------------------------------- */
typedef struct {
	char *label;
	char *paper;   /* JSON, NULL: no paper value (a row of ours only) */
	char *ours;    /* JSON */
	int match;     /* 1, 0; -1 when paper is NULL */
} report_row;

struct idspec;

typedef struct {
	const struct idspec *spec;
	int quick;
	report_row rows[48];
	size_t nrows;
	sbuf note;   /* why ours differs, what was computed how */
	sbuf md;     /* markdown after the table (drawings, per-n tables, plots) */
	sbuf dat;    /* gnuplot data, for the plotted figures */
} report;

struct idspec {
	const char *id;
	const char *title;
	int expected_mismatch;   /* the note explains a known mismatch */
	void (*run)(report *);
};

/* Add a row; takes ownership of paper and ours. */
void add(report *r, const char *label, char *paper, char *ours, int match);
void add_num(report *r, const char *label, double paper, int dec, double ours);
void add_ours(report *r, const char *label, char *ours);
void note(report *r, const char *f, ...) __attribute__((format(printf, 2, 3)));

/* ---- a paper's ids ---------------------------------------------------------- */
typedef struct {
	const char *paper;            /* "000", "002", ... */
	const struct idspec *ids;
	size_t n;
	void (*cleanup)(void);        /* after the last id (NULL: none) */
} ex_paper;

/* Run one id and write DIR/ID.{json,md[,dat]}; prints "start ID" and
 * "done ID STATUS" on stdout for experiments/run's progress lines. */
void ex_run_id(const struct idspec *spec, int quick, const char *dir);

/* argv[0], for the command shown in the markdown. */
extern const char *ex_prog;

#endif
