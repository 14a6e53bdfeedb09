/*
 * fsutil.c -- atomic file replacement and mkdir -p.
 *
 * A launcher that reads a half-written host file starts the wrong job, and
 * a report cut short by a full disk looks like a result; so every file is
 * written to a temporary name beside its destination and renamed into
 * place only once it is complete and on disk (rename(2) is atomic within a
 * file system, hence "beside": same directory).
 */
#include "fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	if (err == NULL || errlen == 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* The longest piece of the destination's name kept in the temporary name:
 * ".<name>.tmpXXXXXX" must stay under NAME_MAX (255 on Linux). */
#define TMP_BASE_MAX 200

/*
 * "<dir>/.<base>.tmpXXXXXX" for mkstemp, and "<dir>" for the directory
 * fsync.  The leading dot hides the temporary file from ls and from globs
 * such as "*.txt" while it exists.  Returns 0, or -1 (message in err).
 */
static int temp_names(const char *path, char **tmpl, char **dir, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dirlen = slash ? (size_t)(slash - path) : 0;
	size_t baselen = strlen(base);
	if (baselen == 0 || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		set_err(err, errlen, "%s: not a file name", path);
		return -1;
	}
	if (baselen > TMP_BASE_MAX)
		baselen = TMP_BASE_MAX;
	*tmpl = malloc(dirlen + baselen + 16);
	/* "/" itself is the directory of "/x"; "" (no slash) is ".". */
	*dir = slash ? strndup(path, dirlen ? dirlen : 1) : strdup(".");
	if (*tmpl == NULL || *dir == NULL) {
		free(*tmpl);
		free(*dir);
		set_err(err, errlen, "%s: out of memory", path);
		return -1;
	}
	snprintf(*tmpl, dirlen + baselen + 16, "%.*s%s.%.*s.tmpXXXXXX", (int)dirlen, path,
	         slash ? "/" : "", (int)baselen, base);
	return 0;
}

/* A replaced file keeps its permission bits; a new one gets what open(2)
 * with 0666 would give it.  umask can only be read by setting it: harmless
 * here, hetlaunch is single-threaded. */
static mode_t target_mode(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
	mode_t mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

/* Make the rename itself durable.  Best effort: the file is already
 * complete, and some file systems refuse fsync on a directory. */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

/* fill, then everything that can still fail before the rename.  Returns 0,
 * or -1 with the message in err. */
static int fill_and_sync(FILE *f, const char *path, int (*fill)(FILE *f, void *arg),
                         void *arg, char *err, size_t errlen)
{
	if (fill(f, arg) != 0) {
		int e = errno;
		if (ferror(f))
			set_err(err, errlen, "%s: write error: %s", path, strerror(e));
		else
			set_err(err, errlen, "%s: could not produce the contents", path);
		return -1;
	}
	if (fflush(f) != 0 || ferror(f)) {
		set_err(err, errlen, "%s: write error: %s", path, strerror(errno));
		return -1;
	}
	if (fsync(fileno(f)) != 0) {
		set_err(err, errlen, "%s: cannot sync to disk: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int hl_write_atomic(const char *path, int (*fill)(FILE *f, void *arg), void *arg,
                    char *err, size_t errlen)
{
	if (path == NULL || fill == NULL) {
		set_err(err, errlen, "%s: bad arguments", path ? path : "(null)");
		return -1;
	}
	char *tmpl, *dir;
	if (temp_names(path, &tmpl, &dir, err, errlen) < 0)
		return -1;
	int rc = -1;
	int fd = mkstemp(tmpl);
	if (fd < 0) {
		set_err(err, errlen, "%s: cannot create a temporary file in %s: %s", path, dir,
		        strerror(errno));
		goto out;
	}
	if (fchmod(fd, target_mode(path)) != 0) {
		set_err(err, errlen, "%s: cannot set the mode of %s: %s", path, tmpl,
		        strerror(errno));
		close(fd);
		goto unlink;
	}
	FILE *f = fdopen(fd, "w");
	if (f == NULL) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		goto unlink;
	}
	int bad = fill_and_sync(f, path, fill, arg, err, errlen);
	if (fclose(f) != 0 && !bad) {
		set_err(err, errlen, "%s: write error: %s", path, strerror(errno));
		bad = 1;
	}
	if (bad)
		goto unlink;
	if (rename(tmpl, path) != 0) {
		set_err(err, errlen, "%s: cannot replace it: %s", path, strerror(errno));
		goto unlink;
	}
	sync_dir(dir);
	rc = 0;
	goto out;
unlink:
	unlink(tmpl);
out:
	free(tmpl);
	free(dir);
	return rc;
}

/* mkdir one component; an existing directory is fine. */
static int mkdir_one(const char *p, char *err, size_t errlen)
{
	if (mkdir(p, 0777) == 0)
		return 0;
	int e = errno;
	struct stat st;
	if (e == EEXIST) {
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			return 0;
		e = ENOTDIR;
	}
	set_err(err, errlen, "%s: cannot create the directory: %s", p, strerror(e));
	return -1;
}

int hl_mkdir_p(const char *dir, char *err, size_t errlen)
{
	if (dir == NULL || dir[0] == '\0') {
		set_err(err, errlen, "empty directory name");
		return -1;
	}
	char *p = strdup(dir);
	if (p == NULL) {
		set_err(err, errlen, "%s: out of memory", dir);
		return -1;
	}
	int rc = 0;
	/* Each prefix ending before a '/', then the whole path; "a//b" and a
	 * leading '/' give empty or root prefixes, which are skipped. */
	for (char *s = p + 1; rc == 0 && *s; s++) {
		if (*s != '/' || s[-1] == '/')
			continue;
		*s = '\0';
		rc = mkdir_one(p, err, errlen);
		*s = '/';
	}
	if (rc == 0)
		rc = mkdir_one(p, err, errlen);
	free(p);
	return rc;
}

int hl_beside_binary(const char *env, const char *rel, int exec, char *out, size_t len)
{
	const char *e = env ? getenv(env) : NULL;
	out[0] = '\0';
	if (e && e[0]) {
		if (snprintf(out, len, "%s", e) >= (int)len)
			return -1;
	} else {
		char exe[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
		if (n <= 0)
			return -1;
		exe[n] = '\0';
		for (int k = 0; k < 2; k++) {   /* .../bin/hetlaunch -> ... */
			char *slash = strrchr(exe, '/');
			if (slash == NULL)
				return -1;
			*slash = '\0';
		}
		if (snprintf(out, len, "%s/%s", exe, rel) >= (int)len)
			return -1;
	}
	return access(out, exec ? X_OK : R_OK);
}

/* ---- outputs the user names (-o) ------------------------------------------ */

/* Written in place rather than replaced: a device or a FIFO is a stream,
 * not a file to swap (renaming over /dev/null would make it a file). */
static int is_stream(mode_t m)
{
	return S_ISCHR(m) || S_ISFIFO(m);
}

int hl_output_check(const char *path, char *err, size_t errlen)
{
	struct stat ls, st;
	if (lstat(path, &ls) < 0)
		return errno == ENOENT ? 0 : (set_err(err, errlen, "%s: %s", path, strerror(errno)), -1);
	/* A directory fails at the rename, as it always did (exit 1). */
	if (S_ISREG(ls.st_mode) || is_stream(ls.st_mode) || S_ISDIR(ls.st_mode))
		return 0;
	if (S_ISLNK(ls.st_mode) && stat(path, &st) == 0 && is_stream(st.st_mode))
		return 0;
	if (S_ISLNK(ls.st_mode))
		set_err(err, errlen, "%s: a symbolic link to a file or to nothing: hetlaunch neither "
		        "replaces a link nor writes through it (give the file's own name)", path);
	else
		set_err(err, errlen, "%s: not a regular file, a character device or a FIFO (a block "
		        "device or a socket is not an output)", path);
	return -1;
}

/* fill into the device or FIFO at path, opened as it is: no O_CREAT, no
 * O_TRUNC, and checked again once open (it may have changed since). */
static int write_stream(const char *path, int (*fill)(FILE *f, void *arg), void *arg,
                        char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !is_stream(st.st_mode)) {
		set_err(err, errlen, "%s: %s", path, fd < 0 ? strerror(errno)
		                                          : "no longer a device or a FIFO");
		if (fd >= 0)
			close(fd);
		return fd < 0 ? -1 : -2;
	}
	FILE *f = fdopen(fd, "w");
	if (f == NULL) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	int bad = fill(f, arg) != 0 || fflush(f) != 0 || ferror(f);
	if (bad)
		set_err(err, errlen, "%s: write error: %s", path, strerror(errno));
	if (fclose(f) != 0 && !bad) {
		set_err(err, errlen, "%s: write error: %s", path, strerror(errno));
		bad = 1;
	}
	return bad ? -1 : 0;
}

int hl_write_output(const char *path, int (*fill)(FILE *f, void *arg), void *arg,
                    char *err, size_t errlen)
{
	struct stat st;
	if (hl_output_check(path, err, errlen) < 0)
		return -2;
	if (stat(path, &st) == 0 && is_stream(st.st_mode))
		return write_stream(path, fill, arg, err, errlen);
	return hl_write_atomic(path, fill, arg, err, errlen);
}

/* The open file's bytes: at most its size, one byte more says it grew. */
static hl_read_status read_all(int fd, size_t size, char **out, size_t *len)
{
	size_t cap = size + 1, n = 0;
	char *buf = malloc(cap + 1);
	if (buf == NULL)
		return HL_READ_NOMEM;
	for (ssize_t k; n < cap; n += (size_t)k)
		if ((k = read(fd, buf + n, cap - n)) < 0) {
			int e = errno;
			free(buf);
			errno = e;
			return HL_READ_READ;
		} else if (k == 0) {
			break;
		}
	if (n >= cap) {
		free(buf);
		return HL_READ_GREW;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return HL_READ_OK;
}

hl_read_status hl_read_regular(const char *path, size_t max, char **out, size_t *len)
{
	*out = NULL;
	*len = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return HL_READ_OPEN;
	struct stat st;
	hl_read_status rs = HL_READ_OK;
	if (fstat(fd, &st) < 0)
		rs = HL_READ_OPEN;
	else if (S_ISDIR(st.st_mode))
		rs = HL_READ_DIR;
	else if (!S_ISREG(st.st_mode))
		rs = HL_READ_NOT_REGULAR;
	else if ((unsigned long long)st.st_size > max)
		rs = HL_READ_TOO_BIG;
	else
		rs = read_all(fd, (size_t)st.st_size, out, len);
	int e = errno;
	close(fd);
	errno = e;
	return rs;
}
