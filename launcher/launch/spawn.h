/*
 * spawn.h -- start the MPI job and watch it: fork + execvp with an argv (no
 * shell anywhere), its stdout and stderr into one log, shown as it comes
 * with the elapsed time; Ctrl-C, SIGTERM and the timeout end the whole
 * process group.
 */
#ifndef HL_SPAWN_H
#define HL_SPAWN_H

#include <stddef.h>

typedef struct {
	char *const *argv;       /* argv[0] is looked up in PATH */
	const char *cwd;         /* the child's working directory */
	const char *log_path;    /* everything the job prints, written as it comes */
	double timeout;          /* seconds; 0: none */
	int echo;                /* show the job's lines on stderr */
	char *const *env;        /* NAME=VALUE added to the child's environment; NULL: none */
	char *(*watch)(void *ctx, double elapsed);   /* while the job runs, about
	                          * every 200 ms (elapsed: its seconds); NULL: none.
	                          * Returns NULL, or a message (malloc'd) that ends
	                          * the job: it goes into the log and on stderr, and
	                          * the result says stalled */
	void *watch_ctx;
} hl_spawn_opts;

typedef struct {
	int exit_code;           /* of argv[0], or -1 */
	int signal;              /* that ended argv[0], or 0 */
	int timed_out;           /* we ended it: timeout */
	int interrupted;         /* we ended it: SIGINT/SIGTERM (the signal) */
	int stalled;             /* we ended it: the watch said so (an emulation
	                          * whose clocks stopped moving) */
	int exec_failed;         /* argv[0] could not be started (errno) */
	int log_error;           /* errno of writing log.txt (a full disk), or 0 */
	double elapsed;          /* seconds */
	char *log;               /* the log as kept in memory (joblog.h: the first and
	                          * the last lines), NUL-terminated (malloc'd) */
} hl_spawn_result;

/* Returns 0 when the job was started and has ended (look at *res), -1 when
 * it could not be started at all (message in err). */
int hl_spawn(const hl_spawn_opts *o, hl_spawn_result *res, char *err, size_t errlen);
void hl_spawn_result_free(hl_spawn_result *res);

/* A helper program (gnuplot) fed in[inlen] on its stdin, its stdout into
 * *out (malloc'd, *outlen bytes, at most outmax), its stderr discarded, no
 * shell.  Killed (its group) past timeout seconds or outmax bytes; a
 * signal that would end hetlaunch kills it, then ends hetlaunch as it
 * would have.  Returns 0 (it exited 0), 1 (not installed: exit 127), -1
 * (it failed), -2 (killed: too long, too much). */
int hl_spawn_filter(char *const argv[], const char *in, size_t inlen, size_t outmax,
                    double timeout, char **out, size_t *outlen);

#endif
