/*
 * paper.h -- helpers for checking the papers' printed numbers.
 */
#ifndef TESTS_PAPER_H
#define TESTS_PAPER_H

#include <math.h>

/*
 * The papers print costs to a fixed number of decimals, sometimes rounded
 * and sometimes truncated: 002 Table 2 prints 5/3 as 1.67 but 15/8 = 1.875
 * as 1.87; Table 5 prints 353/6 = 58.83 as 59 but 500/9 = 55.56 as 55.  No
 * single rule reproduces every row (we checked), so a value matches "to the
 * digit" when rounding or truncating it to the printed decimals gives the
 * printed figure.  Anything off by a unit of the last digit fails.
 */
static inline int matches_printed(double x, double printed, int decimals)
{
	double scale = pow(10.0, decimals);
	double rounded = round(x * scale) / scale;
	double truncated = floor(x * scale + 1e-9) / scale;
	return fabs(rounded - printed) < 1e-9 || fabs(truncated - printed) < 1e-9;
}

#define assert_printed(x, printed, decimals)                                   \
	do {                                                                   \
		if (!matches_printed((x), (printed), (decimals)))              \
			fail_msg("%s = %.6f does not print as %.*f", #x, (double)(x), \
			         (decimals), (double)(printed));               \
	} while (0)

#endif
