/*
 * config.h -- the machine list (../shared/INTERFACE.md, "The machine list").
 * YAML -> hl_config: the first stage of YAML -> machines -> plan -> files ->
 * job -> report.  Every value keeps where it came from, so a later stage can
 * still point at the line that caused a problem.
 */
#ifndef HL_CONFIG_H
#define HL_CONFIG_H

#include <stddef.h>

#include "util/diag.h"
#include "kernels/hpl.h"
#include "kernels/kernels.h"
#include "nodes.h"
#include "kernels/exec_result.h"

typedef struct { size_t line, col; } hl_loc;

typedef struct {
	char *name;          /* unique; "<name>.<k>" for the k-th of a count > 1 */
	char *host;          /* where MPI starts its processes */
	double cycle_time;   /* > 0, finite; 1/speed for a speed-only list */
	double speed;        /* as given, or 0 when cycle_time was given */
	double latency_us;   /* emulated network: 0 = the cluster's */
	double bandwidth_mbps;
	double memory_gb;    /* memory for this machine's processes; 0: unknown */
	double emulate_mflops; /* emulated speed overriding cycle_time's; 0: none */
	size_t cores;        /* CPUs this machine owns on its host (1: a processor;
	                      * more: a node whose speed is all its cores') */
	double mflops;       /* its real speed, for the seconds model; 0: unknown */
	hl_loc loc;          /* the list entry */
	size_t entry;        /* index of that entry in the YAML list */
} hl_machine;

/* A machines: entry that is a Slurm node type (slurm:, nodes.h), and the
 * nodes the allocation (or --nodes) gave it. */
typedef struct {
	size_t entry;        /* its machines: entry */
	char *name;          /* the entry's name */
	hl_node_kind kind;
	char *word;          /* the feature or partition */
	long het_group;      /* het_group: K */
	int optional;        /* optional: true: no node is no error */
	hl_loc loc;          /* the slurm: mapping */
	char **nodes;        /* host names, in the allocation's order (--nodes:
	                      * NAME-0, NAME-1, ... stand-ins) */
	size_t *cpus;        /* each node's CPUs (CPUTot; 0: unknown) */
	size_t nnodes;
} hl_slurm_type;

/* A layout is a row of the registry (layout.h, layouts.c). */
typedef struct hl_layout_ops hl_layout_ops;
typedef enum { HL_ARR_AUTO, HL_ARR_EXACT, HL_ARR_HEURISTIC } hl_arrangement;
typedef enum { HL_ALLOC_PLAIN, HL_ALLOC_OPTIMIZED } hl_allocation;
/* The 1D slice's order: auto (layout_1d.c chooses), 000 s3.4's
 * interleaved order, or each machine's processes adjacent. */
typedef enum { HL_ORDER_AUTO, HL_ORDER_INTERLEAVED, HL_ORDER_GROUPED } hl_order;

/* emulate: true, or a mapping (README "Emulation"). */
typedef struct {
	int on;
	double mflops;          /* a machine of cycle time `cycle_time` runs at this;
	                         * 0: chosen from this computer's measured speed */
	double cycle_time;      /* 0: the fastest machine's */
	double latency_us;      /* cluster default, per message; 0 = none */
	double bandwidth_mbps;  /* cluster default, per port; 0 = infinite */
	int bus;                /* network: bus (one shared medium) */
	int links;              /* network: links (layout: ring's per-pair costs) */
	int virtual_clock;      /* clock: virtual: per-rank virtual clocks */
	int no_cpu_time;        /* cpu_time: false: charge only the flop models
	                         * (the default under clock: virtual, but for
	                         * kernel: exec: load_emulate.c) */
	int cpu_time_given;     /* cpu_time: is in the file */
	hl_loc cpu_time_loc;    /* ... where (run's refusals) */
	int skip_compute;       /* compute: skip: the interposed BLAS are charged
	                         * by their flop models and not run (virtual clock) */
	double stall_timeout_s; /* clock: virtual: wall seconds with nothing moving
	                         * before the job is ended as stalled; 0: the default */
} hl_emulation;

#define HL_DEFAULT_N 1024
#define HL_DEFAULT_NB 32
#define HL_DEFAULT_MAX_PROCS 64
#define HL_MAX_PROCS_PER_MACHINE 4

/* inputs: one file written into the run directory before each run
 * (kernel: exec), its text with placeholders (inputs.h). */
typedef struct {
	char *file;              /* a plain file name: no '/', not . or .. */
	char *text;              /* inline text:, or the template: file's text */
	hl_loc loc;              /* the entry */
} hl_input_file;

typedef struct {
	char *file;              /* the path, as given */
	char *name;              /* run name: the YAML name, or the file's stem */
	hl_machine *machines;    /* after count expansion */
	size_t nmachines;
	int by_speed;            /* 1 if the list gave speeds */
	const hl_layout_ops *layout;   /* its row; never NULL after a load */
	void *layout_cfg;        /* what a row's load_key/check keep (layouts other
	                          * than 1d and 2d), freed by its free_config */
	size_t B;                /* 0: choose it */
	hl_loc B_loc;
	hl_loc n_loc;            /* where n: is (0:0 if omitted): memory refusals */
	size_t grid[2];          /* 0,0: choose it */
	size_t panel[2];         /* 0,0: choose it */
	hl_arrangement arrangement;
	hl_kernel kernel;
	hl_allocation allocation;
	hl_order order;          /* layout 1d: the slice's order (default auto) */
	size_t n, nb;            /* n: the largest of sizes[] (the plan's) */
	size_t *sizes;           /* n: N or n: [N1, N2, ...], in the file's order */
	size_t nsizes;
	int stock;               /* tester: stock (Debian's testers, kernels.h) */
	hl_result_patterns result; /* kernel: exec's result: (NULL: not given) */
	int model;               /* kernel: exec's model: (keys.c's MODELS): 0 none,
	                          * else 1 + the hl_kernel its program follows */
	size_t max_procs;        /* cap on virtual processes when we choose B */
	char *program;           /* NULL: the kernel's default */
	char **args;             /* NULL-terminated; kernel exec */
	size_t nargs;
	int emulate;             /* emu.on */
	hl_emulation emu;
	double timeout;          /* seconds; 0: none */
	char **mpiexec;          /* NULL-terminated argv prefix; NULL: mpiexec.hydra */
	size_t nmpiexec;
	int mpi;                 /* hl_mpi: mpi: mpich (default) | openmpi (openmpi.h) */
	double latency_us;       /* the real network (the seconds model without
	                          * emulation), per message; 0: not given */
	double bandwidth_mbps;   /* per port; 0: not given */
	double comm_cost;        /* 2d: time to send one b x b block, in cycle_time
	                          * units; 0: the fastest machine's cycle time */
	hl_hpl_settings hpl;     /* kernel: hpl: hpl: (HPL's defaults) */
	int n_auto;              /* n: auto: the plan chooses n (memory.c) */
	char n_auto_why[200];    /* ... and says why (the plan's text) */
	double memory_fraction;  /* n: auto: of each process's memory; 0.8 */
	hl_input_file *inputs;   /* kernel: exec: inputs: */
	size_t ninputs;
	hl_slurm_type *types;    /* the entries that are Slurm node types */
	size_t ntypes;
	int types_by_count;      /* ... planned for --nodes counts, not nodes */
	char types_source[96];   /* "Slurm job 42", "--nodes" */
} hl_config;

/* The type of entry e, or NULL when it names hosts. */
const hl_slurm_type *hl_config_type(const hl_config *cfg, size_t e);
/* The machines of list entry e: [*first, *first + *count) of cfg->machines. */
void hl_cfg_machine_entry(const hl_config *cfg, size_t e, size_t *first, size_t *count);

/*
 * hl_config_load -- read, validate and expand a machine list.  Returns 0, or
 * -1 with every problem found reported in d (FILE:LINE:COL: message).
 */
int hl_config_load(const char *path, diag *d, hl_config *cfg);
void hl_config_free(hl_config *cfg);

const char *hl_layout_name(const hl_layout_ops *l);
const char *hl_allocation_name(hl_allocation a);
const char *hl_order_name(hl_order o);
const char *hl_arrangement_name(hl_arrangement a);

/* The default max_procs: 64, or 4 per processor when that is more. */
size_t hl_config_max_procs(size_t nmachines);

/* M = ceil(n / nb): column blocks of the matrix. */
size_t hl_config_blocks(const hl_config *cfg);
/* The fastest machine's cycle time (0 without machines). */
double hl_config_tmin(const hl_config *cfg);
/* The cycle time that emulate: mflops refers to: emulate: cycle_time, else
 * the fastest machine's. */
double hl_config_emulation_tref(const hl_config *cfg);
/* K of the emulation when emulate: mflops is given (a machine of cycle
 * time t runs at K / t Mflop/s, launcher/launch/emulation.c), else 0. */
double hl_config_emulation_K(const hl_config *cfg);

/* The algorithm the predictions model: the kernel's, or for kernel: exec
 * the one model: names (HL_KERNEL_EXEC: none, nothing is predicted). */
hl_kernel hl_config_model(const hl_config *cfg);

#endif
