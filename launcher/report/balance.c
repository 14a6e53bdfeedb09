/*
 * balance.c -- compare's balance picture (issue 10): per machine, the time
 * its processes computed against the time they waited, the cyclic run
 * beside the plan.  It is the picture of paper 000 s3's argument: with one
 * process per machine the fast machines wait for the slow one; the plan
 * gives them more processes, hence more columns, and less waiting.
 *
 * Each bar is the MEAN over the machine's processes (they share its
 * processor, so a sum would count the same seconds several times): the
 * whole bar is compute + wait of a process, the dark part its compute.
 * gnuplot draws it; balance.dat and balance.gp stay beside the PNG so the
 * user can redraw it.  Written atomically: gnuplot writes a temporary
 * file, renamed over balance.png (rename never follows a symlink).
 */
#define _GNU_SOURCE
#include "balance.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsutil.h"

/* Mean compute and wait of machine m's ranks in run r; 0 ranks: -1. */
static int machine_mean(const hl_run *r, size_t m, double *comp, double *wait)
{
	size_t cnt = 0;
	*comp = *wait = 0.0;
	for (size_t k = 0; r->rank_machine && k < r->nranks && k < r->results.nranks; k++)
		if (r->rank_machine[k] == m) {
			*comp += r->results.ranks[k].compute;
			*wait += r->results.ranks[k].wait;
			cnt++;
		}
	if (cnt == 0)
		return -1;
	*comp /= (double)cnt;
	*wait /= (double)cnt;
	return 0;
}

typedef struct {
	const hl_config *cfg;
	const hl_run *cyc, *het;
	const char *png_tmp;
} balance_ctx;

/* One row per machine: x, name, cyclic compute, cyclic total, hetero
 * compute, hetero total ("NaN" where a run had no process there). */
static int fill_dat(FILE *f, void *arg)
{
	const balance_ctx *c = arg;
	fprintf(f, "# x machine cyclic_compute cyclic_total hetero_compute hetero_total (s)\n");
	for (size_t m = 0; m < c->cfg->nmachines; m++) {
		double cc, cw, hc, hw;
		int cok = machine_mean(c->cyc, m, &cc, &cw) == 0;
		int hok = machine_mean(c->het, m, &hc, &hw) == 0;
		fprintf(f, "%zu %s", m, c->cfg->machines[m].name);
		if (cok)
			fprintf(f, " %.6f %.6f", cc, cc + cw);
		else
			fprintf(f, " NaN NaN");
		if (hok)
			fprintf(f, " %.6f %.6f\n", hc, hc + hw);
		else
			fprintf(f, " NaN NaN\n");
	}
	return ferror(f) ? -1 : 0;
}

static int fill_gp(FILE *f, void *arg)
{
	const balance_ctx *c = arg;
	fprintf(f, "# balance.gp -- redraw with: gnuplot balance.gp (in this directory)\n");
	fprintf(f, "set terminal pngcairo size 900,500 noenhanced\n"
	           "set output '%s'\n", c->png_tmp);
	fprintf(f, "set title '%s: mean per process of each machine, cyclic (left) and hetero "
	           "(right)'\n", c->cfg->name);
	fputs("set ylabel 'seconds'\n"
	      "set style fill solid 1.0 border -1\n"
	      "set boxwidth 0.35\n"
	      "set yrange [0:*]\n"
	      "set key outside right top\n"
	      "set xtics rotate by -30\n"
	      "plot 'balance.dat' using ($1-0.19):4:xtic(2) with boxes lc rgb '#a6c8ff' title 'cyclic: waiting', \\\n"
	      "     '' using ($1-0.19):3 with boxes lc rgb '#1f5fbf' title 'cyclic: compute', \\\n"
	      "     '' using ($1+0.19):6 with boxes lc rgb '#ffd0a0' title 'hetero: waiting', \\\n"
	      "     '' using ($1+0.19):5 with boxes lc rgb '#d9731a' title 'hetero: compute'\n",
	      f);
	return ferror(f) ? -1 : 0;
}

/* gnuplot balance.gp in dir: fork and exec, no shell (launcher/launch/spawn.c's
 * rule), its output discarded.  Returns 0, 1 if gnuplot is not installed,
 * -1 if it failed. */
static int run_gnuplot(const char *dir)
{
	char *argv[] = { "gnuplot", "balance.gp", NULL };
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (chdir(dir) == 0)
			execvp(argv[0], argv);
		_exit(errno == ENOENT ? 127 : 126);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return 1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int hl_balance_png(const char *dir, const hl_config *cfg, const hl_run *cyc, const hl_run *het,
                   char *msg, size_t len)
{
	if (cyc->results.nranks == 0 || het->results.nranks == 0) {
		snprintf(msg, len, "no balance.png: the program printed no per-rank times");
		return 1;
	}
	char tmpname[64], path[PATH_MAX + 64], err[512];
	snprintf(tmpname, sizeof tmpname, ".balance-%ld.png", (long)getpid());
	balance_ctx c = { cfg, cyc, het, tmpname };
	snprintf(path, sizeof path, "%s/balance.dat", dir);
	int rc = hl_write_atomic(path, fill_dat, &c, err, sizeof err);
	snprintf(path, sizeof path, "%s/balance.gp", dir);
	if (rc == 0)
		rc = hl_write_atomic(path, fill_gp, &c, err, sizeof err);
	if (rc < 0) {
		snprintf(msg, len, "no balance.png: %s", err);
		return -1;
	}
	char tmp[PATH_MAX + 64], png[PATH_MAX + 64];
	snprintf(tmp, sizeof tmp, "%s/%s", dir, tmpname);
	snprintf(png, sizeof png, "%s/balance.png", dir);
	unlink(tmp);   /* a leftover (or a planted symlink) of the same name */
	int g = run_gnuplot(dir);
	if (g == 1) {
		snprintf(msg, len, "no balance.png: gnuplot is not installed (Debian: gnuplot-nox)");
		return 1;
	}
	struct stat st;
	if (g < 0 || lstat(tmp, &st) != 0 || !S_ISREG(st.st_mode)) {
		unlink(tmp);
		snprintf(msg, len, "no balance.png: gnuplot failed (redraw: cd %s && gnuplot balance.gp)",
		         dir);
		return -1;
	}
	if (rename(tmp, png) != 0) {
		snprintf(msg, len, "no balance.png: %s: %s", png, strerror(errno));
		unlink(tmp);
		return -1;
	}
	snprintf(msg, len, "balance picture: %s", png);
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
		jw_key(w, "speedup"); jw_num(w, tc > 0 && th > 0 ? tc / th : 0.0);
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
		        tc > 0 && th > 0 ? tc / th : 0.0);
	}
}
