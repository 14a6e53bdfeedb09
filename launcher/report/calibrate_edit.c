/*
 * calibrate_edit.c -- calibrate -o: the user's machine list with the
 * measured cycle times in it, and nothing else changed.  Rewriting the
 * list from the loaded configuration lost what hetlaunch does not carry
 * (comments, the order and style of keys, a layout's own keys such as
 * max_procs, emulate: true); so the original text is copied, and only
 * the scalar of each machine's cycle_time (yamltree's byte offsets) is
 * replaced.  A machine given by speed: gets cycle_time: in its place (a
 * list has one unit or the other, config/load_machines.c).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "util/fsutil.h"
#include "measured.h"
#include "config/yamltree.h"

/* Bytes [from, to) of the text become text. */
typedef struct {
	size_t from, to;
	char text[32];
} cal_edit;

typedef struct {
	char *src;          /* the machine list as the user wrote it */
	size_t len;
	cal_edit *ed;       /* in the text's order */
	size_t ned;
} cal_doc;

static int fill_edited(FILE *f, void *arg)
{
	const cal_doc *c = arg;
	size_t at = 0;
	for (size_t k = 0; k < c->ned; k++) {
		fwrite(c->src + at, 1, c->ed[k].from - at, f);
		fputs(c->ed[k].text, f);
		at = c->ed[k].to;
	}
	fwrite(c->src + at, 1, c->len - at, f);
	return ferror(f) ? -1 : 0;
}

static const yt_node *get(const yt_node *map, const char *key)
{
	for (size_t k = 0; map && map->kind == YT_MAP && k < map->n; k++)
		if (map->items[2 * k]->kind == YT_SCALAR && strcmp(map->items[2 * k]->value, key) == 0)
			return map->items[2 * k + 1];
	return NULL;
}

/* Whether node n's bytes in the text are its plain value (the offsets
 * found what the parser read). */
static int text_is(const cal_doc *c, const yt_node *n)
{
	size_t l = n->kind == YT_SCALAR ? strlen(n->value) : 0;
	return n->kind == YT_SCALAR && n->plain && n->end <= c->len && n->end - n->start == l &&
	       memcmp(c->src + n->start, n->value, l) == 0;
}

/* Entry `name` of count entries: its machine's ms, or (count > 1) the
 * mean over name.0, name.1, ... (config/load_machines.c's names): one entry, one
 * cycle_time.  0 if none is found. */
static double entry_ms(const hl_config *cfg, const double *ms, const char *name, int count)
{
	double sum = 0;
	size_t got = 0, len = strlen(name);
	for (size_t i = 0; i < cfg->nmachines; i++) {
		const char *m = cfg->machines[i].name;
		if (count ? strncmp(m, name, len) == 0 && m[len] == '.' && isdigit((unsigned char)m[len + 1])
		          : strcmp(m, name) == 0) {
			sum += ms[i];
			got++;
		}
	}
	return got ? sum / (double)got : 0.0;
}

/* The edits of one machine entry: its cycle_time's value, or speed's key
 * and value.  -1 with the reason in err. */
static int entry_edits(const hl_config *cfg, const double *ms, const yt_node *m, cal_doc *c,
                       char *err, size_t errlen)
{
	const yt_node *name = get(m, "name"), *val = get(m, "cycle_time"), *key = NULL;
	for (size_t k = 0; m->kind == YT_MAP && val == NULL && k < m->n; k++)
		if (m->items[2 * k]->kind == YT_SCALAR && strcmp(m->items[2 * k]->value, "speed") == 0) {
			key = m->items[2 * k];
			val = m->items[2 * k + 1];
		}
	double v = name && name->kind == YT_SCALAR
	                   ? entry_ms(cfg, ms, name->value, get(m, "count") != NULL) : 0.0;
	if (val == NULL || !text_is(c, val) || (key && !text_is(c, key)) || !(v > 0)) {
		snprintf(err, errlen, "%s:%zu:%zu: cannot put the measured cycle time into this "
		         "entry (the file changed since it was read?)", cfg->file, m->line, m->col);
		return -1;
	}
	if (key) {
		c->ed[c->ned] = (cal_edit){ key->start, key->end, "cycle_time" };
		c->ned++;
	}
	c->ed[c->ned] = (cal_edit){ val->start, val->end, "" };
	snprintf(c->ed[c->ned].text, sizeof c->ed[c->ned].text, "%.6g", v);
	c->ned++;
	return 0;
}

/* The file's text into c->src, and its tree.  -1 with the reason in err. */
static int load_text(const char *path, cal_doc *c, yt_node **root, char *err, size_t errlen)
{
	diag d;
	diag_init(&d, path);
	int rc = yt_load(path, &d, root);
	if (rc < 0 || *root == NULL)
		snprintf(err, errlen, "%s%s", d.count && d.msg[0] ? d.msg[0] : path,
		         d.count && d.msg[0] ? "" : ": empty");
	diag_free(&d);
	if (rc < 0 || *root == NULL)
		return -1;
	FILE *f = fopen(path, "rb");
	c->src = NULL;
	c->len = 0;
	if (f && fseek(f, 0, SEEK_END) == 0) {
		long n = ftell(f);
		c->src = n >= 0 ? malloc((size_t)n + 1) : NULL;
		rewind(f);
		if (c->src)
			c->len = fread(c->src, 1, (size_t)n, f);
	}
	if (f)
		fclose(f);
	if (c->src == NULL) {
		snprintf(err, errlen, "%s: cannot read it again", path);
		return -1;
	}
	return 0;
}

int hl_calibrate_edit(const hl_config *cfg, const double *ms, const char *out, char *err,
                      size_t errlen)
{
	cal_doc c = { 0 };
	yt_node *root = NULL;
	int rc = load_text(cfg->file, &c, &root, err, errlen);
	const yt_node *list = rc == 0 ? get(root, "machines") : NULL;
	if (rc == 0 && (list == NULL || list->kind != YT_SEQ)) {
		snprintf(err, errlen, "%s: no machines: list any more", cfg->file);
		rc = -1;
	}
	if (rc == 0 && (c.ed = calloc(2 * list->n + 1, sizeof *c.ed)) == NULL) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	for (size_t i = 0; rc == 0 && i < list->n; i++)
		rc = entry_edits(cfg, ms, list->items[i], &c, err, errlen);
	if (rc == 0)
		rc = hl_write_output(out, fill_edited, &c, err, errlen);
	free(c.ed);
	free(c.src);
	yt_free(root);
	return rc;
}
