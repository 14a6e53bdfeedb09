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
 * set a flag and write to a self-pipe; the one loop polls that pipe and
 * the job's output, and reaps the job without blocking, so the timeout and
 * the signals work whatever the launcher does with its output (it may send
 * it elsewhere and close the pipe at once).  On a signal or the timeout it
 * sends SIGTERM to the group, waits a grace period, then SIGKILL; and a
 * SIGKILL of hetlaunch, which no handler sees, reaches mpiexec as its
 * parent-death signal (PR_SET_PDEATHSIG).  What a SIGKILL leaves in
 * /dev/shm is swept at the next start (emulation.c).
 *
 * hetlaunch is the job's subreaper (PR_SET_CHILD_SUBREAPER): a process the
 * job orphans, even in a session of its own (setsid) and ignoring SIGTERM,
 * is reparented to hetlaunch instead of init, and once the job's own
 * process has ended every descendant left is a stray: SIGTERM, the grace
 * period, SIGKILL.  Out of reach: what runs on other hosts (only mpiexec's
 * own SIGTERM handling ends the remote proxies), what a daemon started on
 * the job's request (sshd, systemd, slurmstepd), and everything once
 * hetlaunch itself is SIGKILLed (the orphans then go to init).
 */
#define _GNU_SOURCE
#include <dirent.h>
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

#include "joblog.h"
#include "spawn.h"
#include "util/now.h"

#define GRACE_S 3.0
#define LINGER_S 1.0   /* then the pipe of a job that ended is given up */
#define CHUNK (64 * 1024)
#define MAX_STRAYS 4096

/* The old actions of the signals caught while a child runs. */
typedef struct {
	struct sigaction old[8];
} hl_signals;

static volatile sig_atomic_t got_signal;
static int wake[2] = { -1, -1 };   /* the self-pipe: a signal wakes the poll */
static int hup_ignored;            /* nohup: SIGHUP was ignored when we started */

static void on_signal(int sig)
{
	int e = errno;
	if (sig != SIGCHLD)
		got_signal = sig;
	unsigned char c = (unsigned char)sig;
	if (write(wake[1], &c, 1) < 0) {
		/* full: a wake-up is pending anyway */
	}
	errno = e;
}

/* What would end hetlaunch ends the job first (SIGHUP: the terminal went
 * away; SIGQUIT: Ctrl-\); SIGCHLD only wakes the loop. */
static const int ending_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCHLD };
#define NSIGS (sizeof ending_signals / sizeof ending_signals[0])
_Static_assert(NSIGS <= sizeof ((hl_signals *)0)->old / sizeof (struct sigaction),
               "hl_signals holds every caught signal");

static int signals_catch(hl_signals *s)
{
	if (wake[0] < 0 && pipe2(wake, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	got_signal = 0;
	for (size_t i = 0; i < NSIGS; i++) {
		sigaction(ending_signals[i], NULL, &s->old[i]);
		/* nohup (or a parent) ignores SIGHUP: a logout must not end the
		 * run.  SIGINT and SIGQUIT, which a shell ignores in its
		 * background jobs, still end it: scripts `kill -INT` them. */
		if (ending_signals[i] == SIGHUP && s->old[i].sa_handler == SIG_IGN) {
			hup_ignored = 1;
			continue;
		}
		sigaction(ending_signals[i], &sa, NULL);
	}
	return 0;
}

static void signals_restore(const hl_signals *s)
{
	for (size_t i = 0; i < NSIGS; i++)
		sigaction(ending_signals[i], &s->old[i], NULL);
}

static void drain_wake(void)
{
	unsigned char buf[64];
	while (read(wake[0], buf, sizeof buf) > 0)
		;
}

static void end_group(pid_t pgid, int sig)
{
	if (kill(-pgid, sig) < 0 && errno == ESRCH)
		return;
}

/* ---- what the job left behind -------------------------------------------- */

/* The children of every thread of pid, appended to v[*n] (up to max). */
static void children_of(pid_t pid, pid_t *v, size_t *n, size_t max)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
		if (e->d_name[0] == '.')
			continue;
		char kids[400];
		snprintf(kids, sizeof kids, "%s/%s/children", path, e->d_name);
		FILE *f = fopen(kids, "re");
		int k;
		while (f && *n < max && fscanf(f, "%d", &k) == 1)
			v[(*n)++] = k;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
}

/* sig to every descendant of hetlaunch; returns how many.  hetlaunch is
 * their subreaper (hl_spawn): whatever the job started and orphaned, in
 * whatever session or group, is still below us, so it is a stray of the
 * job once the job's own process has been reaped. */
static size_t signal_descendants(int sig)
{
	pid_t *v = malloc(MAX_STRAYS * sizeof *v);
	size_t n = 0;
	if (v == NULL)
		return 0;
	children_of(getpid(), v, &n, MAX_STRAYS);
	for (size_t i = 0; i < n; i++)   /* v grows as it is walked */
		children_of(v[i], v, &n, MAX_STRAYS);
	for (size_t i = 0; i < n; i++)
		kill(v[i], sig);
	free(v);
	return n;
}

/* SIGKILL to what is left, reaped (they are our children now); a second
 * at most for a process that takes its time to die. */
static void kill_strays(void)
{
	double t0 = hl_now();
	size_t n;
	while ((n = signal_descendants(SIGKILL)) > 0 && hl_now() - t0 < 1.0) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/* ---- the job ------------------------------------------------------------- */

/* The parent's view of the running job. */
typedef struct {
	pid_t pid;               /* argv[0], and its process group */
	int out;                 /* the job's stdout and stderr (a pipe); -1: done */
	double t0, term_at;      /* start; when we sent SIGTERM (0: not yet) */
	double reaped_at;
	int status, reaped;      /* of argv[0], once waitpid returned it */
	hl_joblog log;           /* log.txt, the echo, the kept lines */
} job;

/* In a child: the default actions, but an ignored SIGHUP stays ignored
 * (nohup covers what hetlaunch starts too). */
static void default_signals(void)
{
	for (size_t i = 0; i < NSIGS; i++)
		signal(ending_signals[i], ending_signals[i] == SIGHUP && hup_ignored ? SIG_IGN
		                                                                      : SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
}

/* The child, after fork: a group of its own, the default signal actions, SIGTERM when
 * hetlaunch dies, stdin from /dev/null, stdout and stderr into out; then
 * execvp, or its errno written to efd and exit 127. */
static _Noreturn void exec_child(const hl_spawn_opts *o, int out, int efd, pid_t parent)
{
	setpgid(0, 0);
	default_signals();
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

/* SIGTERM to the group, and to the strays once argv[0] is gone; SIGKILL
 * to both past the grace period. */
static void start_end(job *w)
{
	end_group(w->pid, SIGTERM);
	if (w->reaped)
		signal_descendants(SIGTERM);
	w->term_at = hl_now();
}

/* argv[0] ended: reaped, and what is left of its group and its strays get
 * SIGTERM and the grace period. */
static void reap(job *w)
{
	if (w->reaped || waitpid(w->pid, &w->status, WNOHANG) != w->pid)
		return;
	w->reaped = 1;
	w->reaped_at = hl_now();
	double term_at = w->term_at;
	start_end(w);
	if (term_at > 0)
		w->term_at = term_at;
}

/* A signal, then the timeout, start the end; past the grace period after
 * it, SIGKILL.  The timeout counts only while argv[0] runs: hetlaunch
 * stopped (SIGSTOP, Ctrl-Z) while the job ended finds it done (reap runs
 * first). */
static void end_if_due(const hl_spawn_opts *o, hl_spawn_result *res, job *w)
{
	if (got_signal && !res->interrupted) {
		res->interrupted = got_signal;
		fprintf(stderr, "hetlaunch: %s: ending the job\n",
		        got_signal == SIGINT ? "interrupted" : got_signal == SIGHUP ? "hung up"
		        : got_signal == SIGTERM ? "terminated" : strsignal(got_signal));
		start_end(w);
	}
	if (o->timeout > 0 && !res->timed_out && !res->interrupted && !w->reaped &&
	    hl_now() - w->t0 > o->timeout) {
		res->timed_out = 1;
		fprintf(stderr, "hetlaunch: the job ran longer than timeout: %g s; ending it\n",
		        o->timeout);
		start_end(w);
	}
	if (w->term_at > 0 && hl_now() - w->term_at > GRACE_S) {
		end_group(w->pid, SIGKILL);
		if (w->reaped)
			signal_descendants(SIGKILL);
	}
}

/* Up to 200 ms: a signal (the self-pipe, SIGCHLD included) or the job's
 * output, which goes to the log.  The pipe's end closes it (out = -1);
 * the job's end does not depend on it. */
static void wait_io(job *w)
{
	struct pollfd p[2] = { { wake[0], POLLIN, 0 }, { w->out, POLLIN, 0 } };
	if (poll(p, w->out >= 0 ? 2 : 1, 200) <= 0)
		return;
	if (p[0].revents)
		drain_wake();
	if (w->out < 0 || !p[1].revents)
		return;
	static char chunk[CHUNK];
	ssize_t n = read(w->out, chunk, sizeof chunk);
	if (n > 0) {
		hl_joblog_add(&w->log, chunk, (size_t)n);
	} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
		close(w->out);   /* every writer is gone */
		w->out = -1;
	}
}

/* The watch's look at the job; its message, if it has one, ends it. */
static void watched(const hl_spawn_opts *o, hl_spawn_result *res, job *w)
{
	char *msg = o->watch(o->watch_ctx, hl_now() - w->t0);
	if (msg == NULL)
		return;
	if (w->log.llen > 0)
		hl_joblog_add(&w->log, "\n", 1);   /* after the job's unfinished line */
	hl_joblog_add(&w->log, msg, strlen(msg));
	if (!o->echo)
		fputs(msg, stderr);
	free(msg);
	res->stalled = 1;
	start_end(w);
}

/* Until argv[0] has been reaped and its output has ended; a pipe that a
 * process out of our reach keeps open is given up LINGER_S after the
 * strays' grace period. */
static void watch_job(const hl_spawn_opts *o, hl_spawn_result *res, job *w)
{
	for (;;) {
		reap(w);
		end_if_due(o, res, w);
		if (w->reaped && (w->out < 0 || hl_now() - w->reaped_at > GRACE_S + LINGER_S))
			return;
		wait_io(w);
		if (o->watch && !w->reaped && !res->stalled && !res->interrupted && !res->timed_out)
			watched(o, res, w);
	}
}

/* The strays killed, the signals restored; the result. */
static int finish_job(hl_spawn_result *res, job *w, const hl_signals *old)
{
	if (w->out >= 0)
		close(w->out);
	/* Whatever is left of the group and below us (stray ranks) goes too. */
	end_group(w->pid, SIGKILL);
	kill_strays();
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	res->log_error = hl_joblog_close(&w->log, &res->log);
	signals_restore(old);
	res->elapsed = hl_now() - w->t0;
	if (WIFEXITED(w->status))
		res->exit_code = WEXITSTATUS(w->status);
	else if (WIFSIGNALED(w->status))
		res->signal = WTERMSIG(w->status);
	if (res->log == NULL)
		res->log = strdup("");
	return 0;
}

/* The pipes, the signals, the subreaper. */
static int prepare(int pfd[2], int efd[2], hl_signals *old, char *err, size_t errlen)
{
	pfd[0] = pfd[1] = efd[0] = efd[1] = -1;
	if (pipe2(pfd, O_CLOEXEC) < 0 || pipe2(efd, O_CLOEXEC) < 0 || signals_catch(old) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		for (int i = 0; i < 2; i++) {
			if (pfd[i] >= 0)
				close(pfd[i]);
			if (efd[i] >= 0)
				close(efd[i]);
		}
		return -1;
	}
	/* Orphans of the job (a daemon, a setsid'd child) become ours, so
	 * that the end of the job can find and end them (Linux). */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	return 0;
}

/* A job that could not be started: log.txt closed, the signals back. */
static void unprepare(hl_joblog *log, const hl_signals *old)
{
	char *kept;
	hl_joblog_close(log, &kept);
	free(kept);
	if (old) {
		prctl(PR_SET_CHILD_SUBREAPER, 0);
		signals_restore(old);
	}
}

/* log.txt, the pipes and the signals, then fork: the child execs argv, the
 * parent watches the job until it and its output have ended. */
int hl_spawn(const hl_spawn_opts *o, hl_spawn_result *res, char *err, size_t errlen)
{
	memset(res, 0, sizeof *res);
	res->exit_code = -1;
	job w = { .out = -1 };
	if (hl_joblog_open(&w.log, o->log_path, o->echo, err, errlen) < 0)
		return -1;
	int pfd[2], efd[2];
	hl_signals old;
	if (prepare(pfd, efd, &old, err, errlen) < 0) {
		unprepare(&w.log, NULL);
		return -1;
	}
	pid_t parent = getpid();
	w.t0 = w.log.t0 = hl_now();
	w.pid = fork();
	if (w.pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(pfd[0]); close(pfd[1]); close(efd[0]); close(efd[1]);
		unprepare(&w.log, &old);
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
	return finish_job(res, &w, &old);
}

/* ---- a helper with its input and output in memory ---------------------- */

typedef struct {
	pid_t pid;
	int in, out;             /* its stdin, its stdout (our ends); -1: closed */
	const char *data;        /* what it reads */
	size_t len, off;
	char *buf;               /* what it wrote */
	size_t blen, max;
	int status, reaped, overflow;
} filter;

/* The helper, after fork: a group of its own, killed with hetlaunch,
 * stdin and stdout the pipes, stderr discarded. */
static _Noreturn void exec_filter(char *const argv[], int in, int out, pid_t parent)
{
	setpgid(0, 0);
	default_signals();
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(126);
	int devnull = open("/dev/null", O_WRONLY);
	dup2(in, 0);
	dup2(out, 1);
	if (devnull >= 0)
		dup2(devnull, 2);
	execvp(argv[0], argv);
	_exit(errno == ENOENT ? 127 : 126);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Its output, into buf (up to max: more is an overflow). */
static void filter_read(filter *f)
{
	if (f->blen == f->max) {
		f->overflow = 1;
		return;
	}
	if (f->buf == NULL && (f->buf = malloc(f->max)) == NULL) {
		f->overflow = 1;
		return;
	}
	ssize_t n = read(f->out, f->buf + f->blen, f->max - f->blen);
	if (n > 0)
		f->blen += (size_t)n;
	else if (n == 0 || (errno != EINTR && errno != EAGAIN))
		close_fd(&f->out);
}

/* Up to 100 ms: a signal, its input written, its output read. */
static void filter_io(filter *f)
{
	struct pollfd p[3] = { { wake[0], POLLIN, 0 }, { f->in, POLLOUT, 0 }, { f->out, POLLIN, 0 } };
	if (poll(p, 3, 100) <= 0)   /* a negative fd is skipped */
		return;
	if (p[0].revents)
		drain_wake();
	if (f->in >= 0 && p[1].revents) {
		ssize_t n = write(f->in, f->data + f->off, f->len - f->off);
		if (n > 0)
			f->off += (size_t)n;
		if ((n < 0 && errno != EINTR && errno != EAGAIN) || f->off == f->len)
			close_fd(&f->in);   /* all written, or it stopped reading */
	}
	if (f->out >= 0 && p[2].revents)
		filter_read(f);
}

/* Until it has ended and its output with it: 0; -2: past the timeout or
 * too much output (killed); -3: a signal (killed). */
static int filter_wait(filter *f, double timeout)
{
	double t0 = hl_now();
	for (;;) {
		if (!f->reaped && waitpid(f->pid, &f->status, WNOHANG) == f->pid) {
			f->reaped = 1;
			end_group(f->pid, SIGKILL);   /* nothing of it may keep the pipe */
		}
		if (got_signal || f->overflow || hl_now() - t0 > timeout) {
			end_group(f->pid, SIGKILL);
			while (!f->reaped && waitpid(f->pid, &f->status, 0) < 0 && errno == EINTR)
				;
			f->reaped = 1;
			return got_signal ? -3 : -2;
		}
		if (f->reaped && f->out < 0)
			return 0;
		filter_io(f);
	}
}

static int filter_start(filter *f, char *const argv[])
{
	int ip[2], op[2] = { -1, -1 };
	if (pipe2(ip, O_CLOEXEC) < 0 || pipe2(op, O_CLOEXEC) < 0) {
		if (op[0] < 0 && ip[0] >= 0) {
			close(ip[0]);
			close(ip[1]);
		}
		return -1;
	}
	pid_t parent = getpid();
	f->pid = fork();
	if (f->pid == 0)
		exec_filter(argv, ip[0], op[1], parent);
	close(ip[0]);
	close(op[1]);
	f->in = ip[1];
	f->out = op[0];
	if (f->pid < 0) {
		close_fd(&f->in);
		close_fd(&f->out);
		return -1;
	}
	setpgid(f->pid, f->pid);
	fcntl(f->in, F_SETFL, O_NONBLOCK);
	return 0;
}

int hl_spawn_filter(char *const argv[], const char *in, size_t inlen, size_t outmax,
                    double timeout, char **out, size_t *outlen)
{
	*out = NULL;
	*outlen = 0;
	filter f = { .in = -1, .out = -1, .data = in, .len = inlen, .max = outmax };
	hl_signals old;
	if (signals_catch(&old) < 0)
		return -1;
	int rc = filter_start(&f, argv) < 0 ? -1 : filter_wait(&f, timeout);
	close_fd(&f.in);
	close_fd(&f.out);
	int sig = got_signal;
	signals_restore(&old);
	if (rc == -3) {   /* the helper is gone: the signal ends hetlaunch as it would have */
		free(f.buf);
		signal(sig, SIG_DFL);
		raise(sig);
		return -1;
	}
	if (rc == 0 && WIFEXITED(f.status) && WEXITSTATUS(f.status) == 127)
		rc = 1;
	else if (rc == 0 && !(WIFEXITED(f.status) && WEXITSTATUS(f.status) == 0))
		rc = -1;
	*out = f.buf;
	*outlen = f.blen;
	return rc;
}

void hl_spawn_result_free(hl_spawn_result *res)
{
	free(res->log);
	res->log = NULL;
}
