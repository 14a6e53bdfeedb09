/*
 * harness.c -- experiments/: the report of an id and its files (harness.h).
 */
#include "harness.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "util/json.h"

/* ---- failures and strings ---------------------------------------------- */

void die(const char *what, const char *detail)
{
	fprintf(stderr, "repro: %s: %s\n", what, detail);
	exit(1);
}

void must(vproc_status st, const char *what)
{
	if (st != VPROC_OK)
		die(what, vproc_strerror(st));
}

void sb_vprintf(sbuf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		die("format", fmt);
	size_t need = b->len + (size_t)n + 1;
	if (need > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < need)
			cap *= 2;
		char *s = realloc(b->s, cap);
		if (s == NULL)
			die("memory", strerror(ENOMEM));
		b->s = s;
		b->cap = cap;
	}
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

__attribute__((format(printf, 2, 3)))
void sb_printf(sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(b, fmt, ap);
	va_end(ap);
}

/* The buffer's string, which the caller now owns ("" when empty). */
char *sb_take(sbuf *b)
{
	if (b->s == NULL)
		sb_printf(b, "%s", "");
	char *s = b->s;
	*b = (sbuf){ 0 };
	return s;
}

__attribute__((format(printf, 1, 2)))
char *fmt(const char *f, ...)
{
	sbuf b = { 0 };
	va_list ap;
	va_start(ap, f);
	sb_vprintf(&b, f, ap);
	va_end(ap);
	return sb_take(&b);
}

/* A JSON number: integers plainly, others with 10 significant digits. */
void sb_num(sbuf *b, double x)
{
	if (!isfinite(x))
		sb_printf(b, "null");
	else if (x == floor(x) && fabs(x) < 1e15)
		sb_printf(b, "%.0f", x);
	else
		sb_printf(b, "%.10g", x);
}

char *jnum(double x)
{
	sbuf b = { 0 };
	sb_num(&b, x);
	return sb_take(&b);
}

/* A printed value: the paper's decimals exactly. */
char *jdec(double x, int dec)
{
	return fmt("%.*f", dec, x);
}

/* An array of numbers; dec < 0 prints ours in full, dec >= 0 a paper's. */
char *jnums(const double *v, size_t n, int dec)
{
	sbuf b = { 0 };
	sb_printf(&b, "[");
	for (size_t k = 0; k < n; k++) {
		if (k)
			sb_printf(&b, ",");
		if (dec < 0)
			sb_num(&b, v[k]);
		else
			sb_printf(&b, "%.*f", dec, v[k]);
	}
	sb_printf(&b, "]");
	return sb_take(&b);
}

/* p rows of q numbers. */
char *jmatrix(const double *v, size_t p, size_t q, int dec)
{
	sbuf b = { 0 };
	sb_printf(&b, "[");
	for (size_t i = 0; i < p; i++) {
		char *row = jnums(v + i * q, q, dec);
		sb_printf(&b, "%s%s", i ? "," : "", row);
		free(row);
	}
	sb_printf(&b, "]");
	return sb_take(&b);
}

/* Counts or indices, plus base (1 for the papers' 1-based numbering). */
char *jsizes(const size_t *v, size_t n, size_t base)
{
	sbuf b = { 0 };
	sb_printf(&b, "[");
	for (size_t k = 0; k < n; k++)
		sb_printf(&b, "%s%zu", k ? "," : "", v[k] + base);
	sb_printf(&b, "]");
	return sb_take(&b);
}

/* names[idx[k]] for k < n (idx NULL: names[k]). */
char *jnames(const char *const *names, const size_t *idx, size_t n)
{
	sbuf b = { 0 };
	sb_printf(&b, "[");
	for (size_t k = 0; k < n; k++)
		sb_printf(&b, "%s\"%s\"", k ? "," : "", names[idx ? idx[k] : k]);
	sb_printf(&b, "]");
	return sb_take(&b);
}

int printed_all(const double *ours, const double *paper, size_t n, int dec)
{
	for (size_t k = 0; k < n; k++)
		if (!matches_printed(ours[k], paper[k], dec))
			return 0;
	return 1;
}

int sizes_equal(const size_t *a, const size_t *b, size_t n, size_t base)
{
	for (size_t k = 0; k < n; k++)
		if (a[k] + base != b[k])
			return 0;
	return 1;
}

/* ---- a report: rows of (label, paper, ours, match) --------------------- */

/* Add a row; takes ownership of paper and ours. */
void add(report *r, const char *label, char *paper, char *ours, int match)
{
	if (r->nrows == sizeof r->rows / sizeof r->rows[0])
		die(r->spec->id, "too many rows");
	r->rows[r->nrows++] = (report_row){ fmt("%s", label), paper, ours, paper ? match : -1 };
}

void add_num(report *r, const char *label, double paper, int dec, double ours)
{
	add(r, label, jdec(paper, dec), jnum(ours), matches_printed(ours, paper, dec));
}

void add_ours(report *r, const char *label, char *ours)
{
	add(r, label, NULL, ours, -1);
}

void note(report *r, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	if (r->note.len)
		sb_printf(&r->note, " ");
	sb_vprintf(&r->note, f, ap);
	va_end(ap);
}

/* 1 all paper rows match, 0 one does not, -1 no paper row. */
static int report_match(const report *r)
{
	int any = 0;
	for (size_t k = 0; k < r->nrows; k++) {
		if (r->rows[k].match < 0)
			continue;
		any = 1;
		if (r->rows[k].match == 0)
			return 0;
	}
	return any ? 1 : -1;
}

const char *ex_prog = "repro";

static const char *status_word(const report *r)
{
	int m = report_match(r);
	if (m < 0)
		return "none";
	if (m)
		return "match";
	return r->spec->expected_mismatch ? "expected" : "mismatch";
}

static char *report_md(const report *r)
{
	static const char *mark[] = { "no", "yes" };
	const char *st = status_word(r);
	sbuf b = { 0 };
	sb_printf(&b, "### %s: %s\n\n", r->spec->id, r->spec->title);
	sb_printf(&b, "Result: **%s**%s.  Command: `experiments/run%s %s` (runs "
	          "`%s%s --out experiments/results/ids %s`).\n\n",
	          strcmp(st, "expected") == 0 ? "mismatch (expected, explained below)"
	          : strcmp(st, "none") == 0 ? "no paper value (beyond the papers)" : st,
	          r->quick ? ", quick mode" : "", r->quick ? " --quick" : "", r->spec->id, ex_prog,
	          r->quick ? " --quick" : "", r->spec->id);
	sb_printf(&b, "| | paper | ours | match |\n|---|---|---|:-:|\n");
	for (size_t k = 0; k < r->nrows; k++) {
		const report_row *w = &r->rows[k];
		sb_printf(&b, "| %s | %s%s%s | `%s` | %s |\n", w->label, w->paper ? "`" : "",
		          w->paper ? w->paper : "", w->paper ? "`" : "", w->ours,
		          w->match < 0 ? "" : mark[w->match]);
	}
	if (r->md.len)
		sb_printf(&b, "\n%s", r->md.s);
	if (r->note.len)
		sb_printf(&b, "\nNote: %s\n", r->note.s);
	sb_printf(&b, "\n");
	return sb_take(&b);
}

static void report_free(report *r)
{
	for (size_t k = 0; k < r->nrows; k++) {
		free(r->rows[k].label);
		free(r->rows[k].paper);
		free(r->rows[k].ours);
	}
	free(r->note.s);
	free(r->md.s);
	free(r->dat.s);
}


/* ---- the files of an id ------------------------------------------------------ */

/* {label: value, ...} of the rows that have one (paper or ours), or null. */
static void json_rows(jw *w, const report *r, int paper)
{
	int any = 0;
	for (size_t k = 0; k < r->nrows; k++) {
		const char *v = paper ? r->rows[k].paper : r->rows[k].ours;
		if (v == NULL)
			continue;
		if (!any++)
			jw_obj(w);
		jw_key(w, r->rows[k].label);
		jw_raw(w, v);
	}
	if (any)
		jw_end(w);
	else
		jw_null(w);
}

/* ID.json: the summary.json entry {id, paper, ours, match, note
 * [, expected_mismatch]}. */
static int fill_json(FILE *f, void *arg)
{
	const report *r = arg;
	int m = report_match(r);
	jw w;
	jw_init(&w, f);
	jw_obj(&w);
	jw_key(&w, "id"); jw_str(&w, r->spec->id);
	jw_key(&w, "paper"); json_rows(&w, r, 1);
	jw_key(&w, "ours"); json_rows(&w, r, 0);
	jw_key(&w, "match");
	if (m < 0)
		jw_null(&w);
	else
		jw_bool(&w, m);
	jw_key(&w, "note"); jw_str(&w, r->note.s ? r->note.s : "");
	if (m == 0 && r->spec->expected_mismatch) {
		jw_key(&w, "expected_mismatch");
		jw_bool(&w, 1);
	}
	jw_end(&w);
	jw_done(&w);
	return 0;
}

static int fill_text(FILE *f, void *arg)
{
	return fputs(arg, f) < 0;
}

static void write_file(const char *dir, const char *id, const char *ext,
                       int (*fill)(FILE *, void *), void *arg)
{
	char err[512];
	char *path = fmt("%s/%s.%s", dir, id, ext);
	if (hl_write_atomic(path, fill, arg, err, sizeof err) < 0)
		die(path, err);
	free(path);
}

void ex_run_id(const struct idspec *spec, int quick, const char *dir)
{
	printf("start %s\n", spec->id);
	fflush(stdout);
	report r = { .spec = spec, .quick = quick };
	spec->run(&r);
	char *md = report_md(&r);
	write_file(dir, spec->id, "json", fill_json, &r);
	write_file(dir, spec->id, "md", fill_text, md);
	if (r.dat.len)
		write_file(dir, spec->id, "dat", fill_text, r.dat.s);
	printf("done %s %s\n", spec->id, status_word(&r));
	fflush(stdout);
	free(md);
	report_free(&r);
}
