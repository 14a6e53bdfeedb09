/*
 * hostlist.c -- see hostlist.h.  Three passes over the text: check the
 * syntax (every error at its byte), count the hosts (so that a huge range
 * is refused before anything is allocated), then write them.
 */
#include "hostlist.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIGITS 18   /* < 2^63: a range's arithmetic cannot overflow */

static int fail(hl_hostlist_error *err, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(hl_hostlist_error *err, size_t pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err->pos = pos;
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

int hl_hostlist_is_list(const char *expr)
{
	return strpbrk(expr, "[],") != NULL;
}

/* One number of a group at s: its digits (1..MAX_DIGITS) and value. */
static int number(const char *expr, size_t *i, unsigned long long *v, size_t *width,
                  hl_hostlist_error *err)
{
	size_t start = *i;
	*v = 0;
	while (isdigit((unsigned char)expr[*i])) {
		if (*i - start == MAX_DIGITS)
			return fail(err, start, "a number of more than %d digits", MAX_DIGITS);
		*v = *v * 10 + (unsigned long long)(expr[(*i)++] - '0');
	}
	if (*i == start && expr[start] == '[')
		return fail(err, start, "'[' inside [...]: brackets do not nest");
	if (*i == start)
		return fail(err, start, expr[start] == ']' || expr[start] == ',' || !expr[start]
		            ? "an empty element in [...]: expected a number or a range like 1-4"
		            : "'%c' in [...]: expected numbers and ranges like 1-4", expr[start]);
	*width = *i - start;
	return 0;
}

/* The group whose '[' is at *i: its host count (capped at max + 1); *i
 * ends after its ']'.  Numbers only: NUM or LO-HI, LO <= HI. */
static int group(const char *expr, size_t *i, size_t max, size_t *count, hl_hostlist_error *err)
{
	size_t open = (*i)++, w;
	*count = 0;
	for (;;) {
		unsigned long long lo, hi;
		size_t at = *i;
		if (number(expr, i, &lo, &w, err) < 0)
			return -1;
		hi = lo;
		if (expr[*i] == '-') {
			(*i)++;
			if (number(expr, i, &hi, &w, err) < 0)
				return -1;
			if (hi < lo)
				return fail(err, at, "the range %llu-%llu goes down", lo, hi);
		}
		unsigned long long k = hi - lo + 1;
		*count = k > max || *count + k > max ? max + 1 : *count + (size_t)k;
		if (expr[*i] == ']')
			break;
		if (expr[*i] == '\0')
			return fail(err, open, "'[' is not closed");
		if (expr[*i] != ',')
			return fail(err, *i, "'%c' in [...]: expected numbers and ranges like 1-4",
			            expr[*i]);
		(*i)++;
	}
	(*i)++;
	return 0;
}

/* The item starting at *i (up to a ',' outside brackets or the end): its
 * host count, capped at max + 1; *i ends on that ',' or '\0'. */
static int item(const char *expr, size_t *i, size_t max, size_t *count, hl_hostlist_error *err)
{
	size_t start = *i;
	*count = 1;
	while (expr[*i] && expr[*i] != ',') {
		if (expr[*i] == ']')
			return fail(err, *i, "']' without '['");
		if (expr[*i] != '[') {
			(*i)++;
			continue;
		}
		size_t g;
		if (group(expr, i, max, &g, err) < 0)
			return -1;
		*count = g > max || *count * g > max ? max + 1 : *count * g;
	}
	if (*i == start)
		return fail(err, start, "an empty host name (two commas, or one at an end)");
	return 0;
}

/* Check the syntax and count the hosts; -1 when malformed or over max. */
static int count_hosts(const char *expr, size_t max, size_t *n, hl_hostlist_error *err)
{
	size_t i = 0;
	*n = 0;
	for (;;) {
		size_t start = i, k;
		if (item(expr, &i, max, &k, err) < 0)
			return -1;
		if (k > max || *n + k > max)
			return fail(err, start, "expands to more than %zu hosts", max);
		*n += k;
		if (expr[i] == '\0')
			return 0;
		i++;
	}
}

int hl_hostlist_count(const char *expr, size_t max, size_t *n, hl_hostlist_error *err)
{
	return count_hosts(expr, max, n, err);
}

/* Writing: the item [s, e) (known good) after the prefix buf[0, len),
 * every host into out[*k]. */
typedef struct {
	char **out;
	size_t k;
	char *buf;
} writer;

static int emit(writer *w, const char *s, const char *e, size_t len)
{
	const char *open = memchr(s, '[', (size_t)(e - s));
	if (open == NULL) {
		memcpy(w->buf + len, s, (size_t)(e - s));
		w->buf[len + (size_t)(e - s)] = '\0';
		return (w->out[w->k++] = strdup(w->buf)) ? 0 : -2;
	}
	memcpy(w->buf + len, s, (size_t)(open - s));
	len += (size_t)(open - s);
	const char *close = strchr(open, ']'), *p = open + 1;
	while (p < close) {
		char *end;
		unsigned long long lo = strtoull(p, &end, 10), hi = lo;
		int width = (int)(end - p);
		if (*end == '-')
			hi = strtoull(end + 1, &end, 10);
		for (unsigned long long v = lo; v <= hi; v++) {
			int m = sprintf(w->buf + len, "%0*llu", width, v);
			if (emit(w, close + 1, e, len + (size_t)m) < 0)
				return -2;
		}
		p = end + 1;
	}
	return 0;
}

void hl_hostlist_free(char **hosts)
{
	for (size_t i = 0; hosts && hosts[i]; i++)
		free(hosts[i]);
	free(hosts);
}

int hl_hostlist_expand(const char *expr, size_t max, char ***hosts, size_t *n,
                       hl_hostlist_error *err)
{
	*hosts = NULL;
	if (count_hosts(expr, max, n, err) < 0)
		return -1;
	/* A host is at most the text plus MAX_DIGITS per group. */
	size_t len = strlen(expr);
	writer w = { calloc(*n + 1, sizeof(char *)), 0, malloc(len * (MAX_DIGITS + 1) + 1) };
	int rc = w.out && w.buf ? 0 : -2;
	for (const char *s = expr; rc == 0;) {
		const char *e = s;
		for (int depth = 0; *e && (depth || *e != ','); e++)
			depth += *e == '[' ? 1 : *e == ']' ? -1 : 0;
		rc = emit(&w, s, e, 0);
		if (*e == '\0')
			break;
		s = e + 1;
	}
	free(w.buf);
	if (rc < 0) {
		hl_hostlist_free(w.out);
		return rc;
	}
	*hosts = w.out;
	return 0;
}

/* ------------------------------------------------------------- grouping */

/* A host as prefix, last number, suffix: "gpu12-ib" is gpu, 12, -ib. */
typedef struct {
	size_t plen, nlen;        /* prefix length, digits (0: no number) */
	const char *suffix;
	unsigned long long v;
} split;

static split split_host(const char *h)
{
	split s = { strlen(h), 0, h + strlen(h), 0 };
	const char *e = h + strlen(h);
	while (e > h && !isdigit((unsigned char)e[-1]))
		e--;
	const char *b = e;
	while (b > h && isdigit((unsigned char)b[-1]) && e - b < MAX_DIGITS)
		b--;
	if (b == e)
		return s;
	s.plen = (size_t)(b - h);
	s.nlen = (size_t)(e - b);
	s.suffix = e;
	s.v = strtoull(b, NULL, 10);
	return s;
}

/* Is the number zero-padded ("07": its width matters)? */
static int padded(const char *h, split s)
{
	return s.nlen > 1 && h[s.plen] == '0';
}

/* May b follow a in one bracket group?  Same prefix and suffix, and the
 * same width when either is zero-padded. */
static int same_group(const char *ha, split a, const char *hb, split b)
{
	return a.nlen && b.nlen && a.plen == b.plen && memcmp(ha, hb, a.plen) == 0 &&
	       strcmp(a.suffix, b.suffix) == 0 &&
	       (a.nlen == b.nlen || (!padded(ha, a) && !padded(hb, b)));
}

static int append(char **s, size_t *len, size_t *cap, const char *t, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = (*len + n + 1) * 2;
		char *p = realloc(*s, c);
		if (p == NULL)
			return -1;
		*s = p;
		*cap = c;
	}
	memcpy(*s + *len, t, n);
	*len += n;
	(*s)[*len] = '\0';
	return 0;
}

/* The run hosts[i, j) of one group as "prefix[a-b,c]suffix". */
static int write_group(char **s, size_t *len, size_t *cap, char *const *hosts, size_t i, size_t j)
{
	split a = split_host(hosts[i]);
	char num[64];
	int bad = append(s, len, cap, hosts[i], a.plen);
	bad |= j - i > 1 && append(s, len, cap, "[", 1);
	for (size_t k = i; k < j;) {
		split b = split_host(hosts[k]);
		size_t r = k + 1;
		while (r < j && split_host(hosts[r]).v == b.v + (r - k))
			r++;
		int m = r - k > 1 ? snprintf(num, sizeof num, "%s%0*llu-%0*llu", k > i ? "," : "",
		                             (int)b.nlen, b.v, (int)b.nlen, b.v + (r - k - 1))
		                  : snprintf(num, sizeof num, "%s%0*llu", k > i ? "," : "",
		                             (int)b.nlen, b.v);
		bad |= append(s, len, cap, num, (size_t)m);
		k = r;
	}
	bad |= j - i > 1 && append(s, len, cap, "]", 1);
	bad |= append(s, len, cap, a.suffix, strlen(a.suffix));
	return bad ? -1 : 0;
}

char *hl_hostlist_group(char *const *hosts, size_t n)
{
	char *s = NULL;
	size_t len = 0, cap = 0;
	if (append(&s, &len, &cap, "", 0) < 0)
		return NULL;
	for (size_t i = 0; i < n;) {
		split a = split_host(hosts[i]);
		size_t j = i + 1;
		/* widths must agree within a group: "n9 n10" stays two numbers of one
		 * group only when neither is zero-padded */
		while (j < n && same_group(hosts[i], a, hosts[j], split_host(hosts[j])))
			j++;
		if ((i && append(&s, &len, &cap, ",", 1) < 0) ||
		    (a.nlen ? write_group(&s, &len, &cap, hosts, i, j)
		            : append(&s, &len, &cap, hosts[i], strlen(hosts[i]))) < 0) {
			free(s);
			return NULL;
		}
		i = a.nlen ? j : i + 1;
	}
	return s;
}
