/*
 * balance.c -- compare's balance picture: per machine, the time
 * its processes computed against the time they waited, the cyclic run
 * beside the plan.  It is the picture of paper 000 s3's argument: with one
 * process per machine the fast machines wait for the slow one; the plan
 * gives them more processes, hence more columns, and less waiting.
 *
 * Each bar is the MEAN over the machine's processes (they share its
 * processor, so a sum would count the same seconds several times): the
 * whole bar is compute + wait of a process, the dark part its compute.
 * gnuplot draws it; balance.dat and balance.gp stay beside the PNG so the
 * user can redraw it.  gnuplot itself reads neither: its script, data
 * inline, comes on its stdin from memory and its PNG goes to its stdout
 * (a script swapped in the run directory could run commands through
 * gnuplot's system(), a link planted at its output would be written
 * through); hetlaunch writes the PNG atomically, never through a link
 * (fsutil.c).  gnuplot has a time limit and dies with hetlaunch.
 */
#define _GNU_SOURCE
#include "balance.h"
#include "util/rundir.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "launch/hostfile.h"
#include "launch/spawn.h"

/* Bar b of the picture: its machines' processes in run i summed in. */
static void add_run(hl_balance_bar *bars, const size_t *bar_of, const hl_balance_run *r, int i)
{
	for (size_t k = 0; r->machine && r->times && k < r->nranks; k++) {
		hl_balance_bar *b = &bars[bar_of[r->machine[k]]];
		b->procs[i]++;
		b->compute[i] += r->times[k].compute;
		b->total[i] += r->times[k].compute + r->times[k].wait;
	}
}

/* "name:C/H" (processes in the cyclic and the planned run), "name:dropped"
 * when the plan gives it none; a host's bar says how many machines it is. */
static void label_bar(hl_balance_bar *b, const char *name, size_t machines)
{
	char what[24];
	if (machines > 1)
		snprintf(what, sizeof what, "[%zu]", machines);
	else
		what[0] = '\0';
	if (b->procs[1] == 0)
		snprintf(b->label, sizeof b->label, "%.60s%s:dropped", name, what);
	else
		snprintf(b->label, sizeof b->label, "%.60s%s:%zu/%zu", name, what, b->procs[0],
		         b->procs[1]);
	for (size_t i = 0; i < 2; i++) {
		b->compute[i] = b->procs[i] ? b->compute[i] / (double)b->procs[i] : NAN;
		b->total[i] = b->procs[i] ? b->total[i] / (double)b->procs[i] : NAN;
	}
}

size_t hl_balance_bars(const hl_config *cfg, const hl_balance_run run[2], hl_balance_bar **out)
{
	size_t N = cfg->nmachines, nbars = N;
	size_t *bar_of = malloc((N ? N : 1) * sizeof *bar_of);
	*out = NULL;
	if (bar_of == NULL)
		return (size_t)-1;
	/* Over HL_BALANCE_BY_HOST machines the bars are hosts: 288 bars of
	 * cores cannot be read, a bar per node can. */
	if (N > HL_BALANCE_BY_HOST)
		nbars = hl_host_groups(cfg, bar_of);
	else
		for (size_t m = 0; m < N; m++)
			bar_of[m] = m;
	hl_balance_bar *bars = nbars == (size_t)-1 ? NULL : calloc(nbars ? nbars : 1, sizeof *bars);
	size_t *machines = bars ? calloc(nbars ? nbars : 1, sizeof *machines) : NULL;
	const char **name = machines ? calloc(nbars ? nbars : 1, sizeof *name) : NULL;
	if (name != NULL) {
		for (size_t m = 0; m < N; m++) {
			machines[bar_of[m]]++;
			if (name[bar_of[m]] == NULL)
				name[bar_of[m]] = N > HL_BALANCE_BY_HOST ? cfg->machines[m].host
				                                         : cfg->machines[m].name;
		}
		add_run(bars, bar_of, &run[0], 0);
		add_run(bars, bar_of, &run[1], 1);
		for (size_t b = 0; b < nbars; b++)
			label_bar(&bars[b], name[b], machines[b]);
		*out = bars;
	} else {
		free(bars);
		nbars = (size_t)-1;
	}
	free(name);
	free(machines);
	free(bar_of);
	return nbars;
}

typedef struct {
	const hl_config *cfg;
	const hl_run *cyc, *het;
	const char *png;         /* what fill_png writes */
	size_t png_len;
	hl_balance_bar *bars;
	size_t nbars;
} balance_ctx;

/* One row per bar: x, label, cyclic compute, cyclic total, hetero compute,
 * hetero total ("NaN" where a run had no process there). */
static void rows(FILE *f, const balance_ctx *c)
{
	for (size_t b = 0; b < c->nbars; b++) {
		const hl_balance_bar *x = &c->bars[b];
		fprintf(f, "%zu %s", b, x->label);
		for (int i = 0; i < 2; i++)
			if (x->procs[i])
				fprintf(f, " %.6f %.6f", x->compute[i], x->total[i]);
			else
				fprintf(f, " NaN NaN");
		fputc('\n', f);
	}
}

static int fill_dat(FILE *f, void *arg)
{
	fprintf(f, "# x machine:cyclic/hetero_processes (host[machines]: when by host) cyclic_compute "
	        "cyclic_total hetero_compute hetero_total (s)\n");
	rows(f, arg);
	return ferror(f) ? -1 : 0;
}

/* s in a gnuplot single-quoted string: '' for ', no control character. */
static void gp_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("''", f);
		else
			fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
	fputc('\'', f);
}

/*
 * The title, three short lines (one long line overflowed a 900-pixel
 * picture on both sides): the run's name, what a bar's height is, and
 * what its label says.  A bar is per process, not per machine, so that a
 * machine running 4 processes on one processor is read the same way as one
 * running 1: each process's seconds, averaged over the machine's.
 */
void hl_balance_gp_title(FILE *f, const hl_config *cfg)
{
	const char *what = cfg->nmachines > HL_BALANCE_BY_HOST ? "host" : "machine";
	char line[3][120];
	snprintf(line[0], sizeof line[0], "a bar: a process's seconds computing (dark) and "
	         "waiting (light),");
	snprintf(line[1], sizeof line[1], "the mean over the %s's processes; cyclic left, "
	         "hetero right", what);
	snprintf(line[2], sizeof line[2], "label: %s:processes cyclic/hetero",
	         cfg->nmachines > HL_BALANCE_BY_HOST ? "host[machines]" : "machine");
	fputs("set title ", f);
	gp_quoted(f, cfg->name);
	for (int k = 0; k < 3; k++) {
		fputs(" . \"\\n\" . ", f);
		gp_quoted(f, line[k]);
	}
	fputc('\n', f);
}

/* The picture's commands after `set output`, plotting src. */
static void gp_plot(FILE *f, const balance_ctx *c, const char *src)
{
	hl_balance_gp_title(f, c->cfg);
	fprintf(f, "set ylabel 'seconds'\n"
	        "set style fill solid 1.0 border -1\n"
	        "set boxwidth 0.35\n"
	        "set yrange [0:*]\n"
	        "set key outside right top\n"
	        "set xtics rotate by -30\n"
	        "plot %s using ($1-0.19):4:xtic(2) with boxes lc rgb '#a6c8ff' title 'cyclic: waiting', \\\n"
	        "     '' using ($1-0.19):3 with boxes lc rgb '#1f5fbf' title 'cyclic: computing', \\\n"
	        "     '' using ($1+0.19):6 with boxes lc rgb '#ffd0a0' title 'hetero: waiting', \\\n"
	        "     '' using ($1+0.19):5 with boxes lc rgb '#d9731a' title 'hetero: computing'\n",
	        src);
}

#define GP_TERMINAL "set terminal pngcairo size 900,500 noenhanced\n"

/* balance.gp, for the user to redraw: balance.dat into balance.png. */
static int fill_gp(FILE *f, void *arg)
{
	fprintf(f, "# balance.gp -- redraw with: gnuplot balance.gp (in this directory)\n");
	fputs(GP_TERMINAL "set output 'balance.png'\n", f);
	gp_plot(f, arg, "'balance.dat'");
	return ferror(f) ? -1 : 0;
}

/* What gnuplot is given on its stdin: the data inline, the PNG to its
 * stdout.  It reads no file and writes none: nothing in the run directory
 * (which others may write to) can be swapped under it.  NULL: no memory. */
static char *gp_script(const balance_ctx *c, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (f == NULL)
		return NULL;
	fputs(GP_TERMINAL "set output\n$balance << EOD\n", f);
	rows(f, c);
	fputs("EOD\n", f);
	gp_plot(f, c, "$balance");
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int fill_png(FILE *f, void *arg)
{
	const balance_ctx *c = arg;
	return fwrite(c->png, 1, c->png_len, f) == c->png_len ? 0 : -1;
}

#define GNUPLOT_TIMEOUT_S 10.0    /* a bar chart takes well under a second */
#define GNUPLOT_MAX_PNG (64u << 20)

/* gnuplot, no shell (launcher/spawn.c's rule), the script on its stdin;
 * its PNG replaces balance.png atomically.  Returns 0, or 1 / -1 with the
 * reason in msg. */
static int draw(const char *dir, balance_ctx *c, char *msg, size_t len)
{
	char *argv[] = { "gnuplot", NULL }, *png = NULL, path[PATH_MAX + 64], err[512];
	size_t slen, plen;
	char *script = gp_script(c, &slen);
	int g = script ? hl_spawn_filter(argv, script, slen, GNUPLOT_MAX_PNG, GNUPLOT_TIMEOUT_S,
	                                 &png, &plen) : -1;
	free(script);
	snprintf(path, sizeof path, "%s/" HL_RD_BALANCE_PNG, dir);
	c->png = png;
	c->png_len = plen;
	int rc = -1;
	if (g == 1)
		snprintf(msg, len, "no balance.png: gnuplot is not installed (Debian: gnuplot-nox)");
	else if (g == -2)
		snprintf(msg, len, "no balance.png: gnuplot took longer than %g s or wrote too much (redraw: cd %s && "
		         "gnuplot balance.gp)", GNUPLOT_TIMEOUT_S, dir);
	else if (g < 0 || plen < 8 || memcmp(png, "\x89PNG", 4) != 0)
		snprintf(msg, len, "no balance.png: gnuplot failed (redraw: cd %s && gnuplot balance.gp)",
		         dir);
	else if (hl_write_atomic(path, fill_png, c, err, sizeof err) < 0)
		snprintf(msg, len, "no balance.png: %s", err);
	else
		rc = 0;
	free(png);
	return g == 1 ? 1 : rc;
}

int hl_balance_png(const char *dir, const hl_config *cfg, const hl_run *cyc, const hl_run *het,
                   char *msg, size_t len)
{
	if (cyc->results.nranks == 0 || het->results.nranks == 0) {
		const hl_run *r = cyc->results.nranks == 0 ? cyc : het;
		snprintf(msg, len, "no balance.png: no per-rank times: %s",
		         r->ranks_missing[0] ? r->ranks_missing : "the program printed none");
		return 1;
	}
	char path[PATH_MAX + 64], err[512] = "out of memory";
	balance_ctx c = { cfg, cyc, het, NULL, 0, NULL, 0 };
	const hl_balance_run runs[2] = {
		{ cyc->rank_machine, cyc->results.ranks, cyc->nranks < cyc->results.nranks
		                                          ? cyc->nranks : cyc->results.nranks },
		{ het->rank_machine, het->results.ranks, het->nranks < het->results.nranks
		                                          ? het->nranks : het->results.nranks },
	};
	c.nbars = hl_balance_bars(cfg, runs, &c.bars);
	int rc = c.nbars == (size_t)-1 ? -1 : 0;
	snprintf(path, sizeof path, "%s/" HL_RD_BALANCE_DAT, dir);
	if (rc == 0)
		rc = hl_write_atomic(path, fill_dat, &c, err, sizeof err);
	snprintf(path, sizeof path, "%s/" HL_RD_BALANCE_GP, dir);
	if (rc == 0)
		rc = hl_write_atomic(path, fill_gp, &c, err, sizeof err);
	if (rc < 0) {
		snprintf(msg, len, "no balance.png: %s", err);
		free(c.bars);
		return -1;
	}
	rc = draw(dir, &c, msg, len);
	free(c.bars);
	if (rc != 0)
		return rc;
	snprintf(msg, len, "balance picture: %s/balance.png", dir);
	return 0;
}

/* ---- compare per size ------------------------------------------------- */

static double result_time(const hl_result *r)
{
	return r->rate_time > 0 ? r->rate_time : r->time;
}

/* The baseline's result of order n, or NULL. */
static const hl_result *find_n(const hl_run *r, size_t n)
{
	for (size_t i = 0; i < r->results.nresults; i++)
		if (r->results.results[i].n == n)
			return &r->results.results[i];
	return NULL;
}

int hl_run_same_clock(const hl_run *a, const hl_run *b)
{
	return strcmp(a->time_clock ? a->time_clock : "wall",
	              b->time_clock ? b->time_clock : "wall") == 0;
}

void hl_compare_sizes_json(jw *w, const hl_run *cyc, const hl_run *het)
{
	jw_key(w, "sizes");
	jw_arr(w);
	for (size_t i = 0; i < het->results.nresults; i++) {
		const hl_result *h = &het->results.results[i], *c = find_n(cyc, h->n);
		if (c == NULL)
			continue;
		double tc = result_time(c), th = result_time(h);
		jw_obj(w);
		jw_key(w, "n"); jw_uint(w, h->n);
		jw_key(w, "cyclic"); jw_num(w, tc);
		jw_key(w, "hetero"); jw_num(w, th);
		jw_key(w, "speedup");
		jw_num(w, tc > 0 && th > 0 && hl_run_same_clock(cyc, het) ? tc / th : 0.0);
		jw_end(w);
	}
	jw_end(w);
}

void hl_compare_sizes_print(const hl_run *cyc, const hl_run *het, FILE *f)
{
	for (size_t i = 0; i < het->results.nresults; i++) {
		const hl_result *h = &het->results.results[i], *c = find_n(cyc, h->n);
		if (c == NULL)
			continue;
		double tc = result_time(c), th = result_time(h);
		fprintf(f, "  n %zu: cyclic %.3f s, hetero %.3f s: speedup %.2f\n", h->n, tc, th,
		        tc > 0 && th > 0 && hl_run_same_clock(cyc, het) ? tc / th : 0.0);
	}
}
