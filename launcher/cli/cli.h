/*
 * cli.h -- the commands over the pipeline's stages (config/, layouts/,
 * launch/, report/): each parses its arguments, calls the stages in order
 * and prints.  Nothing below cli/ includes this header.
 */
#ifndef HL_CLI_H
#define HL_CLI_H

#include "run.h"

/* "hetlaunch: MESSAGE" and the --help hint on stderr; returns 2 (main.c). */
int hl_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The commands: argc/argv after the command name (cmd_run.c, calibrate.c). */
int hl_cmd_run(int argc, char **argv);
int hl_cmd_compare(int argc, char **argv);
int hl_cmd_calibrate(int argc, char **argv);
int hl_cmd_simulate(int argc, char **argv);   /* simulate.c: 002 s4 */
int hl_cmd_sbatch(int argc, char **argv);     /* sbatch.c: the batch script */
/* run --adapt K (adapt.c, 002 s4.5): K phases, each planned on the speeds
 * measured in the one before.  Returns the exit status. */
int hl_run_adapt(const hl_config *cfg, const hl_run_opts *o, size_t K, int json);

#endif
