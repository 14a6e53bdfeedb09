/*
 * test_placement.c -- launcher/launch/placement.c: the ranks' lines read from a
 * log (interleaved with other output, out of order, one missing, one
 * repeated), and each rank matched against the plan's host by name, short
 * name, Slurm node, address, resolution and "this computer".  Runs with
 * the real thing end to end: tests/e2e/multihost_test.sh and tests/e2e/slurm_test.sh.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "launch/placement.h"

static hl_seen seen(const char *host, const char *node, const char *addrs)
{
	hl_seen s;
	memset(&s, 0, sizeof s);
	s.reported = 1;
	snprintf(s.host, sizeof s.host, "%s", host);
	snprintf(s.node, sizeof s.node, "%s", node);
	snprintf(s.addrs, sizeof s.addrs, "%s", addrs);
	return s;
}

static void host_is(void **state)
{
	(void)state;
	hl_seen a = seen("node1", "-", "10.213.7.11,192.0.2.9");
	assert_true(hl_host_is("node1", &a, "login"));
	assert_true(hl_host_is("node1.cluster.example", &a, "login"));   /* short form */
	/* node10 is not node1, but is it this rank's host under another name?
	 * It does not resolve: we cannot tell. */
	assert_int_equal(hl_host_is("node10.invalid", &a, "login"), -1);
	assert_true(hl_host_is("10.213.7.11", &a, "login"));
	assert_true(hl_host_is("192.0.2.9", &a, "login"));
	assert_false(hl_host_is("10.213.7.1", &a, "login"));              /* not a prefix either */
	assert_false(hl_host_is("10.213.7.12", &a, "login"));
	/* localhost and this computer's name mean: on the computer hetlaunch runs on. */
	assert_false(hl_host_is("localhost", &a, "login"));
	assert_false(hl_host_is("login", &a, "login"));
	assert_true(hl_host_is("localhost", &a, "node1"));
	assert_true(hl_host_is("127.0.0.1", &a, "node1"));
	/* Slurm: the node name, whatever the hostname (slurmd -N). */
	hl_seen b = seen("vm", "n2", "10.213.7.12");
	assert_true(hl_host_is("n2", &b, "vm"));
	assert_int_equal(hl_host_is("n1", &b, "vm"), 0);   /* srun said n2 */
	/* A name that resolves here (this computer's, through /etc/hosts or
	 * DNS): to one of the rank's addresses or not. */
	char me[256] = "", addr[INET_ADDRSTRLEN] = "";
	struct addrinfo hints = { .ai_family = AF_INET }, *res = NULL;
	gethostname(me, sizeof me - 1);
	if (getaddrinfo(me, NULL, &hints, &res) == 0) {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)res->ai_addr)->sin_addr,
		          addr, sizeof addr);
		freeaddrinfo(res);
		hl_seen c = seen("box", "-", addr);
		assert_int_equal(hl_host_is(me, &c, "elsewhere"), 1);
		hl_seen d = seen("box", "-", "10.9.9.9");
		assert_int_equal(hl_host_is(me, &d, "elsewhere"), 0);
	}
}

static const char *want3[] = { "10.0.0.11", "10.0.0.12", "10.0.0.11" };

static hl_placement make(const char **want, size_t n)
{
	hl_placement p;
	memset(&p, 0, sizeof p);
	p.nranks = n;
	p.want = calloc(n, sizeof *p.want);
	p.seen = calloc(n, sizeof *p.seen);
	assert_non_null(p.want);
	assert_non_null(p.seen);
	for (size_t k = 0; k < n; k++)
		p.want[k] = want[k];
	snprintf(p.here, sizeof p.here, "login");
	return p;
}

static void verified(void **state)
{
	(void)state;
	hl_placement p = make(want3, 3);
	/* Out of order, interleaved with the program's output, one line glued
	 * to output without a newline, a repeated line (the first counts). */
	const char *log = "WALL ...\n"
	                  "hetlaunch-placement: rank 2 host vm node - addrs 10.0.0.11\n"
	                  "partial output hetlaunch-placement: rank 0 host vm node - addrs 10.0.0.11\n"
	                  "hetlaunch-placement: rank 1 host vm node - addrs 10.0.0.12\n"
	                  "hetlaunch-placement: rank 1 host vm node - addrs 10.0.0.99\n"
	                  "hetlaunch-placement: rank 7 host vm node - addrs 10.0.0.99\n"
	                  "PASSED\n";
	hl_placement_check(&p, log);
	assert_int_equal(p.status, HL_PLACE_VERIFIED);
	assert_int_equal(p.nwrong, 0);
	assert_int_equal(p.nmissing, 0);
	char buf[512];
	hl_placement_text(&p, buf, sizeof buf);
	assert_string_equal(buf, "verified (3 ranks)");
	hl_placement_free(&p);
}

static void swapped(void **state)
{
	(void)state;
	hl_placement p = make(want3, 3);
	const char *log = "hetlaunch-placement: rank 0 host vm node - addrs 10.0.0.12\n"
	                  "hetlaunch-placement: rank 1 host vm node - addrs 10.0.0.11\n"
	                  "hetlaunch-placement: rank 2 host vm node - addrs 10.0.0.11\n";
	hl_placement_check(&p, log);
	assert_int_equal(p.status, HL_PLACE_WRONG);
	assert_int_equal(p.nwrong, 2);
	assert_false(p.seen[0].ok);
	assert_false(p.seen[1].ok);
	assert_true(p.seen[2].ok);
	char buf[512];
	hl_placement_text(&p, buf, sizeof buf);
	assert_string_equal(buf, "rank 0 ran on vm (10.0.0.12), the plan says 10.0.0.11; "
	                         "rank 1 ran on vm (10.0.0.11), the plan says 10.0.0.12");
	hl_placement_free(&p);
}

static void missing(void **state)
{
	(void)state;
	hl_placement p = make(want3, 3);
	hl_placement_check(&p, "hetlaunch-placement: rank 1 host vm node - addrs 10.0.0.12\n"
	                       "hetlaunch-placement: rank 2 host vm node - garbage\n");
	assert_int_equal(p.status, HL_PLACE_INCOMPLETE);
	assert_int_equal(p.nmissing, 2);
	char buf[512];
	hl_placement_text(&p, buf, sizeof buf);
	assert_non_null(strstr(buf, "2 of the ranks did not report"));
	hl_placement_check(&p, NULL);   /* no log at all */
	assert_int_equal(p.status, HL_PLACE_INCOMPLETE);
	hl_placement_free(&p);
	/* Names that are not the hostname, no Slurm node, no resolution. */
	const char *want[] = { "n1.invalid", "n2.invalid" };
	p = make(want, 2);
	hl_placement_check(&p, "hetlaunch-placement: rank 0 host vm node - addrs 10.0.0.11\n"
	                       "hetlaunch-placement: rank 1 host vm node - addrs 10.0.0.12\n");
	assert_int_equal(p.nunknown, 2);
	hl_placement_text(&p, buf, sizeof buf);
	assert_string_equal(buf, "not verified: 2 of the ranks are on hosts whose plan name is "
	                         "neither their hostname nor resolves here (e.g. rank 0: n1.invalid)");
	assert_int_equal(p.status, HL_PLACE_INCOMPLETE);
	hl_placement_free(&p);
}

static void slurm_nodes(void **state)
{
	(void)state;
	const char *want[] = { "n1", "n3" };
	hl_placement p = make(want, 2);
	hl_placement_check(&p, "hetlaunch-placement: rank 0 host vm node n1 addrs 10.0.0.11\n"
	                       "hetlaunch-placement: rank 1 host vm node n2 addrs 10.0.0.12\n");
	assert_int_equal(p.status, HL_PLACE_WRONG);
	char buf[512];
	hl_placement_text(&p, buf, sizeof buf);
	assert_string_equal(buf, "rank 1 ran on node n2 (host vm, 10.0.0.12), the plan says n3");
	hl_placement_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(host_is),
		cmocka_unit_test(verified),
		cmocka_unit_test(swapped),
		cmocka_unit_test(missing),
		cmocka_unit_test(slurm_nodes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
