/*
 * layout_common.c -- words the layouts' rows (layout.h) print alike: one
 * rank of the plan document, and layouts 1d's and 2d's predicted times per
 * block update against the ideal balance (000 s3.2, s4.3).
 */
#include "layout.h"

void hl_layout_json_rank_open(jw *w, size_t rank, const hl_machine *m)
{
	jw_obj(w);
	jw_key(w, "rank"); jw_uint(w, rank);
	jw_key(w, "machine"); jw_str(w, m->name);
	jw_key(w, "host"); jw_str(w, m->host);
}

/* One line of the table: t, and t over the ideal balance. */
static void text_vs_ideal(FILE *out, const char *label, double t, double ideal)
{
	fprintf(out, "  %-32s %12.6g  %.2f x ideal\n", label, t, t / ideal);
}

void hl_layout_text_predicted(const hl_plan *pl, const hl_layout_labels *l, FILE *out)
{
	fprintf(out, "\nPredicted time per %s, in units of cycle_time:\n", l->unit);
	fprintf(out, "  %-32s %12.6g\n", l->ideal, pl->ideal);
	text_vs_ideal(out, l->plan, pl->hetero, pl->ideal);
	text_vs_ideal(out, l->cyclic, pl->cyclic, pl->ideal);
}

void hl_layout_text_speedup(const hl_plan *pl, FILE *out)
{
	fprintf(out, "  predicted speedup over cyclic:   %12.2f  (bound %.2f)\n",
	        pl->cyclic / pl->hetero, pl->cyclic / pl->ideal);
}

void hl_layout_json_predicted_open(const hl_plan *pl, jw *w)
{
	jw_key(w, "predicted");
	jw_obj(w);
	jw_key(w, "ideal"); jw_num(w, pl->ideal);
	jw_key(w, "cyclic"); jw_num(w, pl->cyclic);
	jw_key(w, "hetero"); jw_num(w, pl->hetero);
	jw_key(w, "speedup"); jw_num(w, pl->cyclic / pl->hetero);
}
