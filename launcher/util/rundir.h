/*
 * rundir.h -- the names of the files hetlaunch writes or reads in a run
 * directory, in one place: the code that writes each file uses its name
 * from here, and hl_rundir_owned() refuses the same names for what a
 * machine list asks to write there (inputs:), so a user's file can never
 * replace the host file mpiexec reads, the report, or a tester's input.
 */
#ifndef HL_RUNDIR_H
#define HL_RUNDIR_H

#define HL_RD_PLAN          "plan.json"
#define HL_RD_COMMAND       "command.txt"
#define HL_RD_LOG           "log.txt"
#define HL_RD_REPORT        "report.json"
#define HL_RD_TRACE         "trace.json"
#define HL_RD_LOCK          ".hetlaunch.lock"
#define HL_RD_HOSTS_MPICH   "hosts.mpich"
#define HL_RD_HOSTS_GROUPED "hosts.mpich-grouped"
#define HL_RD_HOSTS_SLURM   "hosts.slurm"
#define HL_RD_HOSTS_OPENMPI "hosts.openmpi"
#define HL_RD_COMPARE       "compare.json"
#define HL_RD_BALANCE_PNG   "balance.png"
#define HL_RD_BALANCE_DAT   "balance.dat"
#define HL_RD_BALANCE_GP    "balance.gp"
#define HL_RD_HPCC_IN       "hpccinf.txt"
#define HL_RD_HPCC_OUT      "hpccoutf.txt"
#define HL_RD_HPCC_MEM      "hpccmemf.txt"
#define HL_RD_HPL_OUT       "HPL.out"
#define HL_RD_LU_DAT        "LU.dat"
#define HL_RD_LU_OUT        "LU.out"
#define HL_RD_QR_DAT        "QR.dat"
#define HL_RD_QR_OUT        "QR.out"
#define HL_RD_MM_DAT        "PDBLAS3TIM.dat"
#define HL_RD_MM_OUT        "PDBLAS3TIM.SUMM"

/* What `name` is when it is one of the names above ("the MPICH host
 * file"), else NULL. */
const char *hl_rundir_owned(const char *name);

/* 1 when name is a stock tester's input (LU.dat, QR.dat, PDBLAS3TIM.dat):
 * hetlaunch writes it only under tester: stock, so kernel: exec's inputs:
 * may write it for a tester run as the user's own program. */
int hl_rundir_tester_input(const char *name);

#endif
