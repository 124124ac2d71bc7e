/* fuzz_config.c — the amdahl.yaml loader (libyaml into amd_node trees)
 * and the lookups modules make on it. */
#include "config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = fuzz_write(fuzz_scratch(), "amdahl.yaml", data, size);
	struct amd_config cfg;
	struct amd_err err = {{0}};
	int rc = amd_config_load(path, 1, &cfg, &err);
	fuzz_check_error(rc, &err, path);
	if (rc == 0) {
		static const char *const keys[] = {"gate.threshold", "metrics", "run.n_params",
						   "smtp.host", "metrics.epoch_time_s.direction"};
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
			amd_config_str(&cfg, keys[i], NULL);
			amd_config_num(&cfg, keys[i], 0);
			for (const struct amd_node *n = amd_node_first(amd_config_get(&cfg, keys[i]));
			     n; n = n->next)
				FUZZ_REQUIRE(n->kind != AMD_NODE_SCALAR || n->value);
		}
		amd_config_free(&cfg);
	}
	free(path);
	return 0;
}
