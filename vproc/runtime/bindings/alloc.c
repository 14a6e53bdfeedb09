/*
 * alloc.c -- the allocator under emulate: {compute: skip}: malloc and
 * realloc of a large block (1 MiB and more, HETLAUNCH_FOLD_MIN) by the
 * program or its libraries map it onto shared pages (core/fold.c); the
 * rest, and everything without compute: skip, is glibc's.  calloc is never
 * folded (its zeros are a promise programs rely on for counts and
 * indices), nor are the aligned allocations; malloc_usable_size must not
 * be asked about a folded block.  Under kernel: hpl, hpcc's rank 0 is
 * refused the large allocations of the benchmarks it was not asked to run
 * (core/sections.c).  Not in the sanitized runtime: ASan owns the
 * allocator.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bindings.h"

#ifndef __SANITIZE_ADDRESS__
extern void *__libc_malloc(size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

void *malloc(size_t bytes)
{
	if (vr_sections_on() && vr_section_refuses(bytes, __builtin_return_address(0))) {
		errno = ENOMEM;
		return NULL;
	}
	void *p = vr_fold_alloc(bytes, __builtin_return_address(0));
	return p ? p : __libc_malloc(bytes);
}

void free(void *p)
{
	if (p != NULL && !vr_fold_free(p))
		__libc_free(p);
}

/* A folded block moves to a new one (folded again if still large), its
 * contents kept; a block of glibc's stays glibc's. */
void *realloc(void *p, size_t bytes)
{
	size_t old = p ? vr_fold_size(p) : 0;
	if (old == 0)
		return p ? __libc_realloc(p, bytes) : malloc(bytes);
	if (bytes == 0) {
		vr_fold_free(p);
		return NULL;
	}
	void *q = vr_fold_alloc(bytes, __builtin_return_address(0));
	if (q == NULL && (q = __libc_malloc(bytes)) == NULL)
		return NULL;
	memcpy(q, p, old < bytes ? old : bytes);
	vr_fold_free(p);
	return q;
}
#endif
