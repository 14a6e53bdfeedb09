/*
 * joblog.h -- the job's output as it streams: all of it into log.txt, each
 * line shown with the elapsed time, and a bounded copy kept in memory for
 * the parsers (testers.c, kernels.c, placement.c, run.c's diagnosis).
 *
 * What is kept: every line cut at HL_LINE_CAP bytes; the first lines up to
 * HL_HEAD_CAP bytes, then the last lines up to HL_TAIL_CAP bytes, with one
 * line in between saying how many were left out.  The parsers read result
 * lines, per-rank lines and placement lines, which are short; the runtime's
 * placement lines come first and the results last, and a launcher's
 * errors are at one end or the other.  So a program that prints gigabytes
 * costs hetlaunch a few megabytes, and each byte is looked at once.
 */
#ifndef HL_JOBLOG_H
#define HL_JOBLOG_H

#include <stddef.h>

#define HL_LINE_CAP (64u << 10)
#define HL_HEAD_CAP (4u << 20)
#define HL_TAIL_CAP (4u << 20)

typedef struct {
	int fd;                        /* log.txt */
	const char *path;
	int err;                       /* errno of the first failed write to log.txt, or 0 */
	int echo;                      /* show each line on stderr */
	double t0;                     /* the job's start (hl_now) */
	char *head, *tail, *line;      /* the first lines, the last ones, the current one */
	size_t hlen, tlen, llen;
	int in_tail;                   /* the head is full: lines go to the tail */
	unsigned long long cut;        /* bytes of the current line past HL_LINE_CAP */
	unsigned long long dropped;    /* lines left out between head and tail */
	char *shown;                   /* the echo of one read, written at once */
	size_t slen;
} hl_joblog;

/* log.txt, new: the old one (or a link planted there) goes, and a file is
 * made with O_EXCL | O_NOFOLLOW, or nothing.  0, or -1 (message in err). */
int hl_joblog_open(hl_joblog *l, const char *path, int echo, char *err, size_t errlen);

/* n more bytes of the job's output. */
void hl_joblog_add(hl_joblog *l, const char *s, size_t n);

/* The last line (if it had no newline), log.txt closed; *kept: the kept
 * text, NUL-terminated, malloc'd (NULL when out of memory).  Returns the
 * errno of writing log.txt, or 0. */
int hl_joblog_close(hl_joblog *l, char **kept);

#endif
