/*
 * data.h -- a recorded output of tests/data/ as one string, for the cmocka
 * tests of the parsers (test_testers.c, test_hpl.c).  Include after
 * <cmocka.h>.
 */
#ifndef HL_TESTS_DATA_H
#define HL_TESTS_DATA_H

#include <stdio.h>
#include <stdlib.h>

#ifndef TESTS_DATA
#define TESTS_DATA "tests/data/"   /* make runs the tests from the root */
#endif

/* tests/data/NAME's text (malloc'd), or the test fails. */
static inline char *slurp(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "%s%s", TESTS_DATA, name);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	long len = ftell(f);
	assert_true(len > 0);
	rewind(f);
	char *s = malloc((size_t)len + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)len, f), (size_t)len);
	s[len] = '\0';
	fclose(f);
	return s;
}

#endif
