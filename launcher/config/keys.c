/*
 * keys.c -- the schema of the machine list (keys.h): one row per key, and
 * what `hetlaunch keys` prints from it.  A key added here is read (common
 * keys), owned (a layout's), refused elsewhere with the right message, and
 * appears in tests/fuzz/keys.dict and man/hetlaunch.1 once regenerated
 * (tests/cli/cli_test.sh fails until they are).
 */
#include "keys.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "config.h"
#include "kernels/kernels.h"
#include "layouts/layout.h"

#define TOP(name, type, lo, hi, values, off, def, doc) \
	{ HL_KS_TOP, name, type, NULL, NULL, lo, hi, values, off, def, doc }
#define OWN(name, type, layouts, lo, hi, values, def, doc) \
	{ HL_KS_TOP, name, type, layouts, NULL, lo, hi, values, 0, def, doc }
#define MACHINE(name, type, layouts, lo, hi, values, def, doc) \
	{ HL_KS_MACHINE, name, type, layouts, NULL, lo, hi, values, 0, def, doc }
#define EMULATE(name, type, values, off, def, doc) \
	{ HL_KS_EMULATE, name, type, NULL, NULL, 0, 0, values, off, def, doc }
#define HPL(name, type, lo, hi, values, off, def, doc) \
	{ HL_KS_HPL, name, type, NULL, "hpl", lo, hi, values, off, def, doc }
#define CFG(f) offsetof(hl_config, f)
#define HPLS(f) offsetof(hl_hpl_settings, f)
#define EMU(f) offsetof(hl_emulation, f)
#define RES(f) offsetof(hl_result_patterns, f)

static const char *const TESTERS[] = { "driver", "stock", NULL };
static const char *const MPIS[] = { "mpich", "openmpi", NULL };
/* in hl_kernel's order after none: load_kernel.c's hl_config_model */
static const char *const MODELS[] = { "none", "lu", "qr", "chol", "mm", NULL };
static const char *const HOST_EXTRA[] = { ":[],", NULL };
static const char *const NETWORKS[] = { "switch", "bus", "links", NULL };
static const char *const CLOCKS[] = { "real", "virtual", NULL };
static const char *const COMPUTES[] = { "run", "skip", NULL };
/* The layouts' enums and ranges: their loaders read their keys by these
 * rows (hl_cfg_key), so each limit is written here only; an enum's value is
 * its index, in the order the layout's code counts them. */
static const char *const ALLOCATIONS[] = { "plain", "optimized", NULL };
static const char *const ORDERS[] = { "auto", "interleaved", "grouped", NULL };
static const char *const ARRANGEMENTS[] = { "auto", "exact", "heuristic", NULL };
static const char *const SOLVERS[] = { "auto", "exact", "milp", "greedy", "tsp", NULL };
static const char *const INSERTS[] = { "delta", "tstep", NULL };
static const char *const SCHEDULERS[] = { "holm", "orroml", "ommoml", "oddoml", "ddoml", "bmm",
	                                  "obmm", "all", NULL };
static const char *const BASELINES[] = { "holm", "orroml", "ommoml", "oddoml", "ddoml", "bmm",
	                                 "obmm", NULL };
static const char *const PARTITIONS[] = { "columns", "guillotine", "auto", NULL };
static const char *const SELECTS[] = { "auto", "all", NULL };
#define HPL_FACTS hl_hpl_facts
#define HPL_BCASTS hl_hpl_bcasts
#define HPL_SWAPS hl_hpl_swaps
#define HPL_FORMS hl_hpl_forms

const hl_key_def hl_keys[] = {
	/* the top level, common to every layout */
	TOP("name", HL_KT_IDENT, 0, 0, NULL, CFG(name), "the file's stem",
	    "the run's name (run directories); letters, digits, _ . -"),
	TOP("machines", HL_KT_MACHINES, 0, 0, NULL, 0, "",
	    "required: the list of machines (the machines: keys below)"),
	TOP("layout", HL_KT_LAYOUT, 0, 0, NULL, 0, "1d",
	    "how the problem is mapped onto the machines"),
	TOP("kernel", HL_KT_KERNEL, 0, 0, NULL, CFG(kernel), "lu (ring, mw, mmm for their layouts)",
	    "the program run on the plan"),
	TOP("n", HL_KT_SIZES, 1, 10000000, NULL, 0, "1024",
	    "matrix order, or a list of them (one result per size); auto for kernel: hpl"),
	TOP("nb", HL_KT_SIZE, 1, 100000, NULL, CFG(nb), "32", "block size b of CYCLIC(b)"),
	{ HL_KS_TOP, "tester", HL_KT_ENUM, NULL, NULL, 0, 0, TESTERS, CFG(stock), "driver",
	  "hetlaunch's ScaLAPACK driver, or Debian's stock testers (lu, qr, mm)" },
	TOP("max_procs", HL_KT_SIZE, 1, 1000000, NULL, CFG(max_procs),
	    "64, or 4 per processor if more", "cap on the virtual processes when B or the panel is chosen"),
	TOP("program", HL_KT_STRING, 0, 0, NULL, CFG(program), "the kernel's",
	    "the program to run (required by kernel: exec)"),
	{ HL_KS_TOP, "args", HL_KT_STRINGS, NULL, "exec", 0, 0, NULL, 0, "none",
	  "the program's arguments" },
	{ HL_KS_TOP, "model", HL_KT_ENUM, NULL, "exec", 0, 0, MODELS, CFG(model), "none",
	  "the algorithm the program follows, for the predictions and layout: auto (1d, 2d)" },
	TOP("emulate", HL_KT_EMULATE, 0, 0, NULL, 0, "false",
	    "run every machine on this computer at its speed (the emulate: keys below)"),
	TOP("latency_us", HL_KT_NUMBER, 0, 0, NULL, CFG(latency_us), "none",
	    "the cluster's latency per message (the seconds model; emulate:'s when emulated)"),
	TOP("bandwidth_mbps", HL_KT_NUMBER, 0, 0, NULL, CFG(bandwidth_mbps), "none",
	    "the cluster's bandwidth per port (the seconds model)"),
	TOP("timeout", HL_KT_NUMBER, 0, 0, NULL, CFG(timeout), "none", "seconds before the job is stopped"),
	TOP("mpiexec", HL_KT_ARGV, 0, 0, NULL, 0, "mpiexec.hydra",
	    "the launcher's command, a string or a list (its first item the program)"),
	TOP("mpi", HL_KT_ENUM, 0, 0, MPIS, CFG(mpi), "mpich (openmpi for kernel: hpl)",
	    "the MPI the job runs with"),
	{ HL_KS_TOP, "hpl", HL_KT_CUSTOM, NULL, "hpl", 0, 0, NULL, 0, "HPL's",
	  "HPL's algorithm settings (the hpl: keys below)" },
	{ HL_KS_TOP, "memory_fraction", HL_KT_NUMBER, NULL, "hpl", 0, 0, NULL, CFG(memory_fraction),
	  "0.8", "n: auto: the fraction of each process's memory the matrix may fill (at most 1)" },
	{ HL_KS_TOP, "inputs", HL_KT_CUSTOM, NULL, "exec", 0, 0, NULL, 0, "none",
	  "files written into the run directory before each run (the inputs: keys below)" },
	{ HL_KS_TOP, "result", HL_KT_CUSTOM, NULL, "exec", 0, 0, NULL, 0, "the stock testers' lines",
	  "how to read the program's own time and verdict (the result: keys below)" },
	/* the top level, the layouts' own (layout.h) */
	OWN("B", HL_KT_SIZE, "1d auto", 1, 100000000, NULL, "chosen",
	    "virtual processes in one slice (002 s2)"),
	OWN("allocation", HL_KT_ENUM, "1d auto", 0, 0, ALLOCATIONS, "plain",
	    "optimized gives the first two chunks to the fastest machine (002 s4.4)"),
	OWN("order", HL_KT_ENUM, "1d auto", 0, 0, ORDERS, "auto", "the slice's order (000 s3.4)"),
	OWN("grid", HL_KT_PAIR, "2d auto", 1, 1u << 20, NULL, "the most square shape",
	    "the physical p x q grid (000 s4.3)"),
	OWN("panel", HL_KT_PAIR, "2d auto", 1, 1u << 20, NULL, "chosen",
	    "Bp x Bq virtual processes"),
	OWN("arrangement", HL_KT_ENUM, "2d auto", 0, 0, ARRANGEMENTS, "auto",
	    "exact search or the SVD heuristic for the grid"),
	OWN("W", HL_KT_NUMBER, "ring", 0, 0, NULL, "", "required: work of one iteration (004)"),
	OWN("H", HL_KT_NUMBER, "ring", 0, 0, NULL, "",
	    "required: data each machine sends its successor per iteration"),
	OWN("links", HL_KT_CUSTOM, "ring", 0, 0, NULL, "",
	    "time per unit of data between machines: {default: COST, pairs: [[from, to, cost]]}"),
	OWN("solver", HL_KT_ENUM, "ring", 0, 0, SOLVERS, "auto", "how the ring is chosen"),
	OWN("insert", HL_KT_ENUM, "ring", 0, 0, INSERTS, "delta", "the greedy's insertion rule"),
	OWN("columns", HL_KT_SIZE, "ring", 1, 100000000, NULL, "1000",
	    "the stencil's columns, shared out whole"),
	OWN("iterations", HL_KT_SIZE, "ring", 1, 1000000000, NULL, "100", "iterations the kernel runs"),
	OWN("time_limit", HL_KT_NUMBER, "ring", 0, 0, NULL, "10", "seconds for the MILP solver"),
	OWN("master", HL_KT_STRING, "master-worker", 0, 0, NULL, "the first machine",
	    "the machine holding A, B and C (003)"),
	OWN("blocks", HL_KT_CUSTOM, "master-worker", 1, 1u << 20, NULL, "",
	    "required: [r, t, s]: A is r x t blocks, B is t x s (r t s <= 2^20)"),
	/* 5 = mu_holm(5) = 1: one C block, two sets of one A and one B block (003 s5) */
	OWN("memory_blocks", HL_KT_SIZE, "master-worker", 5, (size_t)1 << 40, NULL, "",
	    "block buffers per worker (a machine may override)"),
	OWN("block_time", HL_KT_NUMBER, "master-worker", 0, 0, NULL, "",
	    "time to move one block master <-> worker (a machine may override)"),
	OWN("scheduler", HL_KT_ENUM, "master-worker", 0, 0, SCHEDULERS, "all", "the schedules planned"),
	OWN("baseline_scheduler", HL_KT_ENUM, "master-worker", 0, 0, BASELINES, "oddoml",
	    "what compare runs first"),
	OWN("partition", HL_KT_CUSTOM, "columns", 0, 0, PARTITIONS, "auto",
	    "the rectangle partition (001), or a list of columns of machine names"),
	OWN("select", HL_KT_ENUM, "columns", 0, 0, SELECTS, "auto", "which machines take part"),
	OWN("comm_cost", HL_KT_NUMBER, "2d columns auto", 0, 0, NULL, "the fastest cycle_time",
	    "time to send one b x b block, in cycle_time units"),
	/* a machines: entry */
	MACHINE("name", HL_KT_IDENT, NULL, 0, 0, NULL, "",
	        "required, unique: letters, digits, _ . - (name.0, name.1, ... with count)"),
	MACHINE("host", HL_KT_IDENT, NULL, 0, 0, HOST_EXTRA, "name",
	        "where MPI starts its processes; a Slurm hostlist (cn[008-010,017]) is one "
	        "machine per host"),
	MACHINE("cycle_time", HL_KT_NUMBER, NULL, 0, 0, NULL, "",
	        "time per unit of work (exactly one of cycle_time and speed)"),
	MACHINE("speed", HL_KT_NUMBER, NULL, 0, 0, NULL, "", "work per unit of time (1/cycle_time)"),
	MACHINE("count", HL_KT_SIZE, NULL, 1, 4096, NULL, "1", "identical processors on that host"),
	MACHINE("cores", HL_KT_SIZE, NULL, 1, 4096, NULL, "1",
	        "cores of one machine that is a whole node: its speed is the node's with every core "
	        "busy, its ranks share those cores"),
	MACHINE("mflops", HL_KT_NUMBER, NULL, 0, 0, NULL, "unknown",
	        "its real speed in Mflop/s (every machine or none; alone, it is the speed)"),
	MACHINE("latency_us", HL_KT_NUMBER, NULL, 0, 0, NULL, "emulate:'s, else the top level's",
	        "its latency per message (emulated, or the seconds model's)"),
	MACHINE("bandwidth_mbps", HL_KT_NUMBER, NULL, 0, 0, NULL, "emulate:'s, else the top level's",
	        "its bandwidth per port (emulated, or the seconds model's)"),
	MACHINE("memory_gb", HL_KT_NUMBER, NULL, 0, 0, NULL, "unknown",
	        "memory its processes may use (a plan that needs more is refused)"),
	MACHINE("emulate_mflops", HL_KT_NUMBER, NULL, 0, 0, NULL, "from cycle_time",
	        "its emulated speed"),
	MACHINE("slurm", HL_KT_CUSTOM, NULL, 0, 0, NULL, "none",
	        "a node type instead of host: the allocation's nodes that match it (the slurm: "
	        "keys below), one machine per node (count: per node)"),
	MACHINE("memory_blocks", HL_KT_SIZE, "master-worker", 5, (size_t)1 << 40, NULL, "see below",
	        "this worker's block buffers"),
	MACHINE("block_time", HL_KT_NUMBER, "master-worker", 0, 0, NULL, "see below",
	        "this worker's time to move one block"),
	/* the emulate: mapping */
	EMULATE("mflops", HL_KT_NUMBER, NULL, EMU(mflops), "this computer's",
	        "the speed of a machine of cycle time emulate: cycle_time"),
	EMULATE("cycle_time", HL_KT_NUMBER, NULL, EMU(cycle_time), "the fastest machine's",
	        "the cycle time mflops refers to (needs mflops)"),
	EMULATE("latency_us", HL_KT_NUMBER, NULL, EMU(latency_us), "none", "latency per message"),
	EMULATE("bandwidth_mbps", HL_KT_NUMBER, NULL, EMU(bandwidth_mbps), "infinite",
	        "bandwidth per port"),
	EMULATE("network", HL_KT_NETWORK, NETWORKS, 0, "switch",
	        "one port per machine, one shared medium, or layout ring's links"),
	EMULATE("clock", HL_KT_ENUM, CLOCKS, EMU(virtual_clock), "real",
	        "virtual: per-rank virtual clocks"),
	EMULATE("cpu_time", HL_KT_BOOL_NOT, NULL, EMU(no_cpu_time),
	        "true; false under clock: virtual (but kernel: exec, hpl)",
	        "false: charge only the flop models (times independent of this computer's load)"),
	EMULATE("compute", HL_KT_ENUM, COMPUTES, EMU(skip_compute), "run",
	        "skip: the BLAS are charged, not run, large allocations folded (clock: virtual)"),
	EMULATE("stall_timeout_s", HL_KT_NUMBER, NULL, EMU(stall_timeout_s), "60",
	        "clock: virtual: seconds of wall time with no rank's clock moving and none "
	        "computing, after which the job is ended as stalled"),
	/* kernel hpl's hpl: mapping (HPL.dat's lines 13-31, hpl.h) */
	HPL("threshold", HL_KT_NUMBER, 0, 0, NULL, HPLS(threshold), "16",
	    "the scaled residual below which a run passes"),
	HPL("pfact", HL_KT_ENUM, 0, 0, HPL_FACTS, HPLS(pfact), "right", "panel factorization"),
	HPL("nbmin", HL_KT_SIZE, 1, 100000, NULL, HPLS(nbmin), "4", "recursion stops below this many columns"),
	HPL("ndiv", HL_KT_SIZE, 2, 64, NULL, HPLS(ndiv), "2", "panels per recursion step"),
	HPL("rfact", HL_KT_ENUM, 0, 0, HPL_FACTS, HPLS(rfact), "crout", "recursive panel factorization"),
	HPL("bcast", HL_KT_ENUM, 0, 0, HPL_BCASTS, HPLS(bcast), "1ringM", "the panel broadcast"),
	HPL("depth", HL_KT_SIZE, 0, 64, NULL, HPLS(depth), "1", "look-ahead depth"),
	HPL("swap", HL_KT_ENUM, 0, 0, HPL_SWAPS, HPLS(swap), "mix", "the row swapping algorithm"),
	HPL("swap_threshold", HL_KT_SIZE, 0, 10000000, NULL, HPLS(swap_threshold), "64",
	    "swap: mix: binary exchange below this many columns, long above"),
	HPL("l1", HL_KT_ENUM, 0, 0, HPL_FORMS, HPLS(l1_notrans), "transposed", "how L1 is stored"),
	HPL("u", HL_KT_ENUM, 0, 0, HPL_FORMS, HPLS(u_notrans), "transposed", "how U is stored"),
	HPL("equilibration", HL_KT_BOOL, 0, 0, NULL, HPLS(equilibration), "true",
	    "equilibrate the long swap"),
	HPL("alignment", HL_KT_SIZE, 1, 4096, NULL, HPLS(alignment), "8", "memory alignment, in doubles"),
	HPL("all_benchmarks", HL_KT_BOOL, 0, 0, NULL, HPLS(all_benchmarks), "false",
	    "run all of hpcc, not only HPL (which hpcc runs last)"),
	/* an inputs: entry (kernel exec) */
	{ HL_KS_INPUTS, "file", HL_KT_IDENT, NULL, "exec", 0, 0, NULL, 0, "",
	  "required: the file's name in the run directory" },
	{ HL_KS_INPUTS, "text", HL_KT_STRING, NULL, "exec", 0, 0, NULL, 0, "",
	  "its text, with {n} {nb} {nprow} {npcol} {nprocs} {mapping} (exactly one of text and "
	  "template)" },
	{ HL_KS_INPUTS, "template", HL_KT_STRING, NULL, "exec", 0, 0, NULL, 0, "",
	  "a file whose text it is (relative to the YAML file's directory)" },
	/* a machines: entry's slurm: mapping (nodes.h): exactly one of feature,
	 * partition and het_group */
	{ HL_KS_SLURM, "feature", HL_KT_IDENT, NULL, NULL, 0, 0, NULL, 0, "",
	  "the nodes with this Slurm feature (sbatch: --constraint)" },
	{ HL_KS_SLURM, "partition", HL_KT_IDENT, NULL, NULL, 0, 0, NULL, 0, "",
	  "the nodes of this partition (sbatch: one het-job component)" },
	{ HL_KS_SLURM, "het_group", HL_KT_SIZE, NULL, NULL, 0, 63, NULL, 0, "",
	  "the nodes of this component of a heterogeneous job" },
	{ HL_KS_SLURM, "optional", HL_KT_BOOL, NULL, NULL, 0, 0, NULL, 0, "false",
	  "true: a type that got no node is left out instead of refused" },
	{ HL_KS_RESULT, "time", HL_KT_STRING, NULL, "exec", 0, 0, NULL, RES(time), "none",
	  "a regular expression (POSIX extended) of a line with the program's time: group 1 the seconds" },
	{ HL_KS_RESULT, "passed", HL_KT_STRING, NULL, "exec", 0, 0, NULL, RES(passed), "none",
	  "a regular expression of a line that says the run passed (one is then required)" },
	{ HL_KS_RESULT, "failed", HL_KT_STRING, NULL, "exec", 0, 0, NULL, RES(failed), "none",
	  "a regular expression of a line that says the run failed" },
	/* layout ring's links: mapping (read by layout_ring.c) */
	{ HL_KS_LINKS, "default", HL_KT_CUSTOM, "ring", NULL, 0, 0, NULL, 0, "",
	  "the cost of every link not in pairs (a number >= 0)" },
	{ HL_KS_LINKS, "pairs", HL_KT_CUSTOM, "ring", NULL, 0, 0, NULL, 0, "",
	  "[[from, to, cost], ...]: the reverse takes the same cost unless listed too" },
};

const size_t hl_nkeys = sizeof hl_keys / sizeof hl_keys[0];
_Static_assert(sizeof hl_keys / sizeof hl_keys[0] <= HL_KEYS_MAX, "HL_KEYS_MAX");

const hl_key_def *hl_key_find(hl_key_section s, const char *name)
{
	for (size_t i = 0; i < hl_nkeys; i++)
		if (hl_keys[i].section == s && strcmp(hl_keys[i].name, name) == 0)
			return &hl_keys[i];
	return NULL;
}

int hl_key_for_layout(const hl_key_def *k, const char *layout)
{
	if (k->layouts == NULL)
		return 1;
	size_t len = strlen(layout);
	for (const char *p = k->layouts; (p = strstr(p, layout)) != NULL; p += len)
		if ((p == k->layouts || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
			return 1;
	return 0;
}

const hl_key_def *hl_key_of_layout(hl_key_section s, const char *layout, const char *name)
{
	const hl_key_def *k = hl_key_find(s, name);
	return k && k->layouts && hl_key_for_layout(k, layout) ? k : NULL;
}

void hl_key_list(char *buf, size_t len, hl_key_section s, const char *layout)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < hl_nkeys; i++) {
		const hl_key_def *k = &hl_keys[i];
		if (k->section != s || (layout ? !k->layouts || !hl_key_for_layout(k, layout)
		                               : k->layouts != NULL))
			continue;
		strncat(buf, n++ ? ", " : "", len - strlen(buf) - 1);
		strncat(buf, k->name, len - strlen(buf) - 1);
	}
}

/* ---------------------------------------------------------- hetlaunch keys */

static const char *const SECTION_NAMES[] = { "top level", "machines: entry", "emulate:",
	                                     "links:", "hpl:", "inputs: entry", "slurm:",
	                                     "result:" };

/* The words of a row's values, joined by sep: its enum, or the registry's. */
static void values_words(char *buf, size_t len, const hl_key_def *k, const char *sep)
{
	buf[0] = '\0';
	if (k->type == HL_KT_LAYOUT) {
		for (size_t i = 0; hl_layouts[i]; i++)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? sep : "",
			         hl_layouts[i]->name);
	} else if (k->type == HL_KT_KERNEL) {
		const char *p = hl_kernel_names();   /* "lu, qr, ..." */
		for (size_t w = 0; *p; w++) {
			size_t n = strcspn(p, ",");
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%.*s", w ? sep : "", (int)n, p);
			p += n;
			p += strspn(p, ", ");
		}
	} else if (k->values && k->type != HL_KT_IDENT) {
		for (size_t i = 0; k->values[i]; i++)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? sep : "", k->values[i]);
	}
}

/* What a row's value is, in words (sep joins an enum's values). */
static void type_words(char *buf, size_t len, const hl_key_def *k, const char *sep)
{
	char v[256];
	values_words(v, sizeof v, k, sep);
	switch (k->type) {
	case HL_KT_SIZE: snprintf(buf, len, "integer %zu..%zu", k->lo, k->hi); return;
	case HL_KT_NUMBER: snprintf(buf, len, "number > 0"); return;
	case HL_KT_BOOL:
	case HL_KT_BOOL_NOT: snprintf(buf, len, "true%sfalse", sep); return;
	case HL_KT_STRING: snprintf(buf, len, "string"); return;
	case HL_KT_IDENT: snprintf(buf, len, "name"); return;
	case HL_KT_PAIR: snprintf(buf, len, "[a, b], each %zu..%zu", k->lo, k->hi); return;
	case HL_KT_SIZES: snprintf(buf, len, "integer %zu..%zu, or a list", k->lo, k->hi); return;
	case HL_KT_STRINGS: snprintf(buf, len, "list of strings"); return;
	case HL_KT_ARGV: snprintf(buf, len, "string or list of strings"); return;
	case HL_KT_MACHINES: snprintf(buf, len, "list of mappings"); return;
	case HL_KT_EMULATE: snprintf(buf, len, "true%sfalse%smapping", sep, sep); return;
	case HL_KT_CUSTOM: snprintf(buf, len, "%s", v[0] ? v : "see below"); return;
	default: snprintf(buf, len, "%s", v); return;
	}
}

/* Where a row applies: its layouts and kernel, or "any". */
static void scope_words(char *buf, size_t len, const hl_key_def *k)
{
	snprintf(buf, len, "%s%s%s%s", k->layouts ? "layout " : "", k->layouts ? k->layouts : "",
	         k->kernel ? "kernel " : "", k->kernel ? k->kernel : "");
	if (!buf[0])
		snprintf(buf, len, "any");
}

/* Has an earlier row the same name (a key in two sections)? */
static int seen_name(size_t r)
{
	for (size_t i = 0; i < r; i++)
		if (strcmp(hl_keys[i].name, hl_keys[r].name) == 0)
			return 1;
	return 0;
}

/* Is w among the dictionary's values so far (rows before r, the registries)? */
static int seen_value(const char *w, size_t r, size_t i)
{
	for (size_t j = 0; j <= r && j < hl_nkeys; j++)
		for (size_t x = 0; hl_keys[j].values && hl_keys[j].type != HL_KT_IDENT &&
		                   hl_keys[j].values[x] && (j < r || x < i); x++)
			if (strcmp(hl_keys[j].values[x], w) == 0)
				return 1;
	return 0;
}

/* YAML's punctuation and numbers at the edges of the ranges. */
static const char *const DICT_TAIL =
	"val_true=\"true\"\nval_false=\"false\"\nval_null=\"null\"\nval_tilde=\"~\"\n"
	"val_localhost=\"localhost\"\n"
	"p0=\"- \"\np1=\"  - \"\np2=\"[\"\np3=\"]\"\np4=\"{\"\np5=\"}\"\np6=\", \"\np7=\": \"\n"
	"p8=\"\\x0a\"\np9=\"\\x0a  \"\np10=\"'\"\np11=\"\\\"\"\np12=\"#\"\np13=\"&a\"\np14=\"*a\"\n"
	"p15=\"---\"\np16=\"...\"\np17=\"!!str\"\np18=\"? \"\np19=\"|\"\np20=\">\"\n"
	"p21=\"1e308\"\np22=\"-1\"\np23=\"0\"\np24=\"4096\"\np25=\"100000\"\np26=\"1048576\"\n"
	"p27=\"0.5\"\np28=\"nan\"\np29=\".inf\"\n";

/* One value's line: its name with '_' for what is not a letter or digit. */
static void print_value(FILE *out, const char *v)
{
	fputs("val_", out);
	for (const char *c = v; *c; c++)
		fputc(isalnum((unsigned char)*c) ? *c : '_', out);
	fprintf(out, "=\"%s\"\n", v);
}

/* The values of the layouts and kernels (the registries), once each. */
static void print_registry_values(FILE *out)
{
	char v[256], *p;
	const hl_key_def *rows[] = { hl_key_find(HL_KS_TOP, "layout"),
		                     hl_key_find(HL_KS_TOP, "kernel") };
	for (size_t r = 0; r < 2; r++) {
		values_words(v, sizeof v, rows[r], " ");
		for (p = strtok(v, " "); p; p = strtok(NULL, " "))
			if (!seen_value(p, hl_nkeys, 0) && (r == 0 || !hl_layout_find(p)))
				print_value(out, p);
	}
}

static void print_dict(FILE *out)
{
	fprintf(out, "# tests/fuzz/keys.dict -- libFuzzer dictionary: generated by `hetlaunch keys\n"
	        "# --format dict` from launcher/config/keys.c (do not edit): the schema's keys, the\n"
	        "# values of its enums, and YAML's punctuation.\n");
	for (size_t r = 0; r < hl_nkeys; r++)
		if (!seen_name(r))
			fprintf(out, "key_%s=\"%s:\"\n", hl_keys[r].name, hl_keys[r].name);
	print_registry_values(out);
	for (size_t r = 0; r < hl_nkeys; r++)
		for (size_t i = 0; hl_keys[r].type != HL_KT_IDENT && hl_keys[r].values &&
		                   hl_keys[r].values[i]; i++)
			if (!seen_value(hl_keys[r].values[i], r, i) &&
			    !hl_layout_find(hl_keys[r].values[i]))
				print_value(out, hl_keys[r].values[i]);
	fputs(DICT_TAIL, out);
}

/* roff: '-' is a hyphen unless escaped. */
static void roff(FILE *out, const char *s)
{
	for (; *s; s++)
		if (*s == '-' || *s == '\\')
			fprintf(out, "\\%c", *s == '-' ? '-' : 'e');
		else
			fputc(*s, out);
}

static void print_man(FILE *out)
{
	char type[512], scope[128];
	fprintf(out, ".\\\" The key list: generated by `hetlaunch keys --format man` from\n"
	        ".\\\" launcher/config/keys.c; do not edit by hand (tests/cli/cli_test.sh checks it).\n");
	for (size_t r = 0; r < hl_nkeys; r++) {
		const hl_key_def *k = &hl_keys[r];
		if (r == 0 || k->section != hl_keys[r - 1].section)
			fprintf(out, ".SS Keys: %s\n", SECTION_NAMES[k->section]);
		type_words(type, sizeof type, k, " | ");
		scope_words(scope, sizeof scope, k);
		fprintf(out, ".TP\n.B %s\n", k->name);
		roff(out, type);
		fprintf(out, "; %s; default: ", scope);
		roff(out, k->def[0] ? k->def : "none");
		fputs(".\n", out);
		roff(out, k->doc);
		fputs(".\n", out);
	}
}

static void print_md(FILE *out)
{
	char type[512], scope[128];
	fprintf(out, "<!-- generated by `hetlaunch keys --format md` from launcher/config/keys.c -->\n"
	        "| key | where | value | applies to | default | meaning |\n"
	        "|-----|-------|-------|------------|---------|---------|\n");
	for (size_t r = 0; r < hl_nkeys; r++) {
		const hl_key_def *k = &hl_keys[r];
		type_words(type, sizeof type, k, " \\| ");
		scope_words(scope, sizeof scope, k);
		fprintf(out, "| `%s` | %s | %s | %s | %s | %s |\n", k->name, SECTION_NAMES[k->section],
		        type, scope, k->def[0] ? k->def : "none", k->doc);
	}
}

int hl_keys_print(FILE *out, const char *format)
{
	if (strcmp(format, "dict") == 0)
		print_dict(out);
	else if (strcmp(format, "man") == 0)
		print_man(out);
	else if (strcmp(format, "md") == 0)
		print_md(out);
	else
		return -1;
	return 0;
}
