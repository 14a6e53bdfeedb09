/*
 * spawn.c -- the job's process: see spawn.h.
 *
 * The child gets its own process group, so that one kill(-pgid) reaches
 * mpiexec and whatever it started in that group even when mpiexec itself is
 * stuck.  Hydra starts its proxies (and so the ranks) in sessions of their
 * own, which the group kill does not reach: only mpiexec's own SIGTERM
 * handler ends them (it forwards the kill to every proxy, local or remote).
 * So mpiexec must get a SIGTERM however hetlaunch ends: the signals that
 * would end hetlaunch (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2)
 * set a flag, the poll loop sees it, sends SIGTERM to the group, waits a
 * grace period, then SIGKILL; and a SIGKILL of hetlaunch, which no handler
 * sees, reaches mpiexec as its parent-death signal (PR_SET_PDEATHSIG).
 * What a SIGKILL leaves in /dev/shm is swept at the next start
 * (emulation.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "spawn.h"

#define GRACE_S 3.0

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* What would end hetlaunch ends the job first (SIGHUP: the terminal went
 * away; SIGQUIT: Ctrl-\). */
static const int ending_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
#define NSIGS (sizeof ending_signals / sizeof ending_signals[0])

static void restore_signals(const struct sigaction *old)
{
	for (size_t i = 0; i < NSIGS; i++)
		sigaction(ending_signals[i], &old[i], NULL);
}

double hl_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
	char *buf;
	size_t len, cap;
	size_t line_start;   /* of the line not yet echoed */
} logbuf;

static int log_append(logbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *nb = realloc(b->buf, cap);
		if (nb == NULL)
			return -1;
		b->buf = nb;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
	return 0;
}

/* Show complete lines, each with the elapsed time. */
static void echo_lines(logbuf *b, double t0, int flush)
{
	if (b->buf == NULL)   /* the job has printed nothing yet */
		return;
	for (;;) {
		char *start = b->buf + b->line_start;
		char *nl = memchr(start, '\n', b->len - b->line_start);
		if (nl == NULL) {
			if (flush && b->line_start < b->len) {
				fprintf(stderr, "[%7.1fs] %s\n", hl_now() - t0, start);
				b->line_start = b->len;
			}
			return;
		}
		fprintf(stderr, "[%7.1fs] %.*s\n", hl_now() - t0, (int)(nl - start), start);
		b->line_start = (size_t)(nl - b->buf) + 1;
	}
}

static void end_group(pid_t pgid, int sig)
{
	if (kill(-pgid, sig) < 0 && errno == ESRCH)
		return;
}

/* The parent's view of the running job. */
typedef struct {
	pid_t pid;               /* argv[0], and its process group */
	int out, logfd;          /* the job's stdout and stderr (a pipe); log.txt */
	double t0, term_at;      /* start; when we sent SIGTERM (0: not yet) */
	int status, reaped;      /* of argv[0], once waitpid returned it */
	logbuf b;                /* the whole log, in memory */
} job;

/* log.txt, new: never through a link planted in a reused run directory,
 * the old log.txt (or link) goes, and a new file is made, or nothing. */
static int open_log(const char *path, char *err, size_t errlen)
{
	if (unlink(path) < 0 && errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return fd;
}

/* The ending signals set got_signal (the poll loop ends the job); old
 * keeps the previous actions for restore_signals. */
static void catch_signals(struct sigaction old[NSIGS])
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	got_signal = 0;
	for (size_t i = 0; i < NSIGS; i++)
		sigaction(ending_signals[i], &sa, &old[i]);
}

/* The child, after fork: a group of its own, the default signal actions,
 * SIGTERM when hetlaunch dies, stdin from /dev/null, stdout and stderr into
 * out; then execvp, or its errno written to efd and exit 127. */
static _Noreturn void exec_child(const hl_spawn_opts *o, int out, int efd, pid_t parent)
{
	setpgid(0, 0);
	for (size_t i = 0; i < NSIGS; i++)
		signal(ending_signals[i], SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	/* hetlaunch killed outright: mpiexec ends the job as on Ctrl-C.
	 * A parent already gone before prctl would never send it. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
		_exit(127);
	int devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0)
		dup2(devnull, 0);
	dup2(out, 1);
	dup2(out, 2);
	if (o->cwd && chdir(o->cwd) < 0) {
		int e = errno;
		if (write(efd, &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	for (char *const *e = o->env; e && *e; e++)
		putenv(*e);
	execvp(o->argv[0], o->argv);
	int e = errno;
	if (write(efd, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

/* A signal, then the timeout, start the end (SIGTERM to the group); past
 * the grace period after it, SIGKILL. */
static void end_if_due(const hl_spawn_opts *o, hl_spawn_result *res, job *w)
{
	if (got_signal && !res->interrupted) {
		res->interrupted = got_signal;
		fprintf(stderr, "hetlaunch: %s: ending the job\n",
		        got_signal == SIGINT ? "interrupted" : got_signal == SIGHUP ? "hung up"
		        : got_signal == SIGTERM ? "terminated" : strsignal(got_signal));
		end_group(w->pid, SIGTERM);
		w->term_at = hl_now();
	}
	/* Past the timeout only if the job is still running: hetlaunch
	 * stopped (SIGSTOP, Ctrl-Z) while the job ended finds it done. */
	if (o->timeout > 0 && !res->timed_out && !res->interrupted &&
	    hl_now() - w->t0 > o->timeout && !w->reaped &&
	    waitpid(w->pid, &w->status, WNOHANG) == w->pid) {
		w->reaped = 1;
		end_group(w->pid, SIGTERM);   /* as below: strays get the grace period */
		w->term_at = w->term_at > 0 ? w->term_at : hl_now();
	}
	if (o->timeout > 0 && !res->timed_out && !res->interrupted && !w->reaped &&
	    hl_now() - w->t0 > o->timeout) {
		res->timed_out = 1;
		fprintf(stderr, "hetlaunch: the job ran longer than timeout: %g s; ending it\n",
		        o->timeout);
		end_group(w->pid, SIGTERM);
		w->term_at = hl_now();
	}
	if (w->term_at > 0 && hl_now() - w->term_at > GRACE_S)
		end_group(w->pid, SIGKILL);
}

/* Up to 200 ms for the job's output, into log.txt, the log and stderr.
 * 1: some was read; 0: none yet; -1: the pipe is done (every writer gone). */
static int pump_output(const hl_spawn_opts *o, job *w)
{
	struct pollfd p = { w->out, POLLIN, 0 };
	int k = poll(&p, 1, 200);
	if (k > 0) {
		char chunk[8192];
		ssize_t n = read(w->out, chunk, sizeof chunk);
		if (n > 0) {
			if (write(w->logfd, chunk, (size_t)n) != n) {
				/* keep going: the in-memory log still has it */
			}
			log_append(&w->b, chunk, (size_t)n);
			if (o->echo)
				echo_lines(&w->b, w->t0, 0);
			return 1;
		}
		if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
			return -1;   /* every writer is gone */
	} else if (k < 0 && errno != EINTR) {
		return -1;
	}
	return 0;
}

/* Until the output pipe is done.  A rank that keeps the pipe open after
 * mpiexec died must not keep us here: once argv[0] has been reaped, give
 * the rest a moment. */
static void watch_job(const hl_spawn_opts *o, hl_spawn_result *res, job *w)
{
	for (;;) {
		end_if_due(o, res, w);
		int k = pump_output(o, w);
		if (k < 0)
			break;
		if (k > 0)
			continue;
		if (!w->reaped && waitpid(w->pid, &w->status, WNOHANG) == w->pid) {
			w->reaped = 1;
			end_group(w->pid, SIGTERM);
			w->term_at = w->term_at > 0 ? w->term_at : hl_now();
		}
	}
}

/* argv[0] reaped, the strays killed, the signals restored; the result. */
static int finish_job(const hl_spawn_opts *o, hl_spawn_result *res, job *w,
                      const struct sigaction old[NSIGS])
{
	close(w->out);
	if (!w->reaped)
		while (waitpid(w->pid, &w->status, 0) < 0 && errno == EINTR)
			;
	/* Whatever is left of the group (stray ranks) goes too. */
	end_group(w->pid, SIGKILL);
	if (o->echo)
		echo_lines(&w->b, w->t0, 1);
	close(w->logfd);
	restore_signals(old);
	res->elapsed = hl_now() - w->t0;
	if (WIFEXITED(w->status))
		res->exit_code = WEXITSTATUS(w->status);
	else if (WIFSIGNALED(w->status))
		res->signal = WTERMSIG(w->status);
	if (w->b.buf == NULL)
		log_append(&w->b, "", 0);
	res->log = w->b.buf;
	return 0;
}

/* log.txt, the pipes and the signals, then fork: the child execs argv, the
 * parent watches the job until its output ends. */
int hl_spawn(const hl_spawn_opts *o, hl_spawn_result *res, char *err, size_t errlen)
{
	memset(res, 0, sizeof *res);
	res->exit_code = -1;
	job w = { .logfd = open_log(o->log_path, err, errlen) };
	if (w.logfd < 0)
		return -1;
	int pfd[2] = { -1, -1 }, efd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0 || pipe2(efd, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		if (pfd[0] >= 0) {   /* the second pipe failed: the first is ours */
			close(pfd[0]);
			close(pfd[1]);
		}
		close(w.logfd);
		return -1;
	}
	struct sigaction old[NSIGS];
	catch_signals(old);
	pid_t parent = getpid();

	w.t0 = hl_now();
	w.pid = fork();
	if (w.pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(w.logfd);
		close(pfd[0]); close(pfd[1]); close(efd[0]); close(efd[1]);
		restore_signals(old);
		return -1;
	}
	if (w.pid == 0)
		exec_child(o, pfd[1], efd[1], parent);
	setpgid(w.pid, w.pid);   /* also here: no race with the kill below */
	close(pfd[1]);
	close(efd[1]);
	int child_errno = 0;
	if (read(efd[0], &child_errno, sizeof child_errno) == (ssize_t)sizeof child_errno)
		res->exec_failed = child_errno;
	close(efd[0]);
	w.out = pfd[0];
	watch_job(o, res, &w);
	return finish_job(o, res, &w, old);
}

void hl_spawn_result_free(hl_spawn_result *res)
{
	free(res->log);
	res->log = NULL;
}
