/*
 * joblog.c -- the job's output: see joblog.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "joblog.h"
#include "util/now.h"

#define SHOWN_CAP (2 * HL_LINE_CAP)

int hl_joblog_open(hl_joblog *l, const char *path, int echo, char *err, size_t errlen)
{
	memset(l, 0, sizeof *l);
	l->path = path;
	l->echo = echo;
	l->fd = -1;
	if (unlink(path) < 0 && errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	l->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	l->line = malloc(HL_LINE_CAP);
	if (l->fd < 0 || l->line == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(l->fd < 0 ? errno : ENOMEM));
		if (l->fd >= 0)
			close(l->fd);
		free(l->line);
		return -1;
	}
	return 0;
}

/* Into log.txt, all of it; a full disk is said once, and the job goes on
 * (its results are still read from memory; run.c fails the run). */
static void write_log(hl_joblog *l, const char *s, size_t n)
{
	while (n > 0 && l->err == 0) {
		ssize_t w = write(l->fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			l->err = errno;
			fprintf(stderr, "hetlaunch: %s: %s: the rest of the job's output is not saved\n",
			        l->path, strerror(errno));
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

/* To the tail; past twice its cap, the oldest lines go (amortized: each
 * byte is moved at most once per HL_TAIL_CAP bytes added). */
static void keep_tail(hl_joblog *l, const char *s, size_t n)
{
	size_t cap = 2 * (size_t)HL_TAIL_CAP + HL_LINE_CAP + 1;
	if (l->tail == NULL && (l->tail = malloc(cap)) == NULL) {
		l->dropped++;
		return;
	}
	if (l->tlen + n > cap) {
		const char *from = l->tail + (l->tlen - HL_TAIL_CAP);
		const char *nl = memchr(from, '\n', HL_TAIL_CAP);
		size_t start = nl ? (size_t)(nl + 1 - l->tail) : l->tlen;
		for (const char *p = l->tail; (p = memchr(p, '\n', start - (size_t)(p - l->tail)));
		     p++)
			l->dropped++;
		memmove(l->tail, l->tail + start, l->tlen - start);
		l->tlen -= start;
	}
	memcpy(l->tail + l->tlen, s, n);
	l->tlen += n;
}

/* One line (cut at the cap), with its newline when it had one. */
static void keep_line(hl_joblog *l, int newline)
{
	size_t n = l->llen + (newline ? 1 : 0);
	if (newline)
		l->line[l->llen] = '\n';   /* the buffer has room: llen < HL_LINE_CAP */
	if (!l->in_tail && l->head == NULL)
		l->head = malloc(HL_HEAD_CAP);
	if (!l->in_tail && l->head && l->hlen + n <= HL_HEAD_CAP) {
		memcpy(l->head + l->hlen, l->line, n);
		l->hlen += n;
		return;
	}
	l->in_tail = 1;
	keep_tail(l, l->line, n);
}

/* The echo so far, in one write (stderr is unbuffered: a write per line
 * of a program that prints millions of short lines is what costs). */
static void flush_shown(hl_joblog *l)
{
	if (l->slen > 0 && fwrite(l->shown, 1, l->slen, stderr) != l->slen) {
		/* stderr gone: nothing to say it on */
	}
	l->slen = 0;
}

/* The current line, with the time since the start, into the echo. */
static void show_line(hl_joblog *l)
{
	if (l->shown == NULL && (l->shown = malloc(SHOWN_CAP)) == NULL)
		return;
	if (l->slen + l->llen + 128 > SHOWN_CAP)
		flush_shown(l);
	int k = snprintf(l->shown + l->slen, 32, "[%7.1fs] ", hl_now() - l->t0);
	l->slen += k > 0 && k < 32 ? (size_t)k : 0;
	memcpy(l->shown + l->slen, l->line, l->llen);
	l->slen += l->llen;
	if (l->cut)
		l->slen += (size_t)snprintf(l->shown + l->slen, 96, " [hetlaunch: %llu more bytes "
		                            "of this line in log.txt]", l->cut);
	l->shown[l->slen++] = '\n';
}

static void end_line(hl_joblog *l, int newline)
{
	if (l->echo)
		show_line(l);
	keep_line(l, newline);
	l->llen = 0;
	l->cut = 0;
}

/* Bytes of the current line: up to the cap (one byte left for its
 * newline), the rest only counted. */
static void add_to_line(hl_joblog *l, const char *s, size_t n)
{
	size_t room = HL_LINE_CAP - 1 - l->llen;
	size_t take = n < room ? n : room;
	memcpy(l->line + l->llen, s, take);
	l->llen += take;
	l->cut += n - take;
}

void hl_joblog_add(hl_joblog *l, const char *s, size_t n)
{
	write_log(l, s, n);
	while (n > 0) {
		const char *nl = memchr(s, '\n', n);
		size_t len = nl ? (size_t)(nl - s) : n;
		add_to_line(l, s, len);
		if (nl == NULL)
			break;
		end_line(l, 1);
		s += len + 1;
		n -= len + 1;
	}
	flush_shown(l);
}

int hl_joblog_close(hl_joblog *l, char **kept)
{
	if (l->llen > 0 || l->cut > 0)
		end_line(l, 0);
	flush_shown(l);
	if (close(l->fd) < 0 && l->err == 0)
		l->err = errno;
	char gap[128] = "";
	if (l->dropped)
		snprintf(gap, sizeof gap, "[hetlaunch: %llu lines left out here; log.txt has them "
		         "all]\n", l->dropped);
	size_t g = strlen(gap);
	char *out = malloc(l->hlen + g + l->tlen + 1);
	if (out) {
		memcpy(out, l->head ? l->head : "", l->hlen);
		memcpy(out + l->hlen, gap, g);
		memcpy(out + l->hlen + g, l->tail ? l->tail : "", l->tlen);
		out[l->hlen + g + l->tlen] = '\0';
	}
	free(l->head);
	free(l->tail);
	free(l->line);
	free(l->shown);
	*kept = out;
	return l->err;
}
