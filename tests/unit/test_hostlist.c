/*
 * test_hostlist.c -- launcher/util/hostlist.c: Slurm's hostlist
 * expressions expanded (each expectation of `expands` is what Slurm
 * 22.05's scontrol show hostnames printed for the same text, but
 * old-[3-4]-ib, which it refuses and the format names), refused at the
 * right byte when malformed or too large (stricter than scontrol, which
 * reads "a,,b" as a b and "n[1-4" as n]), and grouped back.
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

#include "util/hostlist.h"

/* The hosts of expr joined by spaces ("" on error). */
static char *expanded(const char *expr, size_t max)
{
	char **h = NULL;
	size_t n = 0;
	hl_hostlist_error err;
	if (hl_hostlist_expand(expr, max, &h, &n, &err) != 0)
		return strdup("");
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(h[i]) + 1;
	char *s = calloc(len, 1);
	assert_non_null(s);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, h[i]);
	}
	assert_null(h[n]);
	hl_hostlist_free(h);
	return s;
}

static void expect(const char *expr, const char *want)
{
	char *got = expanded(expr, 1000);
	assert_string_equal(got, want);
	free(got);
}

static void expands(void **state)
{
	(void)state;
	expect("n1", "n1");
	expect("cn[008-010,017]", "cn008 cn009 cn010 cn017");
	expect("old-[3-4]-ib", "old-3-ib old-4-ib");
	expect("gpu[1-2]-ib", "gpu1-ib gpu2-ib");
	expect("node[8-11]", "node8 node9 node10 node11");
	expect("a,b[1-2],c", "a b1 b2 c");
	expect("r[1-2]n[01-02]", "r1n01 r1n02 r2n01 r2n02");   /* leftmost slowest */
	expect("n[7]", "n7");
	expect("[1-3]", "1 2 3");
	expect("n[0-0]", "n0");
}

/* expr is refused at byte pos with a message containing word. */
static void refused(const char *expr, size_t max, size_t pos, const char *word)
{
	char **h = (char **)1;
	size_t n = 0;
	hl_hostlist_error err;
	assert_int_equal(hl_hostlist_expand(expr, max, &h, &n, &err), -1);
	assert_null(h);
	if (err.pos != pos || strstr(err.msg, word) == NULL)
		fail_msg("\"%s\": at %zu \"%s\", want %zu \"%s\"", expr, err.pos, err.msg, pos, word);
}

static void malformed(void **state)
{
	(void)state;
	refused("n[1-4", 10, 1, "not closed");
	refused("n[1-4,", 10, 6, "empty element");
	refused("n1-4]", 10, 4, "without '['");
	refused("n[1-[2]]", 10, 4, "nest");
	refused("n[1,[2]]", 10, 4, "nest");
	refused("n[4-1]", 10, 2, "goes down");
	refused("n[a-b]", 10, 2, "'a'");
	refused("n[1-2-3]", 10, 5, "'-'");
	refused("n[]", 10, 2, "empty element");
	refused("n[1,,2]", 10, 4, "empty element");
	refused("a,,b", 10, 2, "empty host name");
	refused(",a", 10, 0, "empty host name");
	refused("a,", 10, 2, "empty host name");
	refused("", 10, 0, "empty host name");
	refused("n[1234567890123456789]", 10, 2, "more than 18 digits");
}

static void huge(void **state)
{
	(void)state;
	/* Counted before anything is allocated: 10^18 hosts cost nothing. */
	refused("n[0-999999999999999999]", 100000, 0, "more than 100000 hosts");
	refused("a[0-99999]b[0-99999]c[0-99999]", 100000, 0, "more than 100000 hosts");
	refused("x,n[1-100000]", 100000, 2, "more than 100000 hosts");
	refused("n[1-3]", 2, 0, "more than 2 hosts");
	char **h = NULL;
	size_t n = 0;
	hl_hostlist_error err;
	assert_int_equal(hl_hostlist_expand("n[00001-100000]", 100000, &h, &n, &err), 0);
	assert_int_equal(n, 100000);
	assert_string_equal(h[0], "n00001");
	assert_string_equal(h[99999], "n100000");
	size_t counted = 0;
	assert_int_equal(hl_hostlist_count("n[00001-100000]", 100000, &counted, &err), 0);
	assert_int_equal(counted, n);
	char *g = hl_hostlist_group(h, n);
	assert_string_equal(g, "n[00001-99999],n100000");
	free(g);
	hl_hostlist_free(h);
}

static void grouped(const char *expr, const char *want)
{
	char **h = NULL;
	size_t n = 0;
	hl_hostlist_error err;
	assert_int_equal(hl_hostlist_expand(expr, 1000, &h, &n, &err), 0);
	char *g = hl_hostlist_group(h, n);
	assert_string_equal(g, want);
	/* and back: the grouped text expands to the same hosts */
	char *a = expanded(expr, 1000), *b = expanded(g, 1000);
	assert_string_equal(a, b);
	free(a);
	free(b);
	free(g);
	hl_hostlist_free(h);
}

static void groups_back(void **state)
{
	(void)state;
	grouped("n1,n2,n3,n7", "n[1-3,7]");
	grouped("cn[008-010,017]", "cn[008-010,017]");
	grouped("gpu[1-2]-ib", "gpu[1-2]-ib");
	grouped("node[8-11]", "node[8-11]");
	grouped("n[0-10]", "n[0-10]");
	grouped("n09,n10,n9", "n[09-10],n9");
	grouped("a,b,c1", "a,b,c1");
	grouped("n3,n2,n1", "n[3,2,1]");   /* order kept: rank order */
	grouped("r[1-2]n[01-02]", "r1n[01-02],r2n[01-02]");
	assert_int_equal(hl_hostlist_is_list("n1"), 0);
	assert_int_equal(hl_hostlist_is_list("n[1]"), 1);
	assert_int_equal(hl_hostlist_is_list("a,b"), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(expands),
		cmocka_unit_test(malformed),
		cmocka_unit_test(huge),
		cmocka_unit_test(groups_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
