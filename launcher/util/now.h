/* now.h -- the launcher's one clock for timeouts and log stamps. */
#ifndef HL_NOW_H
#define HL_NOW_H

/* Seconds since an arbitrary point (CLOCK_MONOTONIC): never steps back when
 * the wall clock is set, so a timeout measured with it holds. */
double hl_now(void);

#endif
