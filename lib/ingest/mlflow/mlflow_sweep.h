/* mlflow_sweep.h — the sweep an MLflow experiment's runs go to. Every
 * MLflow store has an experiment 0 called `Default`: runs of two stores
 * (two mlruns/ trees, two mlflow.db files) that both used it would merge
 * into one sweep without a word, so `Default` is named after the folder
 * holding the store instead (docs/design.md, README "Sweeps"). */
#ifndef AMD_MLFLOW_SWEEP_H
#define AMD_MLFLOW_SWEEP_H

#include <stddef.h>

/* The sweep for experiment name exp of the store at store (an mlruns/
 * folder or an mlflow.db file): exp itself, except that MLflow's
 * `Default` becomes the name of the folder holding the store (its real
 * path's parent's last part), when it has one. The result is exp or buf. */
const char *amd_mlflow_sweep_name(const char *exp, const char *store, char *buf, size_t len);

#endif
