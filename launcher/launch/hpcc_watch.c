/*
 * hpcc_watch.c -- hpcc's sections as the job runs (hpcc_watch.h).
 */
#define _GNU_SOURCE
#include "hpcc_watch.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernels/hpl.h"

void hl_hpcc_watch_init(hl_hpcc_watch *w, const char *run_dir)
{
	memset(w, 0, sizeof *w);
	snprintf(w->path, sizeof w->path, "%s/%s", run_dir, HL_HPL_OUTPUT);
	w->begin = w->end = -1;
}

static void watch_line(hl_hpcc_watch *w, double elapsed)
{
	w->line[w->len] = '\0';
	if (strcmp(w->line, "Begin of HPL section.") == 0)
		w->begin = elapsed;
	else if (strcmp(w->line, "End of HPL section.") == 0)
		w->end = elapsed;
	w->len = 0;
}

void hl_hpcc_watch_poll(hl_hpcc_watch *w, double elapsed)
{
	/* hpcc appends (fopen "a" per section); a link planted in its place
	 * is not followed, a FIFO not waited on */
	int fd = open(w->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		char buf[4096];
		ssize_t got;
		while ((got = pread(fd, buf, sizeof buf, w->offset)) > 0) {
			w->offset += got;
			for (ssize_t i = 0; i < got; i++) {
				if (buf[i] == '\n')
					watch_line(w, elapsed);
				else if (w->len + 1 < sizeof w->line)
					w->line[w->len++] = buf[i];
			}
		}
	}
	close(fd);
}

double hl_hpcc_watch_hpl(const hl_hpcc_watch *w, double job_elapsed)
{
	if (w->begin < 0)
		return -1;
	return (w->end >= w->begin ? w->end : job_elapsed) - w->begin;
}
