/*
 * layouts.c -- the registry of layouts (layout.h): one row each.  A new
 * layout is a new file launcher/layout_<name>.c and one line here.
 */
#include <string.h>

#include "layout.h"

extern const hl_layout_ops hl_layout_1d;   /* 000 s3, 002 s2: a slice */
extern const hl_layout_ops hl_layout_2d;   /* 000 s4: a grid and a panel */
extern const hl_layout_ops hl_layout_auto; /* 1d or 2d, the faster predicted */
extern const hl_layout_ops hl_layout_ring; /* 004: a ring for an iterative stencil */
extern const hl_layout_ops hl_layout_mw;   /* 003: matrix product from a master */
extern const hl_layout_ops hl_layout_columns; /* 001: matrix product on rectangles */

const hl_layout_ops *const hl_layouts[] = {
	&hl_layout_1d,
	&hl_layout_2d,
	&hl_layout_auto,
	&hl_layout_ring,
	&hl_layout_mw,
	&hl_layout_columns,
	NULL,
};

const hl_layout_ops *hl_layout_find(const char *s)
{
	for (size_t i = 0; hl_layouts[i]; i++)
		if (strcmp(hl_layouts[i]->name, s) == 0)
			return hl_layouts[i];
	return NULL;
}

const hl_layout_ops *hl_layout_default(void)
{
	return hl_layouts[0];
}

const char *hl_layout_name(const hl_layout_ops *l)
{
	return l ? l->name : hl_layout_default()->name;
}

int hl_plan_name_width(const hl_config *cfg)
{
	int w = 7;   /* "machine" */
	for (size_t i = 0; i < cfg->nmachines; i++) {
		int l = (int)strlen(cfg->machines[i].name);
		if (l > w)
			w = l;
	}
	return w;
}
