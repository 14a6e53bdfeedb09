/*
 * trace.c -- see trace.h.  A part (written by the runtime at MPI_Finalize,
 * or at exit) is text: a header of "key value" lines, then "events N" and
 * N lines "START COMPUTE WAIT CALL" in ns on the rank's clock (virtual, or
 * CLOCK_MONOTONIC).  A part that does not read to its end is taken as
 * absent: a rank killed while writing it.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fsutil.h"
#include "util/rundir.h"
#include "trace.h"

typedef struct {
	unsigned long long start, compute, wait;
	char call[32];
} tr_event;

typedef struct {
	int present, finalized, virtual_clock;
	char host[256];              /* its real clock is this host's */
	unsigned long long origin;   /* ns on that clock at ts 0 */
	unsigned long long resolution_ns, segments, merged;
	size_t n;
	tr_event *ev;
} tr_part;

static int part_name(const char *name, unsigned *rank)
{
	char tail;
	return sscanf(name, "trace-%u.par%c", rank, &tail) == 2 && tail == 't' &&
	       strlen(strchr(name, '.')) == 5;
}

void hl_trace_clean(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned rank;
	while (d && (de = readdir(d)) != NULL)
		if (part_name(de->d_name, &rank))
			unlinkat(dirfd(d), de->d_name, 0);   /* a link itself, never its target */
	if (d)
		closedir(d);
}

/* An MPI call's name as the runtime wrote it: a C identifier, else "wait". */
static void clean_call(char *call)
{
	for (char *p = call; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_') {
			strcpy(call, "wait");
			return;
		}
	if (strcmp(call, "-") == 0 || call[0] == '\0')
		strcpy(call, "wait");
}

static int read_header(FILE *f, tr_part *p, size_t rank)
{
	unsigned long long r, size;
	char clock[16];
	if (fscanf(f, "hetlaunch-trace 1 rank %llu %llu clock %15s finalized %d host %255s", &r,
	           &size, clock, &p->finalized, p->host) != 5 || r != rank)
		return -1;
	p->virtual_clock = strcmp(clock, "virtual") == 0;
	return fscanf(f, " resolution_ns %llu segments %llu merged %llu events %zu",
	              &p->resolution_ns, &p->segments, &p->merged, &p->n) == 4 ? 0 : -1;
}

static int read_events(FILE *f, tr_part *p)
{
	if (p->n > 10000000 || (p->ev = calloc(p->n ? p->n : 1, sizeof *p->ev)) == NULL)
		return -1;
	for (size_t i = 0; i < p->n; i++) {
		tr_event *e = &p->ev[i];
		if (fscanf(f, "%llu %llu %llu %31s", &e->start, &e->compute, &e->wait, e->call) != 4)
			return -1;
		clean_call(e->call);
	}
	return 0;
}

/* dir/trace-RANK.part into *p (p->present 0 when absent or cut). */
static void read_part(const char *dir, size_t rank, tr_part *p)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/trace-%zu.part", dir, rank);
	memset(p, 0, sizeof *p);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (f == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	p->present = read_header(f, p, rank) == 0 && read_events(f, p) == 0;
	fclose(f);
	if (!p->present) {
		free(p->ev);
		memset(p, 0, sizeof *p);
	}
}

typedef struct {
	const hl_config *cfg;
	const size_t *rank_machine;
	size_t nranks;
	tr_part *parts;
	int virtual_clock;
	hl_trace_info *info;
	char *named;                 /* [nmachines]: its process_name is out */
} tr_ctx;

/* The names of the tracks: a process per machine, a thread per rank. */
static void metadata(jw *w, const tr_ctx *c, size_t k)
{
	const char *machine = c->cfg->machines[c->rank_machine[k]].name;
	char name[300];
	for (int thread = c->named[c->rank_machine[k]]; thread < 2; thread++) {
		jw_obj(w);
		jw_key(w, "name"); jw_str(w, thread ? "thread_name" : "process_name");
		jw_key(w, "ph"); jw_str(w, "M");
		jw_key(w, "pid"); jw_uint(w, c->rank_machine[k] + 1);
		jw_key(w, "tid"); jw_uint(w, k + 1);
		if (thread)
			snprintf(name, sizeof name, "rank %zu (%s)", k, machine);
		else
			snprintf(name, sizeof name, "machine %s", machine);
		jw_key(w, "args"); jw_obj(w); jw_key(w, "name"); jw_str(w, name); jw_end(w);
		jw_end(w);
	}
	c->named[c->rank_machine[k]] = 1;
}

static void us(char *buf, size_t len, unsigned long long ns)
{
	snprintf(buf, len, "%llu.%03llu", ns / 1000, ns % 1000);
}

/* One complete event ("ph": "X") on one line: named after what dominates
 * it, with both shares when it merged compute and wait. */
static void event(jw *w, const tr_ctx *c, size_t k, const tr_event *e)
{
	char line[512], ts[32], dur[32], cu[32], wu[32], args[128] = "";
	int wait = e->wait > e->compute;
	unsigned long long origin = c->parts[k].origin;
	us(ts, sizeof ts, e->start > origin ? e->start - origin : 0);
	us(dur, sizeof dur, e->compute + e->wait);
	if (e->compute && e->wait) {
		us(cu, sizeof cu, e->compute);
		us(wu, sizeof wu, e->wait);
		snprintf(args, sizeof args, ",\"args\":{\"compute_us\":%s,\"wait_us\":%s}", cu, wu);
	}
	snprintf(line, sizeof line, "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%s,"
	         "\"dur\":%s,\"pid\":%zu,\"tid\":%zu%s}", wait ? e->call : "compute",
	         wait ? "wait" : "compute", ts, dur, c->rank_machine[k] + 1, k + 1, args);
	jw_raw(w, line);
}

/* The counts trace.json's otherData and report.json's trace both give. */
static void trace_counts(jw *w, const hl_trace_info *in)
{
	jw_key(w, "ranks_unfinalized"); jw_uint(w, in->unfinalized);
	jw_key(w, "events"); jw_uint(w, in->events);
	jw_key(w, "segments"); jw_uint(w, in->segments);
	jw_key(w, "merged"); jw_uint(w, in->merged);
	jw_key(w, "resolution_us"); jw_num(w, in->resolution_us);
}

static void other_data(jw *w, const tr_ctx *c)
{
	const hl_trace_info *in = c->info;
	jw_key(w, "otherData");
	jw_obj(w);
	jw_key(w, "clock"); jw_str(w, c->virtual_clock ? "virtual" : "real");
	jw_key(w, "origin");
	jw_str(w, c->virtual_clock ? "virtual time 0"
	                           : "the first MPI_Init of the rank's host (its CLOCK_MONOTONIC)");
	jw_key(w, "ranks"); jw_uint(w, c->nranks);
	jw_key(w, "ranks_traced"); jw_uint(w, in->ranks);
	jw_key(w, "ranks_missing"); jw_arr_inline(w);
	for (size_t k = 0; k < c->nranks; k++)
		if (!c->parts[k].present)
			jw_uint(w, k);
	jw_end(w);
	trace_counts(w, in);
	jw_end(w);
}

static int fill_trace(FILE *f, void *arg)
{
	const tr_ctx *c = arg;
	jw w;
	jw_init(&w, f);
	jw_obj(&w);
	jw_key(&w, "traceEvents");
	jw_arr(&w);
	for (size_t k = 0; k < c->nranks; k++) {
		metadata(&w, c, k);
		for (size_t i = 0; i < c->parts[k].n; i++)
			event(&w, c, k, &c->parts[k].ev[i]);
	}
	jw_end(&w);
	jw_key(&w, "displayTimeUnit"); jw_str(&w, "ms");
	other_data(&w, c);
	jw_end(&w);
	jw_done(&w);
	return 0;
}

/* ts 0 of each part: virtual time 0, or under the real clock the earliest
 * first event of the ranks of its host (hosts' clocks differ). */
static void origins(tr_ctx *c)
{
	for (size_t k = 0; k < c->nranks; k++) {
		tr_part *p = &c->parts[k];
		p->origin = c->virtual_clock || !p->n ? 0 : p->ev[0].start;
		for (size_t i = 0; !c->virtual_clock && p->n && i < c->nranks; i++) {
			const tr_part *q = &c->parts[i];
			if (q->n && q->ev[0].start < p->origin && strcmp(q->host, p->host) == 0)
				p->origin = q->ev[0].start;
		}
	}
}

/* The totals over the parts. */
static void summarize(tr_ctx *c)
{
	hl_trace_info *in = c->info;
	for (size_t k = 0; k < c->nranks; k++) {
		const tr_part *p = &c->parts[k];
		if (!p->present)
			continue;
		in->ranks++;
		in->unfinalized += !p->finalized;
		in->events += p->n;
		in->segments += p->segments;
		in->merged += p->merged;
		if ((double)p->resolution_ns * 1e-3 > in->resolution_us)
			in->resolution_us = (double)p->resolution_ns * 1e-3;
	}
	origins(c);
}

int hl_trace_write(const char *dir, const hl_config *cfg, const size_t *rank_machine,
                   size_t nranks, hl_trace_info *info, char *err, size_t errlen)
{
	memset(info, 0, sizeof *info);
	tr_ctx c = { cfg, rank_machine, nranks, calloc(nranks ? nranks : 1, sizeof *c.parts),
	             cfg->emulate && cfg->emu.virtual_clock, info, calloc(cfg->nmachines + 1, 1) };
	if (c.parts == NULL || c.named == NULL) {
		free(c.parts);
		free(c.named);
		snprintf(err, errlen, "%s/" HL_RD_TRACE ": out of memory", dir);
		return -1;
	}
	for (size_t k = 0; k < nranks; k++)
		read_part(dir, k, &c.parts[k]);
	summarize(&c);
	char path[4200];
	snprintf(path, sizeof path, "%s/" HL_RD_TRACE, dir);
	int rc = hl_write_atomic(path, fill_trace, &c, err, errlen);
	info->written = rc == 0;
	for (size_t k = 0; k < nranks; k++)
		free(c.parts[k].ev);
	free(c.parts);
	free(c.named);
	if (rc == 0)
		hl_trace_clean(dir);
	return rc;
}

void hl_trace_report(jw *w, const hl_trace_info *info)
{
	jw_key(w, "trace");
	if (!info->written) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_key(w, "file"); jw_str(w, HL_RD_TRACE);
	jw_key(w, "ranks"); jw_uint(w, info->ranks);
	trace_counts(w, info);
	jw_end(w);
}
