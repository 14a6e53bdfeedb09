/*
 * nodelist.c -- see nodelist.h.  A simple expander of Slurm's compressed
 * host lists: comma-separated items, each a name with bracket groups of
 * numbers and ranges (`c[001-010,017]`, `rack[1-2]-n[1-3]`), zero padding
 * kept.  Everything here goes through hl_slurm_nodelist_hosts, so that the
 * full expansion (scontrol show hostnames' grammar) can replace it whole.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nodelist.h"

/* An allocation of more nodes than this is refused as malformed. */
#define HL_NODELIST_MAX 100000

typedef struct {
	char **v;
	size_t n, cap;
} hostv;

static int add(hostv *h, const char *s, size_t len)
{
	if (h->n + 2 > h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;
		char **v = realloc(h->v, cap * sizeof *v);
		if (v == NULL)
			return -1;
		h->v = v;
		h->cap = cap;
	}
	char *c = strndup(s, len);
	if (c == NULL)
		return -1;
	h->v[h->n++] = c;
	h->v[h->n] = NULL;
	return 0;
}

static int expand(const char *item, size_t len, hostv *h);

/* One range "a" or "a-b" of a bracket group, each number into prefix +
 * number (width of a's digits when a starts with 0) + the rest. */
static int expand_range(const char *pre, size_t plen, const char *r, size_t rlen,
                        const char *rest, size_t restlen, hostv *h)
{
	char *end;
	unsigned long a = strtoul(r, &end, 10), b = a;
	size_t width = (size_t)(end - r);
	if (end == r || !isdigit((unsigned char)r[0]))
		return -1;
	if ((size_t)(end - r) < rlen) {
		if (*end != '-' || !isdigit((unsigned char)end[1]))
			return -1;
		b = strtoul(end + 1, &end, 10);
	}
	if ((size_t)(end - r) != rlen || b < a || b - a > HL_NODELIST_MAX)
		return -1;
	for (unsigned long k = a; k <= b; k++) {
		char buf[512];
		int n = snprintf(buf, sizeof buf, "%.*s%0*lu%.*s", (int)plen, pre,
		                 r[0] == '0' ? (int)width : 1, k, (int)restlen, rest);
		if (n < 0 || (size_t)n >= sizeof buf || expand(buf, (size_t)n, h) < 0)
			return -1;
		if (h->n > HL_NODELIST_MAX)
			return -1;
	}
	return 0;
}

/* One item: its first bracket group expanded, the rest recursively. */
static int expand(const char *item, size_t len, hostv *h)
{
	const char *open = memchr(item, '[', len);
	if (open == NULL)
		return len ? add(h, item, len) : -1;
	const char *close = memchr(open, ']', len - (size_t)(open - item));
	if (close == NULL || close == open + 1)   /* unclosed, or [] */
		return -1;
	const char *rest = close + 1;
	size_t restlen = len - (size_t)(rest - item);
	for (const char *r = open + 1; r < close;) {
		const char *comma = memchr(r, ',', (size_t)(close - r));
		const char *e = comma ? comma : close;
		if (expand_range(item, (size_t)(open - item), r, (size_t)(e - r), rest, restlen, h) < 0)
			return -1;
		r = e + 1;
	}
	return 0;
}

int hl_slurm_nodelist_hosts(const char *list, char ***hosts, size_t *n)
{
	hostv h = { 0 };
	int depth = 0, bad = list == NULL || list[0] == '\0';
	const char *start = list;
	for (const char *p = list; !bad; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			bad |= --depth < 0;
		if ((*p == ',' && depth == 0) || *p == '\0') {
			bad |= expand(start, (size_t)(p - start), &h) < 0;
			start = p + 1;
			if (*p == '\0')
				break;
		}
	}
	if (bad || depth != 0) {
		hl_slurm_hosts_free(h.v);
		return -1;
	}
	*hosts = h.v;
	*n = h.n;
	return 0;
}

void hl_slurm_hosts_free(char **hosts)
{
	for (size_t i = 0; hosts && hosts[i]; i++)
		free(hosts[i]);
	free(hosts);
}
