/*
 * placement.c -- see placement.h.  The line each rank prints is
 * vproc/runtime/core/rank_host.c's:
 *
 *     hetlaunch-placement: rank K host NAME node SLURMNODE addrs A,B
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "placement.h"

#define TAG "hetlaunch-placement: rank "

int hl_placement_init(hl_placement *p, const hl_config *cfg, const hl_ranks *r, int here_only)
{
	memset(p, 0, sizeof *p);
	p->nranks = r->nranks;
	p->here_only = here_only;
	gethostname(p->here, sizeof p->here - 1);
	p->want = calloc(r->nranks ? r->nranks : 1, sizeof *p->want);
	p->seen = calloc(r->nranks ? r->nranks : 1, sizeof *p->seen);
	if (p->want == NULL || p->seen == NULL) {
		hl_placement_free(p);
		return -1;
	}
	for (size_t k = 0; k < r->nranks; k++)
		p->want[k] = here_only ? p->here : cfg->machines[r->machine[k]].host;
	return 0;
}

/* Is `item` one of the comma-separated words of `list`? */
static int in_list(const char *item, const char *list)
{
	size_t n = strlen(item);
	for (const char *s = list; *s;) {
		size_t w = strcspn(s, ",");
		if (w == n && strncmp(s, item, n) == 0)
			return 1;
		s += w + (s[w] == ',');
	}
	return 0;
}

/* a == b, or one is the other's short form (node1 and node1.cluster). */
static int same_name(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la == lb)
		return strcmp(a, b) == 0;
	if (la > lb)
		return strncmp(a, b, lb) == 0 && a[lb] == '.';
	return strncmp(a, b, la) == 0 && b[la] == '.';
}

static int is_address(const char *s)
{
	struct in_addr a4;
	struct in6_addr a6;
	return inet_pton(AF_INET, s, &a4) == 1 || inet_pton(AF_INET6, s, &a6) == 1;
}

/* Does `name` resolve (here, in hetlaunch) to one of the addresses?  -1:
 * it does not resolve at all, so we cannot tell. */
static int resolves_to(const char *name, const char *addrs)
{
	struct addrinfo hints, *res = NULL;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_INET;
	if (getaddrinfo(name, NULL, &hints, &res) != 0)
		return -1;
	int hit = 0;
	for (const struct addrinfo *a = res; a && !hit; a = a->ai_next) {
		char text[INET_ADDRSTRLEN];
		const struct sockaddr_in *in = (const void *)a->ai_addr;
		if (inet_ntop(AF_INET, &in->sin_addr, text, sizeof text) != NULL)
			hit = in_list(text, addrs);
	}
	freeaddrinfo(res);
	return hit;
}

int hl_host_is(const char *want, const hl_seen *s, const char *here)
{
	if (strcmp(want, "localhost") == 0 || strcmp(want, "127.0.0.1") == 0 ||
	    strcmp(want, "::1") == 0 || (here[0] && strcmp(want, here) == 0))
		return here[0] && same_name(s->host, here);
	if (in_list(want, s->addrs))
		return 1;
	if (is_address(want))
		return 0;   /* an address names the host by its address only */
	if (same_name(want, s->host) || strcmp(want, s->node) == 0)
		return 1;
	if (strcmp(s->node, "-") != 0)
		return 0;   /* srun said which node: not this one */
	int r = resolves_to(want, s->addrs);
	return r < 0 ? -1 : r;
}

/* Read one rank's line (after the tag); -1 if it is not one. */
static long parse_line(const char *s, hl_seen *out)
{
	long rank;
	char *end;
	rank = strtol(s, &end, 10);
	if (end == s || rank < 0)
		return -1;
	hl_seen v;
	memset(&v, 0, sizeof v);
	if (sscanf(end, " host %255s node %127s addrs %1023s", v.host, v.node, v.addrs) != 3)
		return -1;
	v.reported = 1;
	*out = v;
	return rank;
}

void hl_placement_check(hl_placement *p, const char *log)
{
	for (const char *s = log ? strstr(log, TAG) : NULL; s; s = strstr(s + 1, TAG)) {
		hl_seen v;
		long k = parse_line(s + strlen(TAG), &v);
		if (k >= 0 && (size_t)k < p->nranks && !p->seen[k].reported)
			p->seen[k] = v;
	}
	p->nwrong = p->nmissing = p->nunknown = 0;
	for (size_t k = 0; k < p->nranks; k++) {
		hl_seen *v = &p->seen[k];
		if (!v->reported) {
			p->nmissing++;
			continue;
		}
		v->ok = hl_host_is(p->want[k], v, p->here);
		p->nwrong += v->ok == 0;
		p->nunknown += v->ok < 0;
	}
	p->status = p->nwrong ? HL_PLACE_WRONG : p->nmissing + p->nunknown ? HL_PLACE_INCOMPLETE
	                                                      : HL_PLACE_VERIFIED;
}

/* Where a rank was, in the words most likely to match the plan's. */
static void where(const hl_seen *v, char *buf, size_t len)
{
	if (strcmp(v->node, "-") != 0)
		snprintf(buf, len, "node %s (host %s, %s)", v->node, v->host, v->addrs);
	else
		snprintf(buf, len, "%s (%s)", v->host, v->addrs);
}

static size_t first_unknown(const hl_placement *p)
{
	size_t k = 0;
	while (k + 1 < p->nranks && !(p->seen[k].reported && p->seen[k].ok < 0))
		k++;
	return k;
}

void hl_placement_text(const hl_placement *p, char *buf, size_t len)
{
	size_t used = 0;
	char w[1500];
	buf[0] = '\0';
	if (p->status == HL_PLACE_UNCHECKED)
		snprintf(buf, len, "not checked (the runtime was not preloaded)");
	else if (p->status == HL_PLACE_VERIFIED)
		snprintf(buf, len, "verified (%zu ranks%s)", p->nranks,
		         p->here_only ? ", all on this computer: emulated" : "");
	else if (p->status == HL_PLACE_INCOMPLETE && p->nmissing)
		snprintf(buf, len, "not verified: %zu of the ranks did not report (was the runtime "
		         "loaded on their hosts?)", p->nmissing);
	else if (p->status == HL_PLACE_INCOMPLETE)
		snprintf(buf, len, "not verified: %zu of the ranks are on hosts whose plan name is "
		         "neither their hostname nor resolves here (e.g. rank %zu: %s)", p->nunknown,
		         first_unknown(p), p->want[first_unknown(p)]);
	else
		for (size_t k = 0; k < p->nranks; k++) {
			if (!p->seen[k].reported || p->seen[k].ok != 0)
				continue;
			where(&p->seen[k], w, sizeof w);
			int n = snprintf(buf + used, len - used, "%srank %zu ran on %s, the plan says %s",
			                 used ? "; " : "", k, w, p->want[k]);
			if (n < 0 || (size_t)n >= len - used)
				return;   /* truncated: the report lists them all */
			used += (size_t)n;
		}
}

const char *hl_placement_status_name(hl_place_status st)
{
	static const char *const names[] = { "unchecked", "verified", "wrong", "incomplete" };
	return names[st];
}

void hl_placement_json(jw *w, const hl_placement *p)
{
	jw_arr(w);
	for (size_t k = 0; p->status != HL_PLACE_UNCHECKED && k < p->nranks; k++) {
		const hl_seen *v = &p->seen[k];
		jw_obj(w);
		jw_key(w, "rank"); jw_uint(w, k);
		jw_key(w, "plan"); jw_str(w, p->want[k]);
		jw_key(w, "reported"); jw_bool(w, v->reported);
		if (v->reported) {
			jw_key(w, "host"); jw_str(w, v->host);
			jw_key(w, "node"); jw_str(w, v->node);
			jw_key(w, "addrs"); jw_str(w, v->addrs);
			jw_key(w, "ok");
			if (v->ok < 0)
				jw_null(w);   /* cannot tell */
			else
				jw_bool(w, v->ok);
		}
		jw_end(w);
	}
	jw_end(w);
}

void hl_placement_free(hl_placement *p)
{
	free(p->want);
	free(p->seen);
	p->want = NULL;
	p->seen = NULL;
}
