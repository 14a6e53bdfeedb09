#include "yamltree.h"
#include "util/fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

/* A machine list of 10^5 processors is a few MiB. */
#define YT_MAX_BYTES (64 << 20)

static size_t byte_of(size_t index);

static yt_node *node_new(yt_kind kind, const yaml_mark_t *m)
{
	yt_node *n = calloc(1, sizeof *n);
	if (n == NULL)
		return NULL;
	n->kind = kind;
	n->line = m->line + 1;
	n->col = m->column + 1;
	n->start = byte_of(m->index);
	return n;
}

void yt_free(yt_node *n)
{
	if (n == NULL)
		return;
	for (size_t i = 0; i < n->len; i++)
		yt_free(n->items[i]);
	free(n->items);
	free(n->value);
	free(n);
}

static int node_push(yt_node *parent, yt_node *child)
{
	yt_node **a = realloc(parent->items, (parent->len + 1) * sizeof *a);
	if (a == NULL)
		return -1;
	parent->items = a;
	a[parent->len++] = child;
	parent->n = parent->kind == YT_MAP ? parent->len / 2 : parent->len;
	return 0;
}

/* Reads one node (and everything below it) from the event stream. */
static yt_node *parse_node(yaml_parser_t *p, yaml_event_t *ev, diag *d, int depth);

/* The text being parsed, for the place of a reader error (a NUL, bad
 * UTF-8), which libyaml gives as a byte offset only. */
static const unsigned char *text_start;
static size_t text_len;

static void offset_to_mark(size_t off, yaml_mark_t *m)
{
	m->line = m->column = 0;
	for (size_t i = 0; i < off && i < text_len; i++)
		if (text_start[i] == '\n') {
			m->line++;
			m->column = 0;
		} else if ((text_start[i] & 0xC0) != 0x80) {   /* a character, not a UTF-8 tail */
			m->column++;
		}
}

/* libyaml's mark index counts characters (after a byte order mark); the
 * byte offset, for an editor of the text (calibrate -o), walks the UTF-8
 * from where the last one ended: marks come in order. */
static size_t cur_char, cur_byte;

static size_t byte_of(size_t index)
{
	size_t bom = text_len >= 3 && memcmp(text_start, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	if (index < cur_char || cur_byte < bom) {
		cur_char = 0;
		cur_byte = bom;
	}
	while (cur_char < index && cur_byte < text_len) {
		cur_byte++;
		while (cur_byte < text_len && (text_start[cur_byte] & 0xC0) == 0x80)
			cur_byte++;
		cur_char++;
	}
	return cur_byte;
}

static int next_event(yaml_parser_t *p, yaml_event_t *ev, diag *d)
{
	if (!yaml_parser_parse(p, ev)) {
		const char *what = p->problem ? p->problem : "malformed YAML";
		if (p->error == YAML_READER_ERROR) {
			yaml_mark_t m;
			offset_to_mark(p->problem_offset, &m);
			diag_error(d, m.line + 1, m.column + 1, "YAML input: %s (byte %zu)", what,
			           p->problem_offset);
		} else if (p->context)
			diag_error(d, p->problem_mark.line + 1, p->problem_mark.column + 1,
			           "YAML syntax: %s %s", what, p->context);
		else
			diag_error(d, p->problem_mark.line + 1, p->problem_mark.column + 1,
			           "YAML syntax: %s", what);
		return -1;
	}
	return 0;
}

static yt_node *parse_children(yaml_parser_t *p, yt_node *n, yaml_event_type_t end,
                               diag *d, int depth)
{
	for (;;) {
		yaml_event_t ev;
		if (next_event(p, &ev, d) < 0) {
			yt_free(n);
			return NULL;
		}
		if (ev.type == end) {
			yaml_event_delete(&ev);
			return n;
		}
		yt_node *child = parse_node(p, &ev, d, depth + 1);
		if (child == NULL || node_push(n, child) < 0) {
			yt_free(child);
			yt_free(n);
			return NULL;
		}
	}
}

static yt_node *parse_node(yaml_parser_t *p, yaml_event_t *ev, diag *d, int depth)
{
	yt_node *n = NULL;
	const yaml_mark_t *m = &ev->start_mark;
	/* A machine list is a few levels deep; anything deeper is a mistake,
	 * and refusing it keeps the recursion bounded. */
	if (depth > 32) {
		diag_error(d, m->line + 1, m->column + 1, "YAML nested too deeply");
		yaml_event_delete(ev);
		return NULL;
	}
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		diag_error(d, m->line + 1, m->column + 1,
		           "YAML aliases (*%s) are not allowed: write the value out",
		           (const char *)ev->data.alias.anchor);
		break;
	case YAML_SCALAR_EVENT:
		if (ev->data.scalar.anchor) {
			diag_error(d, m->line + 1, m->column + 1,
			           "YAML anchors (&%s) are not allowed",
			           (const char *)ev->data.scalar.anchor);
			break;
		}
		n = node_new(YT_SCALAR, m);
		if (n == NULL)
			break;
		n->value = strndup((const char *)ev->data.scalar.value, ev->data.scalar.length);
		n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		n->end = byte_of(ev->end_mark.index);
		if (n->value == NULL || strlen(n->value) != ev->data.scalar.length) {
			diag_error(d, n->line, n->col, "NUL byte in a value");
			yt_free(n);
			n = NULL;
		}
		break;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		int seq = ev->type == YAML_SEQUENCE_START_EVENT;
		const yaml_char_t *anchor = seq ? ev->data.sequence_start.anchor
		                                : ev->data.mapping_start.anchor;
		if (anchor) {
			diag_error(d, m->line + 1, m->column + 1,
			           "YAML anchors (&%s) are not allowed", (const char *)anchor);
			break;
		}
		n = node_new(seq ? YT_SEQ : YT_MAP, m);
		if (n == NULL)
			break;
		yaml_event_delete(ev);
		return parse_children(p, n, seq ? YAML_SEQUENCE_END_EVENT : YAML_MAPPING_END_EVENT,
		                      d, depth);
	}
	default:
		diag_error(d, m->line + 1, m->column + 1, "unexpected YAML event");
		break;
	}
	yaml_event_delete(ev);
	return n;
}

/* The whole file, which must be a regular one: a directory is not a
 * machine list, and a FIFO or a device could block or never end. */
static unsigned char *read_file(const char *path, diag *d, size_t *len)
{
	char *buf;
	hl_read_status rs = hl_read_regular(path, YT_MAX_BYTES, &buf, len);
	switch (rs) {
	case HL_READ_OK: return (unsigned char *)buf;
	case HL_READ_OPEN: diag_error(d, 0, 0, "cannot open: %s", strerror(errno)); break;
	case HL_READ_DIR: diag_error(d, 0, 0, "is a directory, not a machine list"); break;
	case HL_READ_NOT_REGULAR:
		diag_error(d, 0, 0, "not a regular file (a FIFO or a device): give the machine list "
		           "as a file");
		break;
	case HL_READ_TOO_BIG:
		diag_error(d, 0, 0, "larger than %d MiB: not a machine list", YT_MAX_BYTES >> 20);
		break;
	case HL_READ_READ: diag_error(d, 0, 0, "cannot read: %s", strerror(errno)); break;
	case HL_READ_GREW: diag_error(d, 0, 0, "changed while being read"); break;
	case HL_READ_NOMEM: diag_error(d, 0, 0, "out of memory"); break;
	}
	return NULL;
}

int yt_load(const char *path, diag *d, yt_node **root)
{
	*root = NULL;
	size_t len;
	unsigned char *text = read_file(path, d, &len);
	if (text == NULL)
		return -1;
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p)) {
		free(text);
		diag_error(d, 0, 0, "out of memory");
		return -1;
	}
	text_start = text;
	text_len = len;
	cur_char = cur_byte = 0;
	yaml_parser_set_input_string(&p, text, len);
	int rc = -1, docs = 0;
	yt_node *doc = NULL;
	for (;;) {
		yaml_event_t ev;
		if (next_event(&p, &ev, d) < 0)
			break;
		yaml_event_type_t type = ev.type;
		if (type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			rc = 0;
			break;
		}
		if (type == YAML_DOCUMENT_START_EVENT) {
			if (++docs > 1) {
				diag_error(d, ev.start_mark.line + 1, ev.start_mark.column + 1,
				           "only one YAML document is allowed per file");
				yaml_event_delete(&ev);
				break;
			}
			yaml_event_delete(&ev);
			yaml_event_t body;
			if (next_event(&p, &body, d) < 0)
				break;
			if (body.type == YAML_DOCUMENT_END_EVENT) {  /* empty document */
				yaml_event_delete(&body);
				continue;
			}
			doc = parse_node(&p, &body, d, 0);
			if (doc == NULL)
				break;
			continue;
		}
		yaml_event_delete(&ev);  /* stream start, document end */
	}
	yaml_parser_delete(&p);
	free(text);
	text_start = NULL;
	text_len = 0;
	if (rc < 0) {
		yt_free(doc);
		return -1;
	}
	*root = doc;
	return 0;
}
