/*
 * fsutil.h -- files that are either complete or absent.  Every file
 * hetlaunch writes (host files, tester input, reports) goes through
 * hl_write_atomic, so an interrupted or failed write never leaves a
 * half-written file where a launcher or a later stage would read it.
 */
#ifndef HL_FSUTIL_H
#define HL_FSUTIL_H

#include <stddef.h>
#include <stdio.h>

/*
 * hl_write_atomic -- create or replace `path` with what `fill` writes.
 *
 * Writes to a temporary file in the same directory as `path` (so the final
 * rename stays within one file system), calls fill(f, arg), then flushes,
 * fsyncs, checks for stream errors, and renames it over `path`.  The new
 * file gets the mode open(2) would give it (0666 & ~umask); a file that is
 * replaced keeps its own permission bits.
 *
 * fill returns 0 on success and nonzero on failure; it must not close f.
 *
 * Returns 0 on success.  On any failure (cannot create the temporary file,
 * fill fails, a write/flush/fsync/rename error) it removes the temporary
 * file, leaves any existing `path` exactly as it was, and returns -1 with a
 * one-line message naming `path` in err (if err != NULL and errlen > 0).
 */
int hl_write_atomic(const char *path, int (*fill)(FILE *f, void *arg), void *arg,
                    char *err, size_t errlen);

/*
 * hl_mkdir_p -- create `dir` and any missing parents (mode 0777 & ~umask),
 * like mkdir -p.  An existing directory is success; an existing non-directory
 * is an error.  Returns 0, or -1 with a message naming the component that
 * failed in err.
 */
int hl_mkdir_p(const char *dir, char *err, size_t errlen);

/*
 * hl_beside_binary -- the path of `rel` under the directory above the
 * running binary's (bin/hetlaunch -> ./lib/...), in the source tree and
 * after `make install` alike; the environment variable `env`, when set,
 * overrides it.  Returns 0 if that file exists and is readable (and, with
 * exec, executable), -1 otherwise; `out` holds the path looked at.
 */
int hl_beside_binary(const char *env, const char *rel, int exec, char *out, size_t len);

#endif
