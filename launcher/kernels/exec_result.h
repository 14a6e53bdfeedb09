/*
 * exec_result.h -- the results of a user's program (kernel: exec) that
 * prints no hetlaunch-result lines: its own time and verdict, read by the
 * user's result: patterns, else by the stock ScaLAPACK testers' own lines
 * (testers.c) when the program is one of them (xdlu, xdqr, dpb3tim).
 */
#ifndef HL_EXEC_RESULT_H
#define HL_EXEC_RESULT_H

#include "kernels.h"
#include "testers.h"

/* result: (kernel exec): POSIX extended regular expressions, each matched
 * against every line of the log; NULL: not given. */
typedef struct {
	char *time;     /* a line with the program's time: group 1 is its seconds */
	char *passed;   /* a line that says the run passed */
	char *failed;   /* a line that says it failed */
} hl_result_patterns;

/* 0 if re compiles as an extended regular expression (and, need_group, has
 * a group); else -1 with why in err. */
int hl_result_pattern_check(const char *re, int need_group, char *err, size_t len);

/*
 * hl_exec_result_parse -- fill *out (cleared first) from log: by the
 * patterns when any is given, else by the stock testers' parser (model's
 * tester first: lu xdlu, qr xdqr, mm dpb3tim; the first that finds a
 * result).  *verdict: 1 passed, 0 failed, -1 nothing said.  Patterns:
 * every time line a result; passed when a passed: line is seen (or none is
 * asked for) and no failed: line; a time: pattern that matched nothing is
 * a failure.  Returns 0, or -1 when out of memory.
 */
int hl_exec_result_parse(const hl_result_patterns *p, hl_kernel model, const char *log,
                         hl_results *out, int *verdict);

#endif
