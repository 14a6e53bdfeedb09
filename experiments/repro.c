/*
 * repro.c -- experiments/: the deterministic tables and figures of the
 * papers, recomputed with libvproc and compared with the printed values.
 * experiments/run drives it; see experiments/README.md.  Each paper's ids
 * are one table in experiments/<paper>/ids.c (harness.h); this file lists
 * the tables and runs what it is asked.
 *
 *   repro --list                       the ids, one "ID<TAB>title" per line
 *   repro [--quick] --out DIR ID...    run the ids in order
 *
 * For each id it writes DIR/ID.json ({"id", "paper", "ours", "match",
 * "note"}, plus "expected_mismatch": true for a mismatch the note explains),
 * DIR/ID.md (its section of REPRODUCTION.md) and, for plotted figures,
 * DIR/ID.dat (gnuplot columns).  On stdout it reports "start ID" and
 * "done ID STATUS" (STATUS: match, mismatch, expected or none when there is
 * no paper value), so that the script can show progress.
 *
 * Everything is deterministic: random instances come from fixed-seed
 * generators of our own, not rand().
 *
 * Exit status: 0 done (mismatches are results, not failures), 1 a library
 * call or a write failed, 2 bad usage or an unknown id.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

extern const ex_paper EX_PAPER_000, EX_PAPER_001, EX_PAPER_002, EX_PAPER_003, EX_PAPER_004;

/* The papers, in the order of --list. */
static const ex_paper *const PAPERS[] = { &EX_PAPER_002, &EX_PAPER_000, &EX_PAPER_003, &EX_PAPER_004, &EX_PAPER_001,
	                                  NULL };

static const struct idspec *find_id(const char *id)
{
	for (size_t p = 0; PAPERS[p]; p++)
		for (size_t k = 0; k < PAPERS[p]->n; k++)
			if (strcmp(PAPERS[p]->ids[k].id, id) == 0)
				return &PAPERS[p]->ids[k];
	return NULL;
}

static int usage(void)
{
	fprintf(stderr, "usage: repro --list\n"
	                "       repro [--quick] --out DIR ID...\n");
	return 2;
}

int main(int argc, char **argv)
{
	int quick = 0;
	const char *dir = NULL;
	if (argc > 0)
		ex_prog = argv[0];
	int a = 1;
	for (; a < argc && argv[a][0] == '-'; a++) {
		if (strcmp(argv[a], "--list") == 0 && argc == 2) {
			for (size_t p = 0; PAPERS[p]; p++)
				for (size_t k = 0; k < PAPERS[p]->n; k++)
					printf("%s\t%s\n", PAPERS[p]->ids[k].id, PAPERS[p]->ids[k].title);
			return 0;
		} else if (strcmp(argv[a], "--quick") == 0) {
			quick = 1;
		} else if (strcmp(argv[a], "--out") == 0 && a + 1 < argc) {
			dir = argv[++a];
		} else {
			return usage();
		}
	}
	if (dir == NULL || a == argc)
		return usage();
	for (int k = a; k < argc; k++)
		if (find_id(argv[k]) == NULL) {
			fprintf(stderr, "repro: unknown id '%s' (repro --list shows them)\n", argv[k]);
			return 2;
		}
	for (int k = a; k < argc; k++)
		ex_run_id(find_id(argv[k]), quick, dir);
	for (size_t p = 0; PAPERS[p]; p++)
		if (PAPERS[p]->cleanup)
			PAPERS[p]->cleanup();
	return 0;
}
