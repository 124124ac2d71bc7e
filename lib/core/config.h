/* config.h — amdahl.yaml, loaded with libyaml into a small tree that
 * each module queries by dotted path ("gate.threshold",
 * "metrics.epoch_time_s.direction"). Unknown keys are kept, so a module
 * adds settings without touching this file. */
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

struct amd_config {
	struct amd_node *root; /* NULL: no file, every lookup gives defaults */
	char *path;
};

/* Loads path; a missing file at the default path is not an error
 * (required = 0), a broken one always is (with line and column). */
int amd_config_load(const char *path, int required, struct amd_config *cfg,
		    struct amd_err *err);
void amd_config_free(struct amd_config *cfg);

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
