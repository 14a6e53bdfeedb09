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
 * hl_output_check -- whether `path`, an output the user named (-o), can be
 * written: absent or a regular file (replaced atomically), a character
 * device or a FIFO (written in place: /dev/null, a terminal, a pipe), or a
 * symbolic link to a device or a FIFO (/dev/stdout on a pipe or a
 * terminal).  Anything else is refused: a link to a file or to nothing is
 * neither replaced nor written through, a block device or a socket is not
 * an output (a directory passes, and fails at hl_write_atomic's rename).
 * Returns 0, or -1 with the reason naming `path` in err.
 */
int hl_output_check(const char *path, char *err, size_t errlen);

/*
 * hl_write_output -- write a user-named output: hl_write_atomic for a new
 * or regular file, in place (no O_CREAT, no O_TRUNC) for a device or a
 * FIFO, after hl_output_check.  Returns 0, -1 when the write failed (exit
 * 1), or -2 when hl_output_check refused the path (exit 2; nothing was
 * written).
 */
int hl_write_output(const char *path, int (*fill)(FILE *f, void *arg), void *arg,
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

/* Why hl_read_regular failed (errno is kept for OPEN and READ). */
typedef enum {
	HL_READ_OK, HL_READ_OPEN, HL_READ_DIR, HL_READ_NOT_REGULAR, HL_READ_TOO_BIG, HL_READ_READ,
	HL_READ_GREW, HL_READ_NOMEM
} hl_read_status;

/*
 * hl_read_regular -- the whole of `path`, which must be a regular file of
 * at most `max` bytes: a directory holds no text, and a FIFO or a device
 * could block the open or the read, or never end.  Opened with O_NONBLOCK
 * so a FIFO cannot block before fstat refuses it.  *out is the bytes with a
 * NUL after them (*len bytes, NULs inside kept), or NULL on failure.
 */
hl_read_status hl_read_regular(const char *path, size_t max, char **out, size_t *len);

#endif
