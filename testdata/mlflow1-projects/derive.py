#!/usr/bin/python3
"""derive.py — writes mlruns/, an MLflow 1.x file store as an MLflow
Projects pipeline leaves it (the shape of MLflow 1.11's multistep_workflow
example run with `mlflow run . -e ENTRY -P k=v`): runs have `name: ''` in
meta.yaml and no mlflow.runName tag; what tells them apart is the tag
mlflow.project.entryPoint, the tag mlflow.source.name and the params.
Two notebook runs (source ipykernel_launcher.py, no entry point) and one
run with neither tags nor params complete it. Experiment 0 is MLflow's
`Default`. Run ids and times are fixed, so the tree is the same each time.

Usage: derive.py [OUT]   (default: mlruns/ next to this script)"""
import hashlib
import os
import shutil
import sys

HOME = "/home/ana/mlflow-example/multistep_workflow"
SRC = "file://" + HOME
COMMIT = "5a8fe1d6e48c10e7e6dc3bf1f8e0ab5e2b0f09d1"
NOTEBOOK = "/opt/conda/lib/python3.8/site-packages/ipykernel_launcher.py"
T0 = 1602690000000  # 2020-10-14, MLflow 1.11


def rid(label):
    return hashlib.md5(label.encode()).hexdigest()


# (label, entry point or None, source or None, params, status, seconds, metrics)
RUNS = [
    ("lr1", "load_raw_data", SRC, {}, 3, 41, {}),
    ("etl1", "etl_data", SRC, {"ratings_csv": "file://%s/mlruns/0/%s/artifacts/ratings-csv-dir"
                              % (HOME, rid("lr1")), "max_row_limit": "10000"}, 3, 12, {}),
    ("als1", "als", SRC, {"ratings_data": "file:///home/ana/data/ratings-parquet-dir",
                          "max_iter": "10", "reg_param": "0.1", "rank": "12"}, 3, 95,
     {"train_mse": [0.6721], "test_mse": [0.8410]}),
    ("keras1", "train_keras", SRC, {"ratings_data": "file:///home/ana/data/ratings-parquet-dir",
                                    "als_model_uri": "runs:/%s/als-model" % rid("als1"),
                                    "hidden_units": "20"}, 3, 230,
     {"loss": [0.912, 0.701, 0.655], "val_loss": [0.934, 0.803, 0.790]}),
    ("main1", "main", SRC, {"als_max_iter": "10", "keras_hidden_units": "20",
                            "max_row_limit": "10000"}, 3, 390, {}),
    ("lr2", "load_raw_data", SRC, {}, 3, 39, {}),
    ("etl2", "etl_data", SRC, {"ratings_csv": "file://%s/mlruns/0/%s/artifacts/ratings-csv-dir"
                              % (HOME, rid("lr2")), "max_row_limit": "10000"}, 3, 11, {}),
    ("als2", "als", SRC, {"ratings_data": "file:///home/ana/data/ratings-parquet-dir",
                          "max_iter": "10", "reg_param": "0.1", "rank": "12"}, 3, 97,
     {"train_mse": [0.6719], "test_mse": [0.8402]}),
    ("keras2", "train_keras", SRC, {"ratings_data": "file:///home/ana/data/ratings-parquet-dir",
                                    "als_model_uri": "runs:/%s/als-model" % rid("als1"),
                                    "hidden_units": "20"}, 4, 61,
     {"loss": [0.915]}),
    ("main2", "main", SRC, {"als_max_iter": "10", "keras_hidden_units": "20",
                            "max_row_limit": "10000"}, 3, 240, {}),
    ("als3", "als", SRC, {"ratings_data": "file:///home/ana/data/ratings-parquet-dir",
                          "max_iter": "20", "reg_param": "0.1", "rank": "12"}, 3, 180,
     {"train_mse": [0.6402], "test_mse": [0.8377]}),
    ("nb1", None, NOTEBOOK, {"alpha": "0.5"}, 3, 3, {"rmse": [0.79]}),
    ("nb2", None, NOTEBOOK, {"alpha": "0.5"}, 3, 3, {"rmse": [0.78]}),
    ("bare", None, None, {}, 3, 1, {"rmse": [0.81]}),
]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "mlruns")
    shutil.rmtree(out, ignore_errors=True)
    exp = os.path.join(out, "0")
    write(os.path.join(exp, "meta.yaml"),
          "artifact_location: file://%s/mlruns/0\nexperiment_id: '0'\n"
          "lifecycle_stage: active\nname: Default\n" % HOME)
    t = T0
    for label, entry, source, params, status, secs, metrics in RUNS:
        r = rid(label)
        d = os.path.join(exp, r)
        start, end = t, t + secs * 1000 + 137
        t = end + 2000
        write(os.path.join(d, "meta.yaml"),
              "artifact_uri: file://%s/mlruns/0/%s/artifacts\nend_time: %d\n"
              "entry_point_name: ''\nexperiment_id: '0'\nlifecycle_stage: active\n"
              "name: ''\nrun_id: %s\nrun_uuid: %s\nsource_name: ''\nsource_type: 4\n"
              "source_version: ''\nstart_time: %d\nstatus: %d\ntags: []\nuser_id: ana\n"
              % (HOME, r, end, r, r, start, status))
        tags = {"mlflow.user": "ana"}
        if entry:
            tags.update({"mlflow.project.entryPoint": entry, "mlflow.source.type": "PROJECT",
                         "mlflow.project.env": "conda", "mlflow.project.backend": "local",
                         "mlflow.source.git.commit": COMMIT})
        elif source:
            tags["mlflow.source.type"] = "LOCAL"
        if source:
            tags["mlflow.source.name"] = source
        if label != "bare":
            for k, v in tags.items():
                write(os.path.join(d, "tags", k), v)
        for k, v in params.items():
            write(os.path.join(d, "params", k), v)
        for k, vals in metrics.items():
            lines = "".join("%d %r %d\n" % (start + 1000 * (i + 1), v, i)
                            for i, v in enumerate(vals))
            write(os.path.join(d, "metrics", k), lines)


if __name__ == "__main__":
    main()
