/*
 * nodes.h -- Slurm node types: a machines: entry that says `slurm:
 * {feature: F}`, `{partition: P}` or `{het_group: K}` instead of hosts gets
 * the nodes of an allocation that match it.  The nodes come from Slurm
 * itself (launch/slurm.c reads them with scontrol inside an allocation) or
 * from `--nodes TYPE=COUNT,...` (plan for counts outside one); load_types.c
 * asks for them through the source the command installed, only when the
 * file names a type.  Everything here is pure (no I/O).
 */
#ifndef HL_NODES_H
#define HL_NODES_H

#include <stddef.h>

typedef enum { HL_NT_NONE, HL_NT_FEATURE, HL_NT_PARTITION, HL_NT_HET_GROUP } hl_node_kind;

/* One allocated node, as Slurm describes it. */
typedef struct {
	char *name;         /* NodeName */
	char *features;     /* ActiveFeatures, comma-separated ("" none) */
	char *partitions;   /* Partitions, comma-separated */
	size_t cpus;        /* CPUTot (0: unknown) */
	long het_group;     /* the het-job component it is in; -1: not a het job */
} hl_node;

/* What the types are matched against: nodes (an allocation), or counts
 * per type (--nodes). */
typedef struct {
	hl_node *nodes;
	size_t n;
	int by_count;       /* --nodes: counts, no node names */
	char **count_type;  /* the TYPE of each TYPE=COUNT */
	size_t *count;
	size_t ncounts;
	char source[96];    /* "Slurm job 42" or "--nodes", for messages */
} hl_nodes;

void hl_nodes_free(hl_nodes *a);

/* How load_types.c gets them: the command installs a reader (NULL: none, a
 * type is then refused with what to do instead).  Returns 0, or -1 with
 * err. */
typedef int (*hl_nodes_reader)(void *ctx, hl_nodes *out, char *err, size_t len);
void hl_nodes_source(hl_nodes_reader fn, void *ctx);
int hl_nodes_read(hl_nodes *out, char *err, size_t len);
int hl_nodes_have_source(void);

/* --nodes TYPE=COUNT[,TYPE=COUNT...]: the reader's input.  0, or -1 with
 * err (the usage message). */
int hl_nodes_parse_counts(const char *arg, hl_nodes *out, char *err, size_t len);

/* scontrol show node -o: one line per node, KEY=VALUE words.  Adds each
 * node (NodeName, ActiveFeatures, Partitions, CPUTot) to out.  0, or -1. */
int hl_nodes_parse_scontrol(const char *text, hl_nodes *out, char *err, size_t len);

/* Does the node match the type?  word is the feature or partition, or
 * group the het_group. */
int hl_node_matches(const hl_node *nd, hl_node_kind kind, const char *word, long group);

/* "feature", "partition", "het_group" */
const char *hl_node_kind_name(hl_node_kind k);

#endif
