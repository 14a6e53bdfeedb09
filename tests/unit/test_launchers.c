/*
 * test_launchers.c -- launcher/launch/slurm.c and launcher/launch/openmpi.c: the srun
 * and mpirun commands made from run.c's Hydra command, when each is used,
 * and the failure messages read from their logs.  Run for real by
 * tests/e2e/slurm_test.sh, tests/e2e/openmpi_test.sh and tests/e2e/multihost_test.sh.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <unistd.h>

#include "launch/openmpi.h"
#include "launch/slurm.h"

static char *hydra[] = {
	"mpiexec.hydra", "-f", "/run/hosts.mpich", "-n", "3",
	"-genv", "LD_PRELOAD", "/opt/hl/lib/hetlaunch/libhetlaunch-rt.so",
	"-genv", "HETLAUNCH_PLACEMENT", "1",
	"-genv", "HETLAUNCH_NB", "16",
	"/usr/bin/xdlu", "arg", NULL
};

/* The words of v joined by spaces. */
static char *joined(char **v)
{
	size_t len = 1;
	for (size_t i = 0; v[i]; i++)
		len += strlen(v[i]) + 1;
	char *s = calloc(len, 1);
	assert_non_null(s);
	for (size_t i = 0; v[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, v[i]);
	}
	return s;
}

static void srun_command(void **state)
{
	(void)state;
	char **argv = NULL, **env = NULL;
	assert_int_equal(hl_slurm_argv(hydra, "/run/hosts.slurm", NULL, &argv, &env), 0);
	char *a = joined(argv), *e = joined(env);
	assert_string_equal(a, "srun --mpi=pmi2 --distribution=arbitrary --overcommit --ntasks=3 "
	                       "--kill-on-bad-exit=1 --export=ALL,LD_PRELOAD=/opt/hl/lib/hetlaunch/libhetlaunch-rt.so "
	                       "/usr/bin/xdlu arg");
	/* srun starts each rank: a rank's SLURMD_NODENAME is its own. */
	assert_string_equal(e, "HETLAUNCH_PLACEMENT=slurm HETLAUNCH_NB=16 "
	                       "SLURM_HOSTFILE=/run/hosts.slurm");
	free(a);
	free(e);
	hl_strv_free(argv);
	hl_strv_free(env);
}

static void srun_refuses(void **state)
{
	(void)state;
	char **argv = NULL, **env = NULL;
	char *comma[] = { "mpiexec.hydra", "-n", "2", "-genv", "LD_PRELOAD", "/a,b/libhetlaunch-rt.so",
	                  "prog", NULL };
	assert_int_equal(hl_slurm_argv(comma, "h", NULL, &argv, &env), -1);   /* --export splits at commas */
	char *rankmap[] = { "mpiexec.hydra", "-f", "h", "-rankmap", "0,1", "-n", "2", "prog", NULL };
	assert_int_equal(hl_slurm_argv(rankmap, "h", NULL, &argv, &env), -1);
	char *noprog[] = { "mpiexec.hydra", "-n", "2", NULL };
	assert_int_equal(hl_slurm_argv(noprog, "h", NULL, &argv, &env), -1);
	assert_null(argv);
	assert_null(env);
}

static void slurm_wanted(void **state)
{
	(void)state;
	hl_config cfg;
	memset(&cfg, 0, sizeof cfg);
	unsetenv("SLURM_JOB_ID");
	unsetenv("HETLAUNCH_SLURM");
	assert_false(hl_slurm_wanted(&cfg));
	setenv("SLURM_JOB_ID", "42", 1);
	assert_true(hl_slurm_wanted(&cfg));
	cfg.emulate = 1;   /* every rank here */
	assert_false(hl_slurm_wanted(&cfg));
	cfg.emulate = 0;
	cfg.mpi = HL_MPI_OPENMPI;   /* mpirun */
	assert_false(hl_slurm_wanted(&cfg));
	cfg.mpi = HL_MPI_MPICH;
	char *mine[] = { "mpiexec.hydra", NULL };
	cfg.mpiexec = mine;   /* the user's launcher */
	cfg.nmpiexec = 1;
	assert_false(hl_slurm_wanted(&cfg));
	cfg.mpiexec = NULL;
	setenv("HETLAUNCH_SLURM", "0", 1);
	assert_false(hl_slurm_wanted(&cfg));
	unsetenv("HETLAUNCH_SLURM");
	unsetenv("SLURM_JOB_ID");
}

static void cancelled(void **state)
{
	(void)state;
	char msg[512];
	setenv("SLURM_JOB_ID", "7", 1);
	const char *log = "srun: got SIGCONT\n"
	                  "slurmstepd-n1: error: *** STEP 7.0 ON n1 CANCELLED AT 2026-11-23T03:33:13 ***\n"
	                  "srun: error: n3: task 0: Terminated\n";
	assert_true(hl_slurm_cancelled(log, 0, msg, sizeof msg));
	assert_string_equal(msg, "the Slurm job 7 was cancelled (scancel, or its time limit): "
	                         "slurmstepd-n1: error: *** STEP 7.0 ON n1 CANCELLED AT "
	                         "2026-11-23T03:33:13 ***");
	assert_true(hl_slurm_cancelled("", SIGTERM, msg, sizeof msg));
	assert_non_null(strstr(msg, "the Slurm job 7 was cancelled"));
	assert_false(hl_slurm_cancelled("", SIGINT, msg, sizeof msg));   /* Ctrl-C is the user's */
	unsetenv("SLURM_JOB_ID");
	assert_false(hl_slurm_cancelled("", SIGTERM, msg, sizeof msg));  /* not in Slurm */
}

static void mpirun_command(void **state)
{
	(void)state;
	hl_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.mpi = HL_MPI_OPENMPI;
	unsetenv("SLURM_JOB_ID");
	char **argv = NULL;
	assert_int_equal(hl_openmpi_argv(hydra, 1, &cfg, "/run/hosts.openmpi", &argv), 0);
	char *a = joined(argv);
	const char *root = geteuid() == 0 ? "--allow-run-as-root " : "";
	char want[1024];
	snprintf(want, sizeof want, "mpirun %s-np 3 --rankfile /run/hosts.openmpi --mca "
	         "mpi_yield_when_idle 1 -x LD_PRELOAD=/opt/hl/lib/hetlaunch/libhetlaunch-rt.so -x "
	         "HETLAUNCH_PLACEMENT=1 -x HETLAUNCH_NB=16 /usr/bin/xdlu arg", root);
	assert_string_equal(a, want);
	free(a);
	hl_strv_free(argv);

	/* Emulation (no host file); the user's prefix; in a Slurm allocation. */
	char *emu[] = { "mpiexec", "-x", "-n", "2", "prog", NULL };   /* "-x": the user's word */
	char *mine[] = { "mpiexec", "-x", NULL };
	cfg.mpiexec = mine;
	cfg.nmpiexec = 2;
	assert_int_equal(hl_openmpi_argv(emu, 2, &cfg, "r", &argv), 0);
	a = joined(argv);
	snprintf(want, sizeof want, "mpiexec -x %s-np 2 --oversubscribe --bind-to none --mca "
	         "mpi_yield_when_idle 1 prog", root);
	assert_string_equal(a, want);
	free(a);
	hl_strv_free(argv);
	cfg.mpiexec = NULL;
	setenv("SLURM_JOB_ID", "9", 1);
	assert_int_equal(hl_openmpi_argv(hydra, 1, &cfg, "r", &argv), 0);
	a = joined(argv);
	assert_non_null(strstr(a, " --rankfile r --oversubscribe "));
	assert_non_null(strstr(a, " -x HETLAUNCH_PLACEMENT=slurm "));
	free(a);
	hl_strv_free(argv);
	unsetenv("SLURM_JOB_ID");
}

static void mpirun_failures(void **state)
{
	(void)state;
	char msg[512];
	assert_true(hl_openmpi_failure("----\nMPI_ABORT was invoked on rank 1 in communicator "
	                               "MPI_COMM_WORLD\nwith errorcode 3.\n", msg, sizeof msg));
	assert_string_equal(msg, "a rank called MPI_Abort: MPI_ABORT was invoked on rank 1 in "
	                         "communicator MPI_COMM_WORLD");
	assert_true(hl_openmpi_failure("mpirun noticed that process rank 1 with PID 0 on node vm "
	                               "exited on signal 11 (Segmentation fault).\n", msg, sizeof msg));
	assert_non_null(strstr(msg, "a rank died: mpirun noticed that process rank 1"));
	assert_true(hl_openmpi_failure("[vm:1] [[1524,0],0] ORTE_ERROR_LOG: Data unpack would read "
	                               "past end of buffer in file ../../../orte/util/show_help.c "
	                               "at line 507\n", msg, sizeof msg));
	assert_non_null(strstr(msg, "Open MPI lost its notice"));
	assert_false(hl_openmpi_failure("PASSED\n", msg, sizeof msg));
	assert_false(hl_openmpi_failure(NULL, msg, sizeof msg));
	/* the rank of the notice, matched against the runtime's record */
	int rank = -1;
	const char *log = "x\nMPI_ABORT was invoked on rank 12 in communicator MPI_COMM_WORLD\n";
	assert_ptr_equal(hl_openmpi_abort_line(log, &rank), log + 2);
	assert_int_equal(rank, 12);
	assert_null(hl_openmpi_abort_line("MPI_Abort(MPI_COMM_WORLD, 3) - process 1\n", &rank));
}

static void programs(void **state)
{
	(void)state;
	char out[4096], err[256];
	const hl_kernel_def *stock = hl_kernel_row(HL_KERNEL_LU, 1);
	assert_int_equal(hl_openmpi_program(stock, out, sizeof out, err, sizeof err), 0);
	assert_string_equal(out, "/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests/xdlu");
	const hl_kernel_def *mm = hl_kernel_row(HL_KERNEL_MM, 1);
	assert_int_equal(hl_openmpi_program(mm, out, sizeof out, err, sizeof err), 0);
	assert_string_equal(out, "/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests/PBLAS/TIMING/dpb3tim");
	/* The driver: lib/hetlaunch/openmpi/hl-driver beside this binary
	 * (build/.../tests/ -> build/.../lib/...): found or not, that path. */
	const hl_kernel_def *drv = hl_kernel_row(HL_KERNEL_LU, 0);
	int rc = hl_openmpi_program(drv, out, sizeof out, err, sizeof err);
	assert_non_null(strstr(rc == 0 ? out : err, "lib/hetlaunch/openmpi/hl-driver"));
	const hl_kernel_def *exec = hl_kernel_row(HL_KERNEL_EXEC, 0);
	assert_int_equal(hl_openmpi_program(exec, out, sizeof out, err, sizeof err), -1);
	hl_config cfg;
	memset(&cfg, 0, sizeof cfg);
	assert_string_equal(hl_mpi_runtime(&cfg), "lib/hetlaunch/libhetlaunch-rt.so");
	cfg.mpi = HL_MPI_OPENMPI;
	assert_string_equal(hl_mpi_runtime(&cfg), "lib/hetlaunch/openmpi/libhetlaunch-rt.so");
}

/* A heterogeneous job is refused, with the reason; a plain job is not. */
static void het_job_refused(void **state)
{
	(void)state;
	char msg[512];
	unsetenv("SLURM_HET_SIZE");
	assert_int_equal(hl_slurm_het_refused(msg, sizeof msg), 0);
	setenv("SLURM_HET_SIZE", "1", 1);
	assert_int_equal(hl_slurm_het_refused(msg, sizeof msg), 0);
	setenv("SLURM_HET_SIZE", "2", 1);
	assert_int_equal(hl_slurm_het_refused(msg, sizeof msg), 1);
	assert_non_null(strstr(msg, "heterogeneous Slurm job (SLURM_HET_SIZE=2)"));
	assert_non_null(strstr(msg, "SLURM_HOSTFILE is refused"));
	assert_true(strlen(msg) < sizeof msg - 1);   /* not cut */
	unsetenv("SLURM_HET_SIZE");
}

/* Inside an allocation the plan's hosts must be its nodes: the missing
 * ones named in list order, once each; localhost, emulate: and mpiexec:
 * are not checked. */
static void allocation(void **state)
{
	(void)state;
	hl_machine m[4] = { { .name = "a.0", .host = "old1" }, { .name = "a.1", .host = "old1" },
		            { .name = "b", .host = "new2" }, { .name = "c", .host = "localhost" } };
	hl_config cfg = { .file = "x.yaml", .machines = m, .nmachines = 4 };
	size_t ranks[5] = { 2, 0, 1, 3, 2 };
	char err[512];
	unsetenv("SLURM_JOB_NODELIST");
	assert_int_equal(hl_slurm_check_allocation(&cfg, ranks, 5, err, sizeof err), 0);
	setenv("SLURM_JOB_NODELIST", "c[001-010]", 1);
	assert_int_equal(hl_slurm_check_allocation(&cfg, ranks, 5, err, sizeof err), 2);
	assert_non_null(strstr(err, "x.yaml: the Slurm allocation (SLURM_JOB_NODELIST=c[001-010]) "
	                            "lacks the plan's hosts: old1, new2 (2 hosts"));
	setenv("SLURM_JOB_NODELIST", "old1,new[1-2]", 1);
	assert_int_equal(hl_slurm_check_allocation(&cfg, ranks, 5, err, sizeof err), 0);
	setenv("SLURM_JOB_NODELIST", "old1", 1);
	assert_int_equal(hl_slurm_check_allocation(&cfg, ranks, 5, err, sizeof err), 2);
	assert_non_null(strstr(err, "hosts: new2 (1 host:"));
	assert_int_equal(hl_slurm_check_allocation(&cfg, ranks + 1, 2, err, sizeof err), 0);   /* old1 only */
	setenv("SLURM_JOB_NODELIST", "c[1-", 1);
	assert_int_equal(hl_slurm_check_allocation(&cfg, ranks, 5, err, sizeof err), 2);
	assert_non_null(strstr(err, "not a node list hetlaunch can read"));
	cfg.emulate = 1;
	assert_int_equal(hl_slurm_check_allocation(&cfg, ranks, 5, err, sizeof err), 0);
	unsetenv("SLURM_JOB_NODELIST");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(het_job_refused),
		cmocka_unit_test(srun_command),
		cmocka_unit_test(srun_refuses),
		cmocka_unit_test(slurm_wanted),
		cmocka_unit_test(cancelled),
		cmocka_unit_test(mpirun_command),
		cmocka_unit_test(mpirun_failures),
		cmocka_unit_test(programs),
		cmocka_unit_test(allocation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
