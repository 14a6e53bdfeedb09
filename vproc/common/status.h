/*
 * status.h -- the one error enum of vproc/ (the planner and the emulation
 * model), and the library's version.  Every fallible function of both
 * returns a vproc_status; none does I/O or exits.
 */
#ifndef VPROC_STATUS_H
#define VPROC_STATUS_H

#include <math.h>
#include <stddef.h>

#define VPROC_VERSION "0.1.0"

typedef enum {
	VPROC_OK = 0,
	VPROC_EINVAL,  /* an argument is out of its domain (t <= 0, NaN, p == 0 ...) */
	VPROC_ENOMEM,  /* an allocation failed */
	VPROC_ERANGE   /* a size would overflow */
} vproc_status;

/* A static, human-readable description of a status. */
const char *vproc_strerror(vproc_status st);

/* Cycle times must be finite and positive: a zero or negative time has no
 * meaning, and an infinite one would make every cost infinite.  Here because
 * the planner and the model both take cycle times. */
static inline vproc_status vproc_check_times(size_t p, const double *t)
{
	if (p == 0 || t == NULL)
		return VPROC_EINVAL;
	for (size_t i = 0; i < p; i++)
		if (!isfinite(t[i]) || !(t[i] > 0.0))
			return VPROC_EINVAL;
	return VPROC_OK;
}

#endif /* VPROC_STATUS_H */
