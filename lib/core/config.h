/* config.h — amdahl.yaml, read once (at set-up, cmd/main.c's
 * NEEDS_CONFIG) into a typed configuration, struct amd_config: a field
 * for every setting the code reads — the gate's alpha, threshold and
 * per-metric rules, the mail's addresses and server, the params that
 * name a run's columns. A setting is kept as written (a number that is
 * not one stays "set, not ok" with its text): the module that uses it
 * judges it and names the key in its error, so a command fails only on
 * the settings it reads. Unknown keys are listed (cfg->unknown) for the
 * front end to warn about, with the keys known in their place. The file goes through
 * libyaml into a small tree (struct amd_node), which MLflow's meta.yaml
 * reader uses too; the tree's dotted-path lookups below serve config.c
 * and the tests, the modules read the typed fields. */
#ifndef AMD_CONFIG_H
#define AMD_CONFIG_H

#include <stddef.h>

#include "err.h"

enum amd_node_kind { AMD_NODE_SCALAR, AMD_NODE_MAP, AMD_NODE_SEQ };

struct amd_node {
	enum amd_node_kind kind;
	char *key;    /* in a map: this entry's key */
	char *value;  /* scalars */
	struct amd_node *child, *next;
};

/* A number setting as written. */
struct amd_cfg_num {
	int set;          /* the key is there */
	int ok;           /* ... as a scalar that reads as a number: value */
	double value;
	const char *text; /* the scalar's text; NULL when absent or not a scalar */
};

/* value when the setting is a number, else dflt. */
double amd_cfg_num_or(const struct amd_cfg_num *n, double dflt);

/* A metric's better direction as written. */
enum amd_cfg_direction {
	AMD_CFG_DIR_UNSET,
	AMD_CFG_DIR_LOWER,
	AMD_CFG_DIR_HIGHER,
	AMD_CFG_DIR_BAD, /* neither lower nor higher: direction_text says what */
};

/* gate.metrics.NAME: the gate's rule for one metric. */
struct amd_cfg_metric {
	const char *name;
	struct amd_cfg_num alpha, threshold;
	enum amd_cfg_direction direction;
	const char *direction_text; /* the scalar; NULL when not a scalar */
};

/* A list of names (run.n_params, ...): set when the key is there, its
 * items the entries' texts ("" for an entry that is not a scalar). */
struct amd_cfg_list {
	int set;
	const char **items;
	size_t n;
};

/* A key the file has and amdahl does not read (a typo like
 * gate.treshold): the caller warns, naming the closest of the keys
 * known in its place. */
struct amd_cfg_unknown {
	const char *parent;            /* "gate", "gate.metrics.NAME", "" at the top */
	const char *key;               /* the key as written */
	const char *const *known;      /* the keys known in that place */
	size_t nknown;
};

struct amd_config {
	char *path; /* NULL: no file was read; every setting is absent */
	struct amd_cfg_gate {
		struct amd_cfg_num alpha, threshold; /* gate.alpha, gate.threshold */
		struct amd_cfg_metric *metrics;      /* gate.metrics, in the file's order */
		size_t nmetrics;
		const char *on_insufficient; /* gate.on_insufficient: fail, warn or pass (cmd judges) */
	} gate;
	struct amd_cfg_mail {
		char *to; /* mail.to: a scalar as written, a sequence's items joined by "," */
		const char *from, *subject, *cacert, *smtp;
		struct amd_cfg_num timeout; /* seconds */
		int ssl_reqd;               /* mail.ssl_reqd is true or yes */
	} mail;
	struct amd_cfg_run { /* the params that name a run's columns, first found wins */
		struct amd_cfg_list strategy_params, n_params, nodes_params, rank_params,
			repeat_params, per_node_params;
	} run;
	struct amd_node *root; /* the tree the fields point into */
	struct amd_cfg_unknown *unknown; /* keys amdahl does not read, in the file's order */
	size_t nunknown;
};

/* The first gate.metrics entry called name, or NULL (cfg may be NULL). */
const struct amd_cfg_metric *amd_cfg_gate_metric(const struct amd_config *cfg, const char *name);

/* Loads path; a missing file at the default path is not an error
 * (required = 0), a broken one always is (with line and column). */
int amd_config_load(const char *path, int required, struct amd_config *cfg,
		    struct amd_err *err);
void amd_config_free(struct amd_config *cfg);

/* The tree by dotted path ("gate.threshold"): config.c and the tests. */
const struct amd_node *amd_config_get(const struct amd_config *cfg, const char *dotted);
const char *amd_config_str(const struct amd_config *cfg, const char *dotted,
			   const char *dflt);
double amd_config_num(const struct amd_config *cfg, const char *dotted, double dflt);
/* Children of a map or sequence node (NULL-safe). */
const struct amd_node *amd_node_first(const struct amd_node *n);
const struct amd_node *amd_node_get(const struct amd_node *map, const char *key);

/* The same YAML loader for other YAML inputs (MLflow meta.yaml). */
int amd_yaml_parse(const char *text, size_t len, const char *path,
		   struct amd_node **root, struct amd_err *err);
void amd_yaml_free(struct amd_node *root);

#endif
