/*
 * rundir.c -- the run directory's own names (rundir.h).
 */
#include "rundir.h"

#include <stddef.h>
#include <string.h>

static const struct {
	const char *name, *what;
} OWNED[] = {
	{ HL_RD_PLAN, "the plan document" },
	{ HL_RD_COMMAND, "the job's command" },
	{ HL_RD_LOG, "the job's output" },
	{ HL_RD_REPORT, "the report" },
	{ HL_RD_TRACE, "the ranks' timeline" },
	{ HL_RD_LOCK, "the run's lock" },
	{ HL_RD_HOSTS_MPICH, "the MPICH host file" },
	{ HL_RD_HOSTS_GROUPED, "the MPICH host file of grouped ranks" },
	{ HL_RD_HOSTS_SLURM, "Slurm's host file" },
	{ HL_RD_HOSTS_OPENMPI, "Open MPI's rankfile" },
	{ HL_RD_COMPARE, "compare's document" },
	{ HL_RD_BALANCE_PNG, "compare's balance picture" },
	{ HL_RD_BALANCE_DAT, "the balance picture's data" },
	{ HL_RD_BALANCE_GP, "the balance picture's gnuplot script" },
	{ HL_RD_HPCC_IN, "hpcc's input" },
	{ HL_RD_HPCC_OUT, "hpcc's output" },
	{ HL_RD_HPCC_MEM, "hpcc's memory size" },
	{ HL_RD_HPL_OUT, "the output file hpccinf.txt names" },
	{ HL_RD_LU_DAT, "the LU tester's input" },
	{ HL_RD_LU_OUT, "the output file LU.dat names" },
	{ HL_RD_QR_DAT, "the QR tester's input" },
	{ HL_RD_QR_OUT, "the output file QR.dat names" },
	{ HL_RD_MM_DAT, "the PDGEMM timer's input" },
	{ HL_RD_MM_OUT, "the output file PDBLAS3TIM.dat names" },
};

const char *hl_rundir_owned(const char *name)
{
	for (size_t i = 0; i < sizeof OWNED / sizeof OWNED[0]; i++)
		if (strcmp(OWNED[i].name, name) == 0)
			return OWNED[i].what;
	return NULL;
}

int hl_rundir_tester_input(const char *name)
{
	return strcmp(name, HL_RD_LU_DAT) == 0 || strcmp(name, HL_RD_QR_DAT) == 0 ||
	       strcmp(name, HL_RD_MM_DAT) == 0;
}
