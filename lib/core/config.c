/* config.c — amdahl.yaml through libyaml's event parser into struct
 * amd_node trees, and from its tree into the typed configuration, struct
 * amd_config; see config.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "buf.h"
#include "file.h"
#include "num.h"

static void node_free(struct amd_node *n)
{
	while (n) {
		struct amd_node *next = n->next;
		node_free(n->child);
		free(n->key);
		free(n->value);
		free(n);
		n = next;
	}
}

static struct amd_node *parse_node(yaml_parser_t *p, yaml_event_t *ev, int depth,
				   struct amd_err *err, const char *path);

/* Why libyaml stopped. */
static const char *yaml_problem(const yaml_parser_t *p)
{
	if (p->error == YAML_MEMORY_ERROR)
		return "out of memory";
	return p->problem ? p->problem : "invalid YAML";
}

/* A scalar holding "\0" (an escape in a double-quoted scalar): a C
 * string would end there and the rest of the text be lost unsaid. */
static int has_nul(const yaml_event_t *ev)
{
	return strlen((const char *)ev->data.scalar.value) != ev->data.scalar.length;
}

/* The error for has_nul, naming where the scalar starts. */
static int nul_fail(const yaml_event_t *ev, struct amd_err *err, const char *path)
{
	return amd_fail(err, "%s: line %zu column %zu: a NUL character (\\0) in a value, which"
			" amdahl cannot keep", path, ev->start_mark.line + 1,
			ev->start_mark.column + 1);
}

/* Reads children until the closing event of a map or sequence. */
static int parse_children(yaml_parser_t *p, struct amd_node *parent, int is_map,
			  int depth, struct amd_err *err, const char *path)
{
	struct amd_node **tail = &parent->child;
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(p, &ev))
			return amd_fail(err, "%s: line %zu column %zu: %s", path,
					p->problem_mark.line + 1, p->problem_mark.column + 1,
					yaml_problem(p));
		if (ev.type == YAML_MAPPING_END_EVENT || ev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&ev);
			return 0;
		}
		char *key = NULL;
		if (is_map) {
			if (ev.type != YAML_SCALAR_EVENT) {
				size_t line = ev.start_mark.line + 1;
				yaml_event_delete(&ev);
				return amd_fail(err, "%s: line %zu: map keys must be plain text",
						path, line);
			}
			if (has_nul(&ev)) {
				int rc = nul_fail(&ev, err, path);
				yaml_event_delete(&ev);
				return rc;
			}
			key = strdup((char *)ev.data.scalar.value);
			yaml_event_delete(&ev);
			if (!key)
				return amd_fail(err, "%s: out of memory", path);
			if (!yaml_parser_parse(p, &ev)) {
				free(key);
				return amd_fail(err, "%s: line %zu column %zu: %s", path,
						p->problem_mark.line + 1,
						p->problem_mark.column + 1,
						yaml_problem(p));
			}
		}
		struct amd_node *child = parse_node(p, &ev, depth + 1, err, path);
		if (!child) {
			free(key);
			return -1;
		}
		child->key = key;
		*tail = child;
		tail = &child->next;
	}
}

static struct amd_node *parse_node(yaml_parser_t *p, yaml_event_t *ev, int depth,
				   struct amd_err *err, const char *path)
{
	if (depth > 64) {
		amd_fail(err, "%s: line %zu: nested too deeply", path, ev->start_mark.line + 1);
		yaml_event_delete(ev);
		return NULL;
	}
	struct amd_node *n = calloc(1, sizeof *n);
	if (!n) {
		yaml_event_delete(ev);
		amd_fail(err, "%s: out of memory", path);
		return NULL;
	}
	int rc = 0;
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		n->kind = AMD_NODE_SCALAR;
		if (has_nul(ev))
			rc = nul_fail(ev, err, path);
		else if (!(n->value = strdup((char *)ev->data.scalar.value)))
			rc = amd_fail(err, "%s: out of memory", path);
		yaml_event_delete(ev);
		break;
	case YAML_MAPPING_START_EVENT:
	case YAML_SEQUENCE_START_EVENT: {
		int is_map = ev->type == YAML_MAPPING_START_EVENT;
		n->kind = is_map ? AMD_NODE_MAP : AMD_NODE_SEQ;
		yaml_event_delete(ev);
		rc = parse_children(p, n, is_map, depth, err, path);
		break;
	}
	default:
		amd_fail(err, "%s: line %zu: aliases are not supported", path,
			 ev->start_mark.line + 1);
		yaml_event_delete(ev);
		rc = -1;
	}
	if (rc < 0) {
		node_free(n);
		return NULL;
	}
	return n;
}

/* Parses a whole YAML document held in text into a tree. */
static int parse_text(const char *text, size_t len, const char *path,
		      struct amd_node **root, struct amd_err *err)
{
	yaml_parser_t p;
	yaml_event_t ev;
	*root = NULL;
	if (!yaml_parser_initialize(&p))
		return amd_fail(err, "%s: cannot start the YAML parser", path);
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	int rc = 0;
	for (;;) {
		if (!yaml_parser_parse(&p, &ev)) {
			rc = amd_fail(err, "%s: line %zu column %zu: %s", path,
				      p.problem_mark.line + 1, p.problem_mark.column + 1,
				      yaml_problem(&p));
			break;
		}
		yaml_event_type_t t = ev.type;
		if (t == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		if (t == YAML_SCALAR_EVENT || t == YAML_MAPPING_START_EVENT ||
		    t == YAML_SEQUENCE_START_EVENT) {
			if (*root) {
				yaml_event_delete(&ev);
				continue;
			}
			*root = parse_node(&p, &ev, 0, err, path);
			if (!*root) {
				rc = -1;
				break;
			}
			continue;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	if (rc < 0) {
		node_free(*root);
		*root = NULL;
	}
	return rc;
}

int amd_yaml_parse(const char *text, size_t len, const char *path,
		   struct amd_node **root, struct amd_err *err)
{
	return parse_text(text, len, path, root, err);
}

void amd_yaml_free(struct amd_node *root)
{
	node_free(root);
}

/* ---- the typed configuration ---- */

static void num_from(const struct amd_node *n, struct amd_cfg_num *out)
{
	memset(out, 0, sizeof *out);
	if (!n)
		return;
	out->set = 1;
	if (n->kind != AMD_NODE_SCALAR)
		return;
	out->text = n->value;
	out->ok = amd_parse_double(n->value, &out->value) == 0;
}

double amd_cfg_num_or(const struct amd_cfg_num *n, double dflt)
{
	return n && n->ok ? n->value : dflt;
}

static void metric_from(const struct amd_node *entry, struct amd_cfg_metric *m)
{
	const struct amd_node *d = amd_node_get(entry, "direction");
	m->name = entry->key;
	num_from(amd_node_get(entry, "alpha"), &m->alpha);
	num_from(amd_node_get(entry, "threshold"), &m->threshold);
	m->direction_text = d && d->kind == AMD_NODE_SCALAR ? d->value : NULL;
	m->direction = !d ? AMD_CFG_DIR_UNSET
		     : m->direction_text && strcmp(d->value, "lower") == 0 ? AMD_CFG_DIR_LOWER
		     : m->direction_text && strcmp(d->value, "higher") == 0 ? AMD_CFG_DIR_HIGHER
		     : AMD_CFG_DIR_BAD;
}

/* gate.*: alpha, threshold and the named metrics (a map's entries). */
static int gate_from(struct amd_config *cfg)
{
	struct amd_cfg_gate *g = &cfg->gate;
	num_from(amd_config_get(cfg, "gate.alpha"), &g->alpha);
	num_from(amd_config_get(cfg, "gate.threshold"), &g->threshold);
	g->on_insufficient = amd_config_str(cfg, "gate.on_insufficient", NULL);
	const struct amd_node *first = amd_node_first(amd_config_get(cfg, "gate.metrics"));
	size_t n = 0;
	for (const struct amd_node *c = first; c; c = c->next)
		n += c->key != NULL;
	if (n && !(g->metrics = calloc(n, sizeof *g->metrics)))
		return -1;
	for (const struct amd_node *c = first; c; c = c->next)
		if (c->key)
			metric_from(c, &g->metrics[g->nmetrics++]);
	return 0;
}

/* mail.*: mail.to a scalar ("a, b") or a sequence of addresses. */
static int mail_from(struct amd_config *cfg)
{
	struct amd_cfg_mail *m = &cfg->mail;
	const struct amd_node *to = amd_config_get(cfg, "mail.to");
	struct amd_buf b = {0};
	int rc = 0;
	if (to && to->kind == AMD_NODE_SCALAR && to->value)
		rc = amd_buf_printf(&b, "%s", to->value);
	for (const struct amd_node *c = to && to->kind == AMD_NODE_SEQ ? amd_node_first(to) : NULL;
	     c && rc == 0; c = c->next)
		if (c->value)
			rc = amd_buf_printf(&b, "%s%s", b.len ? "," : "", c->value);
	m->to = b.data;
	m->from = amd_config_str(cfg, "mail.from", NULL);
	m->subject = amd_config_str(cfg, "mail.subject", NULL);
	m->cacert = amd_config_str(cfg, "mail.cacert", NULL);
	m->smtp = amd_config_str(cfg, "mail.smtp", NULL);
	num_from(amd_config_get(cfg, "mail.timeout"), &m->timeout);
	const char *ssl = amd_config_str(cfg, "mail.ssl_reqd", "false");
	m->ssl_reqd = strcmp(ssl, "true") == 0 || strcmp(ssl, "yes") == 0;
	return rc < 0 ? -1 : 0;
}

static int list_from(const struct amd_config *cfg, const char *dotted, struct amd_cfg_list *l)
{
	const struct amd_node *n = amd_config_get(cfg, dotted);
	size_t k = 0;
	l->set = n != NULL;
	for (const struct amd_node *c = amd_node_first(n); c; c = c->next)
		k++;
	if (k && !(l->items = malloc(k * sizeof *l->items)))
		return -1;
	for (const struct amd_node *c = amd_node_first(n); c; c = c->next)
		l->items[l->n++] = c->value ? c->value : "";
	return 0;
}

/* run.*_params: the params that name a run's columns. */
static int run_from(struct amd_config *cfg)
{
	struct amd_cfg_run *r = &cfg->run;
	return list_from(cfg, "run.strategy_params", &r->strategy_params) < 0 ||
	       list_from(cfg, "run.n_params", &r->n_params) < 0 ||
	       list_from(cfg, "run.nodes_params", &r->nodes_params) < 0 ||
	       list_from(cfg, "run.rank_params", &r->rank_params) < 0 ||
	       list_from(cfg, "run.repeat_params", &r->repeat_params) < 0 ||
	       list_from(cfg, "run.per_node_params", &r->per_node_params) < 0 ? -1 : 0;
}

const struct amd_cfg_metric *amd_cfg_gate_metric(const struct amd_config *cfg, const char *name)
{
	for (size_t i = 0; cfg && i < cfg->gate.nmetrics; i++)
		if (strcmp(cfg->gate.metrics[i].name, name) == 0)
			return &cfg->gate.metrics[i];
	return NULL;
}

static int unknown_from(struct amd_config *cfg);

int amd_config_load(const char *path, int required, struct amd_config *cfg,
		    struct amd_err *err)
{
	memset(cfg, 0, sizeof *cfg);
	struct stat sb;
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && (required || !S_ISDIR(sb.st_mode)))
		return amd_fail(err, "%s: not a regular file (%s), so not a configuration file", path,
				S_ISDIR(sb.st_mode) ? "a directory" : S_ISCHR(sb.st_mode) ? "a device"
				: S_ISFIFO(sb.st_mode) ? "a FIFO" : "not a file");
	if (!amd_is_file(path)) {
		if (required)
			return amd_fail(err, "%s: no such configuration file", path);
		return 0;
	}
	struct amd_buf b = {0};
	if (amd_read_file(path, 1 << 20, &b, err) < 0)
		return -1;
	int rc = parse_text(b.data, b.len, path, &cfg->root, err);
	amd_buf_free(&b);
	if (rc < 0)
		return -1;
	if (cfg->root && cfg->root->kind != AMD_NODE_MAP) {
		node_free(cfg->root);
		cfg->root = NULL;
		return amd_fail(err, "%s: line 1: expected a map of settings", path);
	}
	if (!(cfg->path = strdup(path)) || gate_from(cfg) < 0 || mail_from(cfg) < 0 ||
	    run_from(cfg) < 0 || unknown_from(cfg) < 0) {
		amd_config_free(cfg);
		return amd_fail(err, "%s: out of memory", path);
	}
	return 0;
}

/* The keys amdahl reads, per place. */
static const char *const top_keys[] = {"gate", "mail", "run"};
static const char *const gate_keys[] = {"alpha", "threshold", "metrics", "on_insufficient"};
static const char *const metric_keys[] = {"direction", "alpha", "threshold"};
static const char *const mail_keys[] = {"to", "from", "subject", "cacert", "smtp", "timeout",
					"ssl_reqd"};
static const char *const run_keys[] = {"strategy_params", "n_params", "nodes_params",
				       "rank_params", "repeat_params", "per_node_params"};
#define NKEYS(a) (sizeof a / sizeof a[0])

static int known(const char *key, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(key, keys[i]) == 0)
			return 1;
	return 0;
}

/* Each key of map not among keys, as an unknown one under parent. */
static int unknown_in(struct amd_config *cfg, const struct amd_node *map, const char *parent,
		      const char *const *keys, size_t n, size_t *cap)
{
	for (const struct amd_node *c = map && map->kind == AMD_NODE_MAP ? map->child : NULL; c;
	     c = c->next) {
		if (!c->key || known(c->key, keys, n))
			continue;
		if (amd_grow(&cfg->unknown, cfg->nunknown, cap, sizeof *cfg->unknown, 4) < 0)
			return -1;
		struct amd_cfg_unknown *u = &cfg->unknown[cfg->nunknown];
		if (!(u->parent = strdup(parent)))
			return -1;
		u->key = c->key;
		u->known = keys;
		u->nknown = n;
		cfg->nunknown++;
	}
	return 0;
}

/* Every key the file has that amdahl does not read. */
static int unknown_from(struct amd_config *cfg)
{
	size_t cap = 0;
	if (unknown_in(cfg, cfg->root, "", top_keys, NKEYS(top_keys), &cap) < 0 ||
	    unknown_in(cfg, amd_config_get(cfg, "gate"), "gate", gate_keys, NKEYS(gate_keys), &cap) < 0 ||
	    unknown_in(cfg, amd_config_get(cfg, "mail"), "mail", mail_keys, NKEYS(mail_keys), &cap) < 0 ||
	    unknown_in(cfg, amd_config_get(cfg, "run"), "run", run_keys, NKEYS(run_keys), &cap) < 0)
		return -1;
	for (size_t i = 0; i < cfg->gate.nmetrics; i++) {
		char parent[300];
		snprintf(parent, sizeof parent, "gate.metrics.%s", cfg->gate.metrics[i].name);
		const struct amd_node *m = amd_node_get(amd_config_get(cfg, "gate.metrics"),
							  cfg->gate.metrics[i].name);
		if (unknown_in(cfg, m, parent, metric_keys, NKEYS(metric_keys), &cap) < 0)
			return -1;
	}
	return 0;
}

static void list_free(struct amd_cfg_list *l)
{
	free(l->items);
}

void amd_config_free(struct amd_config *cfg)
{
	node_free(cfg->root);
	free(cfg->path);
	free(cfg->gate.metrics);
	for (size_t i = 0; i < cfg->nunknown; i++)
		free((char *)cfg->unknown[i].parent);
	free(cfg->unknown);
	free(cfg->mail.to);
	list_free(&cfg->run.strategy_params);
	list_free(&cfg->run.n_params);
	list_free(&cfg->run.nodes_params);
	list_free(&cfg->run.rank_params);
	list_free(&cfg->run.repeat_params);
	list_free(&cfg->run.per_node_params);
	memset(cfg, 0, sizeof *cfg);
}

const struct amd_node *amd_node_first(const struct amd_node *n)
{
	return n && n->kind != AMD_NODE_SCALAR ? n->child : NULL;
}

const struct amd_node *amd_node_get(const struct amd_node *map, const char *key)
{
	if (!map || map->kind != AMD_NODE_MAP)
		return NULL;
	for (const struct amd_node *c = map->child; c; c = c->next)
		if (c->key && strcmp(c->key, key) == 0)
			return c;
	return NULL;
}

const struct amd_node *amd_config_get(const struct amd_config *cfg, const char *dotted)
{
	if (!cfg || !cfg->root)
		return NULL;
	const struct amd_node *n = cfg->root;
	char part[256];
	const char *s = dotted;
	while (n && *s) {
		size_t len = strcspn(s, ".");
		if (len >= sizeof part)
			return NULL;
		memcpy(part, s, len);
		part[len] = '\0';
		n = amd_node_get(n, part);
		s += len;
		if (*s == '.')
			s++;
	}
	return n;
}

const char *amd_config_str(const struct amd_config *cfg, const char *dotted,
			   const char *dflt)
{
	const struct amd_node *n = amd_config_get(cfg, dotted);
	return n && n->kind == AMD_NODE_SCALAR ? n->value : dflt;
}

double amd_config_num(const struct amd_config *cfg, const char *dotted, double dflt)
{
	const char *s = amd_config_str(cfg, dotted, NULL);
	double v;
	if (!s || amd_parse_double(s, &v) < 0)
		return dflt;
	return v;
}
