/*
 * options.c -- one parser and the printers for the command table
 * (options.h, commands.c).  Options may come before or after FILE, a value
 * as the next argument or after '=' (--format=man), and "--" ends the
 * options (a FILE that starts with '-').
 */
#include <stdarg.h>
#include <string.h>

#include "options.h"

int hl_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "hetlaunch: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'hetlaunch --help'.\n");
	return 2;
}

const hl_command *hl_command_find(const char *name)
{
	for (const hl_command *c = hl_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/* The option of c spelled s (name or alias, before any '='), or NULL. */
static const hl_option *find_option(const hl_command *c, const char *s)
{
	size_t n = strcspn(s, "=");
	for (const hl_option *o = c->opts; o->name; o++) {
		if (strlen(o->name) == n && strncmp(o->name, s, n) == 0)
			return o;
		if (o->alias && strcmp(o->alias, s) == 0)
			return o;
	}
	return NULL;
}

const hl_command *hl_command_with_option(const char *opt, const hl_command *except)
{
	for (const hl_command *c = hl_commands; c->name; c++)
		if (c != except && find_option(c, opt))
			return c;
	return NULL;
}

/* Levenshtein distance, capped: option names are short. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64];
	if (la >= 63 || lb >= 63)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* "unknown option", with the nearest option of c (at most 2 edits) or
 * the command that has it. */
static int unknown_option(const hl_command *c, const char *s)
{
	const hl_option *near = NULL;
	size_t best = 3;
	for (const hl_option *o = c->opts; o->name; o++) {
		size_t d = edit_distance(s, o->name);
		if (d < best) {
			best = d;
			near = o;
		}
	}
	if (near)
		return hl_usage_error("%s: unknown option '%s'; did you mean '%s'?", c->name, s,
		                      near->name);
	const hl_command *other = hl_command_with_option(s, c);
	if (other)
		return hl_usage_error("%s: unknown option '%s' (an option of '%s')", c->name, s,
		                      other->name);
	return hl_usage_error("%s: unknown option '%s'", c->name, s);
}

/* Option o at argv[*i]; its value from "=VALUE" or the next argument. */
static int take_option(const hl_command *c, const hl_option *o, int argc, char **argv, int *i,
                       hl_cli_args *a)
{
	const char *eq = strchr(argv[*i], '=');
	if (o->arg == NULL) {
		if (eq)
			return hl_usage_error("%s: %s takes no value", c->name, o->name);
		a->val[o->id] = "";
	} else if (eq) {
		a->val[o->id] = eq + 1;
	} else if (*i + 1 < argc) {
		a->val[o->id] = argv[++*i];
	} else {
		return hl_usage_error("%s: %s needs %s", c->name, o->name, o->arg);
	}
	if (o->arg && o->literal && strcmp(a->val[o->id], o->arg) != 0)
		return hl_usage_error("%s: %s takes '%s'", c->name, o->name, o->arg);
	return 0;
}

static int take_file(const hl_command *c, const char *s, hl_cli_args *a)
{
	if (c->file_arg == NULL || a->file != NULL)
		return hl_usage_error("%s: unexpected argument '%s'", c->name, s);
	a->file = s;
	return 0;
}

int hl_cli_parse(const hl_command *c, int argc, char **argv, hl_cli_args *a)
{
	memset(a, 0, sizeof *a);
	int rc = 0;
	for (int i = 0; i < argc && rc == 0; i++) {
		const char *s = argv[i];
		if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0)
			return -1;
		if (strcmp(s, "--") == 0 && i + 1 < argc) {
			rc = take_file(c, argv[++i], a);
		} else if (s[0] == '-' && s[1] != '\0') {
			const hl_option *o = find_option(c, s);
			rc = o ? take_option(c, o, argc, argv, &i, a) : unknown_option(c, s);
		} else {
			rc = take_file(c, s, a);
		}
	}
	if (rc == 0 && a->file == NULL && c->file_arg && c->file_arg[0] != '[')
		rc = hl_usage_error("%s: missing %s", c->name, c->file_arg);
	return rc;
}

/* "[--out DIR]" as the usage line spells it. */
static int option_words(char *buf, size_t size, const hl_option *o)
{
	return snprintf(buf, size, "[%s%s%s]", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* One command's usage: "hetlaunch run FILE [--out DIR] ...", wrapped at
 * 80 columns under the first argument. */
static void usage_line(FILE *f, const char *lead, const hl_command *c)
{
	int col = fprintf(f, "%s%s", lead, c->name);
	int indent = col + 1;
	if (c->file_arg)
		col += fprintf(f, " %s", c->file_arg);
	for (const hl_option *o = c->opts; o->name; o++) {
		char w[96];
		int n = option_words(w, sizeof w, o);
		if (col + 1 + n > 80) {
			fprintf(f, "\n%*s", indent - 1, "");
			col = indent - 1;
		}
		col += fprintf(f, " %s", w);
	}
	fputc('\n', f);
}

/* text from column 25, wrapped before column 80. */
static void wrapped(FILE *f, const char *text)
{
	int col = 25;
	while (*text) {
		size_t w = strcspn(text, " ");
		if (col > 25 && col + 1 + (int)w > 79) {
			fprintf(f, "\n%25s", "");
			col = 25;
		} else if (col > 25) {
			col += fprintf(f, " ");
		}
		col += fprintf(f, "%.*s", (int)w, text);
		text += w;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

void hl_cli_command_help(FILE *f, const hl_command *c)
{
	usage_line(f, "usage: hetlaunch ", c);
	fputs(c->description, f);
	if (c->opts[0].name)
		fputs("\noptions:\n", f);
	for (const hl_option *o = c->opts; o->name; o++) {
		char w[96];
		snprintf(w, sizeof w, "%s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "",
		         o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-22s ", w);
		wrapped(f, o->help);
	}
	fputs("  -h, --help             this help\n", f);
}

void hl_cli_usage(FILE *f)
{
	fputs("usage: hetlaunch COMMAND [ARGS]\n"
	      "       hetlaunch FILE                same as 'hetlaunch run FILE'\n"
	      "\n"
	      "Plan and launch stock ScaLAPACK load-balanced on machines of different speeds.\n"
	      "\n"
	      "commands (hetlaunch COMMAND --help for each one's options):\n", f);
	for (const hl_command *c = hl_commands; c->name; c++) {
		char head[64];
		snprintf(head, sizeof head, "%s%s%s", c->name, c->file_arg ? " " : "",
		         c->file_arg ? c->file_arg : "");
		fprintf(f, "  %-22s %s\n", head, c->summary);
	}
	fputs("\noptions:\n"
	      "  -h, --help             show this help\n"
	      "  -V, --version          show the version\n"
	      "\n"
	      "FILE is a YAML machine list; see hetlaunch(1) and configs/lu.yaml.\n"
	      "Exit status: 0 success, 1 the job failed, 2 bad usage or bad input.\n", f);
}

/* s for roff: '-' as "\-", a leading '.' or '\'' guarded. */
static void roff(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '-' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\\' ? 'e' : *s, f);
	}
}

static void man_option(FILE *f, const hl_option *o)
{
	fputs(".RB [ ", f);
	roff(f, o->name);
	if (o->arg && o->literal) {
		fputs(" \" ", f);
		roff(f, o->arg);
		fputs("\" ]\n", f);
	} else if (o->arg) {
		fputs("\n.IR ", f);
		roff(f, o->arg);
		fputs(" ]\n", f);
	} else {
		fputs(" ]\n", f);
	}
}

static void print_man_synopsis(FILE *f)
{
	fputs(".\\\" generated by `hetlaunch help --format man-synopsis` from launcher/cli/commands.c;\n"
	      ".\\\" do not edit by hand (tests/cli/cli_test.sh checks it).\n", f);
	for (const hl_command *c = hl_commands; c->name; c++) {
		fputs(".B hetlaunch ", f);
		roff(f, c->name);
		fputc('\n', f);
		if (c->file_arg)
			fprintf(f, c->file_arg[0] == '[' ? ".RI [ %.*s ]\n" : ".I %.*s\n",
			        (int)strcspn(c->file_arg + (c->file_arg[0] == '['), "]"),
			        c->file_arg + (c->file_arg[0] == '['));
		for (const hl_option *o = c->opts; o->name; o++)
			man_option(f, o);
		fputs(".br\n", f);
	}
	fputs(".B hetlaunch\n.I FILE\n.RI [ \"run options\" ]\n.br\n"
	      ".B hetlaunch\n.RB [ \\-h | \\-\\-help ]\n.RB [ \\-V | \\-\\-version ]\n.br\n"
	      ".B hetlaunch\n.I COMMAND\n.BR \\-h | \\-\\-help\n", f);
}

static void print_man_options(FILE *f)
{
	fputs(".\\\" generated by `hetlaunch help --format man-options` from\n"
	      ".\\\" launcher/cli/commands.c; do not edit by hand.\n", f);
	for (const hl_command *c = hl_commands; c->name; c++) {
		if (!c->opts[0].name)
			continue;
		fputs(".SS ", f);
		roff(f, c->name);
		fputc('\n', f);
		for (const hl_option *o = c->opts; o->name; o++) {
			fputs(".TP\n.B ", f);
			if (o->alias) {
				roff(f, o->alias);
				fputs(", ", f);
			}
			roff(f, o->name);
			if (o->arg) {
				fputs(o->literal ? " " : " \\fI", f);
				roff(f, o->arg);
				fputs(o->literal ? "" : "\\fR", f);
			}
			fputc('\n', f);
			roff(f, o->help);
			fputs("\n", f);
		}
	}
}

static void print_md(FILE *f)
{
	fputs("<!-- generated by `hetlaunch help --format md` from launcher/cli/commands.c -->\n"
	      "| command | option | meaning |\n|---|---|---|\n", f);
	for (const hl_command *c = hl_commands; c->name; c++) {
		fprintf(f, "| `%s%s%s` | | %s |\n", c->name, c->file_arg ? " " : "",
		        c->file_arg ? c->file_arg : "", c->summary);
		for (const hl_option *o = c->opts; o->name; o++)
			fprintf(f, "| | `%s%s%s%s%s` | %s |\n", o->alias ? o->alias : "",
			        o->alias ? "`, `" : "", o->name, o->arg ? " " : "",
			        o->arg ? o->arg : "", o->help);
	}
}

int hl_cli_print(FILE *f, const char *format)
{
	if (strcmp(format, "text") == 0)
		hl_cli_usage(f);
	else if (strcmp(format, "man-synopsis") == 0)
		print_man_synopsis(f);
	else if (strcmp(format, "man-options") == 0)
		print_man_options(f);
	else if (strcmp(format, "md") == 0)
		print_md(f);
	else
		return -1;
	return 0;
}
