/*
 * commands.c -- the command table: one row per command, its FILE, its
 * options and its help (options.h).  The parser, `hetlaunch --help`, each
 * command's --help, the man page's SYNOPSIS and OPTIONS and doc/format.md's
 * command table all come from these rows; adding an option is adding a
 * line here and reading it in the command.
 */
#include "cli.h"

#define OPT_JSON(what) { HL_OPT_JSON, "--json", NULL, NULL, 0, what }
#define OPT_QUIET(what) { HL_OPT_QUIET, "--quiet", "-q", NULL, 0, what }
#define ECHO "do not echo the job's output (it is still in log.txt)"
#define OPT_OUT(what) { HL_OPT_OUT, "--out", NULL, "DIR", 0, what }
#define OPT_NODES                                                                        \
	{ HL_OPT_NODES, "--nodes", NULL, "TYPE=COUNT,...", 0,                                \
	  "plan the list's Slurm node types for these counts, outside an allocation" }
#define OPT_NO_PRELOAD                                                                   \
	{ HL_OPT_NO_PRELOAD, "--no-preload", NULL, NULL, 0,                                  \
	  "start the ranks without the runtime (no emulation, no per-rank figures)" }

const hl_command hl_commands[] = {
	{ "plan", "FILE", "the mapping of virtual processes to machines and its predicted costs",
	  "Compute the mapping of virtual processes to machines and its predicted\n"
	  "costs.  Nothing runs.\n",
	  { OPT_JSON("print only the plan document"),
	    { HL_OPT_FULL, "--full", NULL, NULL, 0,
	      "every table whole (large lists are summarised: identical processors grouped)" },
	    OPT_NODES },
	  hl_cmd_plan },
	{ "hostfile", "FILE", "the host file that starts each rank where the plan puts it",
	  "The host file that makes a launcher start each rank where the plan puts it,\n"
	  "on stdout or in PATH (replaced atomically).\n",
	  { { HL_OPT_FORMAT, "--format", NULL, "F", 0,
	      "mpich (default), mpich-grouped, mpich-rankmap, openmpi, openmpi-seq, slurm" },
	    { HL_OPT_OUTPUT, "-o", NULL, "PATH", 0, "write PATH (atomically) instead of stdout" },
	    { HL_OPT_BASELINE, "--baseline", NULL, "cyclic", 1,
	      "the cyclic baseline's host file: one process per machine" },
	    OPT_NODES },
	  hl_cmd_hostfile },
	{ "run", "FILE", "plan, write the run directory, start the job, report",
	  "Plan, write the run directory (plan.json, the host files, the tester's input,\n"
	  "command.txt), start the MPI job, and write report.json.  Inside a Slurm\n"
	  "allocation the ranks are started by srun (hosts.slurm); with mpi: openmpi by\n"
	  "mpirun (hosts.openmpi).  Every rank reports its host: placement: verified.\n"
	  "'hetlaunch FILE' is 'hetlaunch run FILE'.\n",
	  { OPT_OUT("the run directory (default runs/NAME-TIMESTAMP)"),
	    { HL_OPT_BASELINE, "--baseline", NULL, "cyclic", 1,
	      "run the cyclic baseline: one process per machine" },
	    { HL_OPT_DRY_RUN, "--dry-run", NULL, NULL, 0,
	      "write the run directory, start nothing" },
	    OPT_JSON("print report.json on stdout"), OPT_QUIET(ECHO), OPT_NO_PRELOAD,
	    { HL_OPT_ADAPT, "--adapt", NULL, "K", 0,
	      "K phases, each planned on the speeds the one before measured (paper 002 "
	      "s4.5; layout 1d, kernel lu or qr)" },
	    { HL_OPT_NODES, "--nodes", NULL, "TYPE=COUNT,...", 0,
	      "with --dry-run: plan the list's Slurm node types for these counts" } },
	  hl_cmd_run },
	{ "compare", "FILE", "run the cyclic baseline and the plan; the speedup",
	  "Run the cyclic baseline (one process per machine) and the plan on the\n"
	  "same problem; print both, the measured and the predicted speedup.\n",
	  { OPT_OUT("the directory of both runs and compare.json"),
	    OPT_JSON("print compare.json on stdout"), OPT_QUIET(ECHO), OPT_NO_PRELOAD },
	  hl_cmd_compare },
	{ "calibrate", "[FILE]", "measure each machine's cycle time (DGEMM 500)",
	  "Time seven DGEMMs of order 500 on every machine at once, one process per\n"
	  "machine, and print each machine's cycle time (ms per DGEMM) and Mflop/s;\n"
	  "--from: the cycle times a finished layout 1d LU or QR run measured (paper 002\n"
	  "s4.5; FILE optional).  -o writes the machine list with the measured values.\n",
	  { OPT_JSON("print the measurements as JSON"),
	    { HL_OPT_OUTPUT, "-o", NULL, "NEWFILE", 0,
	      "write the machine list with the measured cycle times" },
	    OPT_OUT("the probe's run directory"),
	    { HL_OPT_FROM, "--from", NULL, "RUNDIR", 0,
	      "the cycle times a finished run measured, instead of probing" },
	    OPT_QUIET("no progress lines on stderr") },
	  hl_cmd_calibrate },
	{ "simulate", "FILE", "LU/QR task graph under paper 002 s4's schedules (layout 1d)",
	  "The LU (or QR) task graph of M = ceil(n / nb) column blocks under the static,\n"
	  "optimized and dynamic schedules of paper 002 s4, the best static slice and a\n"
	  "lower bound (layout 1d, kernel lu, qr or hpl; at most 2^25 task passes).\n"
	  "Nothing runs.\n",
	  { OPT_JSON("print the schedules as JSON"), OPT_NODES },
	  hl_cmd_simulate },
	{ "sbatch", "FILE", "the Slurm batch script that asks for the list's nodes",
	  "The batch script that asks Slurm for the machine list's nodes (its\n"
	  "features with counts, or its hosts) and runs 'hetlaunch run FILE' in the\n"
	  "allocation; on stdout, or in SCRIPT.  --submit submits it (sbatch) and\n"
	  "prints the job id.\n",
	  { { HL_OPT_OUTPUT, "-o", NULL, "SCRIPT", 0, "write SCRIPT (atomically) instead of stdout" },
	    { HL_OPT_SUBMIT, "--submit", NULL, NULL, 0, "submit it with sbatch; print the job id" },
	    OPT_NODES },
	  hl_cmd_sbatch },
	{ "keys", NULL, "the machine list's keys (the schema)",
	  "The machine list's keys, from the schema that loads them.\n",
	  { { HL_OPT_FORMAT, "--format", NULL, "F", 0, "md (default), man or dict" } },
	  hl_cmd_keys },
	{ "help", NULL, "this help, or the command table for the man page",
	  "This help, or the command table in the form the man page and doc/format.md\n"
	  "include.\n",
	  { { HL_OPT_FORMAT, "--format", NULL, "F", 0,
	      "text (default), man-synopsis, man-options or md" } },
	  hl_cmd_help },
	{ NULL, NULL, NULL, NULL, { { 0 } }, NULL }
};
