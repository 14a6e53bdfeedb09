/*
 * inputs.c -- kernel: exec's input files (inputs.h).
 */
#include "inputs.h"

#include <string.h>

static const char *const NAMES[] = { "n", "nb", "nprow", "npcol", "nprocs", "mapping" };
#define NNAMES (sizeof NAMES / sizeof NAMES[0])

const char *hl_input_placeholders(void)
{
	return "{n}, {nb}, {nprow}, {npcol}, {nprocs}, {mapping}";
}

/* The placeholder at s ('{'): its index, its length in *len; -1 if none. */
static int placeholder(const char *s, size_t *len)
{
	size_t k = strcspn(s + 1, "{}\n");
	*len = k + 2;
	if (s[1 + k] != '}')
		return -1;
	for (size_t i = 0; i < NNAMES; i++)
		if (strlen(NAMES[i]) == k && strncmp(s + 1, NAMES[i], k) == 0)
			return (int)i;
	return -1;
}

int hl_input_check(const char *text, size_t *at, char *bad, size_t badlen)
{
	for (const char *s = text; *s; s++) {
		size_t len;
		if ((s[0] == '{' && s[1] == '{') || (s[0] == '}' && s[1] == '}')) {
			s++;
			continue;
		}
		if (s[0] == '{' && placeholder(s, &len) >= 0) {
			s += len - 1;
			continue;
		}
		if (s[0] != '{' && s[0] != '}')
			continue;
		*at = (size_t)(s - text);
		if (s[0] == '}')
			snprintf(bad, badlen, "a lone '}' (write }} for a brace)");
		else if (s[len - 1] == '}')
			snprintf(bad, badlen, "unknown placeholder %.*s", (int)(len > 40 ? 40 : len), s);
		else
			snprintf(bad, badlen, "an unclosed '{' (write {{ for a brace)");
		return -1;
	}
	return 0;
}

static void put_value(FILE *f, int which, const hl_input_vars *v)
{
	const size_t nums[] = { v->n, v->nb, v->nprow, v->npcol, v->nprocs };
	if (which == 5)
		fputs(v->mapping, f);
	else
		fprintf(f, "%zu", nums[which]);
}

int hl_input_write(const char *text, const hl_input_vars *v, FILE *f)
{
	size_t at;
	char bad[64];
	if (hl_input_check(text, &at, bad, sizeof bad) < 0)
		return -1;
	for (const char *s = text; *s; s++) {
		size_t len;
		int which;
		if ((s[0] == '{' || s[0] == '}') && s[1] == s[0]) {
			fputc(*s++, f);
		} else if (s[0] == '{' && (which = placeholder(s, &len)) >= 0) {
			put_value(f, which, v);
			s += len - 1;
		} else {
			fputc(*s, f);
		}
	}
	return ferror(f) ? -1 : 0;
}
