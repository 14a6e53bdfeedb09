/*
 * layout.h -- the layouts: how a problem is mapped onto the machines.
 *
 * A layout is ONE ROW of the registry in layouts.c, not a case in every
 * switch.  A row owns, for its value of `layout:`:
 *   - the loader of its YAML keys (their rows in keys.h name it);
 *   - its checks of the whole configuration (impossible shapes);
 *   - its plan, which calls the algorithms of vproc/;
 *   - its text picture and its keys of the plan document (INTERFACE.md);
 *   - its MPI ranks (the plan's, and the baseline's a user would run without
 *     us), and its predicted speedup over that baseline.
 * Adding a layout means writing launcher/layout_<name>.c with one
 * `const hl_layout_ops hl_layout_<name>` and listing it in layouts.c;
 * config.c, plan.c, plan_print.c and run.c call through the row.
 *
 * Data flows one way: YAML -> hl_config (load_key, check) -> hl_plan (plan)
 * -> hl_ranks, text, JSON (ranks, print_*) -> files -> job -> report.
 */
#ifndef HL_LAYOUT_H
#define HL_LAYOUT_H

#include <stdio.h>

#include "config/config.h"
#include "config/keys.h"
#include "config/load_values.h"   /* hl_cfg_*: the rows read their keys */
#include "util/diag.h"
#include "util/json.h"
#include "plan.h"
#include "config/yamltree.h"

struct hl_layout_ops {
	const char *name;     /* the value of `layout:` */
	const char *what;     /* one line: what it maps, and the paper section */
	/* Its keys, top level and per machine, are the rows of the schema
	 * (keys.h) whose `layouts` name it; another layout's key is refused at
	 * its line with "KEY is for layout: NAME".  `check` reads the
	 * per-machine ones (hl_cfg_machine_entry maps entries to machines). */

	/* Config.  load_key: one of its keys (in: its value node v; out: cfg).
	 * check: after every key and machine is loaded, with the tree still
	 * alive (in: root mapping); impossible shapes, per-machine keys.
	 * free_config: what load_key/check allocated (cfg->layout_cfg).
	 * Each returns 0, or -1 with every problem in d at its line:col. */
	int (*load_key)(hl_config *cfg, const char *key, const yt_node *v, diag *d);
	int (*check)(hl_config *cfg, const yt_node *root, diag *d);
	void (*free_config)(hl_config *cfg);

	/* Plan (in: a validated cfg; out: plan).  0, or -1 with the reason in d
	 * (exit status 2).  free_plan releases what plan allocated (may be NULL
	 * when the plan uses only hl_plan's common arrays). */
	int (*plan)(const hl_config *cfg, diag *d, hl_plan *plan);
	void (*free_plan)(hl_plan *plan);

	/* Words.  print_text: the whole table of `hetlaunch plan`.
	 * print_json: the layout's keys of the plan document, written after the
	 * common ones (hetlaunch, name, file, layout, kernel, n, nb, M, machines)
	 * into the open object w. */
	void (*print_text)(const hl_plan *plan, FILE *out);
	void (*print_json)(const hl_plan *plan, jw *w);

	/* Ranks in MPI rank order (out: r; 0, or -1 when out of memory):
	 * the plan's, and the baseline's (one process per machine). */
	int (*ranks)(const hl_plan *plan, hl_ranks *r);
	int (*ranks_baseline)(const hl_plan *plan, hl_ranks *r);

	/* The predicted speedup of the plan over the baseline (0: none). */
	double (*predicted_speedup)(const hl_plan *plan);

	/* Optional (NULL: none).  kernel_args: the arguments of a kernel fed
	 * by this layout's plan (kernels.h, HL_INPUT_PLAN), for the plan or the
	 * baseline (out: a malloc'ed array of nargs malloc'ed strings; 0, or -1
	 * when out of memory).  predicted_time: the job's predicted time in
	 * cycle_time units (an emulated run divides it by its K). */
	int (*kernel_args)(const hl_plan *plan, int baseline, char ***args, size_t *nargs);
	/* Optional (NULL: the plan's kernel).  The kernel the baseline runs
	 * when the plan's cannot be run by a user without us: layout columns'
	 * baseline is stock PDGEMM, "mm" (hl-driver), on ranks_baseline's grid
	 * with the config's n and nb. */
	const char *baseline_kernel;
	double (*predicted_time)(const hl_plan *plan, int baseline);
	/* Optional (NULL: none).  The name of the model predicted_speedup
	 * used ("seconds", "step-by-step", "steady state"). */
	const char *(*speedup_model)(const hl_plan *plan);
};

/* The registry, in the order `hetlaunch --help` and errors list them;
 * NULL-terminated. */
extern const hl_layout_ops *const hl_layouts[];

/* The row named s, or NULL. */
const hl_layout_ops *hl_layout_find(const char *s);

/* The default layout (1d). */
const hl_layout_ops *hl_layout_default(void);


/* The text width of the longest machine name (at least 7, "machine"). */
int hl_plan_name_width(const hl_config *cfg);

/* ---- words the rows print alike (layout_common.c) ------------------------ */

/* The plan text's first line: the run's name and file, and for kernel:
 * exec the model: its predictions follow. */
void hl_layout_text_title(const hl_plan *pl, FILE *out);

/* One entry of the plan document's "ranks": opens the object and writes
 * rank, machine and host; the row adds its own keys and closes it. */
void hl_layout_json_rank_open(jw *w, size_t rank, const hl_machine *m);

/* The labels of the predicted-time table of layouts 1d and 2d. */
typedef struct {
	const char *unit;     /* what one time is per: "column block" */
	const char *ideal;    /* the ideal balance's line */
	const char *plan;     /* this plan's line */
	const char *cyclic;   /* the cyclic baseline's line */
} hl_layout_labels;

/* Layouts 1d and 2d: the predicted time per block update (pl->ideal,
 * hetero, cyclic), the last two also over the ideal; then the row's own
 * lines, then hl_layout_text_speedup's. */
void hl_layout_text_predicted(const hl_plan *pl, const hl_layout_labels *l, FILE *out);
/* The one predicted speedup of layouts 1d and 2d (layout_common.c): the
 * model used, and the value in *speedup. */
typedef enum { HL_MODEL_SECONDS, HL_MODEL_STEP, HL_MODEL_STEADY } hl_dense_model;
hl_dense_model hl_dense_speedup(const hl_plan *pl, double *speedup);
const char *hl_dense_model_name(hl_dense_model m);
/* Its line, and when it is below 1 a line that says the plan loses, by
 * how much, and what made it so (the user's keys, or hetlaunch's choice). */
void hl_layout_text_speedup(const hl_plan *pl, FILE *out);
/* "predicted_speedup": {value, model} in the plan document. */
void hl_layout_json_speedup(const hl_plan *pl, jw *w);
/* Opens the plan document's "predicted" object with ideal, cyclic, hetero
 * and speedup; the row adds its own keys and closes it. */
void hl_layout_json_predicted_open(const hl_plan *pl, jw *w);

/* Plan text of more than HL_TEXT_FULL_MAX processors is summarised: the
 * identical processors of a count: entry grouped on one line, long tables
 * left to plan --full and --json (a page for hundreds of cores). */
#define HL_TEXT_FULL_MAX 16
int hl_text_summarised(const hl_plan *pl);
/* The length of the run from position i of idx[0..n) (NULL: list order):
 * machines of one list entry, equal cycle times and equal key[] (NULL: no
 * key), indexed by config index. */
size_t hl_text_run(const hl_config *cfg, const size_t *idx, size_t n, size_t i,
                   const size_t *key);
/* "new1.0-63" for machines first..last of one count: entry. */
void hl_text_run_label(const hl_config *cfg, size_t first, size_t last, char *buf, size_t len);
/* The hosts of machines first..last grouped back into a Slurm hostlist
 * ("cn[001-032]"; one host when they share it). */
void hl_text_run_hosts(const hl_config *cfg, size_t first, size_t last, char *buf, size_t len);

/* layout: auto's choice (layout_auto.c): its lines and its object of the
 * plan document; nothing when the file is not layout: auto. */
void hl_auto_print_text(const hl_plan *pl, FILE *out);
void hl_auto_json(const hl_plan *pl, jw *w);
/* layout: auto's predicted speedup of the kept plan over the one baseline,
 * in the comparison's model (*network: seconds with a network; else the
 * relative speeds); 0 when the file is not auto or nothing was predicted. */
int hl_auto_speedup(const hl_plan *pl, double *speedup, int *network);

/* Layout 2d: alike hosts' grid cells dealt so that their counts are equal
 * when a split exists and the model does not predict it slower; the groups
 * in plan->alike, the cost in plan->deal_cost (alike_hosts.c).  0, or -1
 * out of memory (in d). */
int hl_alike_deal(hl_plan *plan, diag *d);

/* The processes per host, the hosts dropped and why, and alike hosts given
 * unequal counts with the layout's why and its cost (host_summary.c). */
void hl_host_summary_text(const hl_plan *pl, FILE *out);

#endif
