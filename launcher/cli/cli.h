/*
 * cli.h -- the commands over the pipeline's stages (config/, layouts/,
 * launch/, report/): each takes its parsed arguments (options.h), calls the
 * stages in order and prints.  Nothing below cli/ includes this header.
 */
#ifndef HL_CLI_H
#define HL_CLI_H

#include "launch/run.h"
#include "options.h"

/* stdout must have reached its destination: 0, or 1 (a full disk is a
 * failure) after saying so. */
int hl_finish_stdout(void);

/* The commands, one per row of commands.c. */
int hl_cmd_plan(const hl_cli_args *a);       /* cmd_plan.c */
int hl_cmd_hostfile(const hl_cli_args *a);
int hl_cmd_keys(const hl_cli_args *a);
int hl_cmd_help(const hl_cli_args *a);
int hl_cmd_run(const hl_cli_args *a);        /* cmd_run.c */
int hl_cmd_compare(const hl_cli_args *a);
int hl_cmd_calibrate(const hl_cli_args *a);  /* cmd_calibrate.c */
int hl_cmd_simulate(const hl_cli_args *a);   /* cmd_simulate.c: 002 s4 */
int hl_cmd_sbatch(const hl_cli_args *a);     /* cmd_sbatch.c: the batch script */
/* run --adapt K (cmd_adapt.c, 002 s4.5): K phases, each planned on the
 * speeds measured in the one before.  Returns the exit status. */
int hl_run_adapt(const hl_config *cfg, const hl_run_opts *o, size_t K, int json);

#endif
