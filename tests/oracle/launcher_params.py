#!/usr/bin/python3
"""launcher_params.py SRC DST STYLE — copies the MLflow file store SRC
(tests use testdata/cpu-strong-scaling/mlruns) to DST with each run's
params rewritten as a launcher or tracker logs them, and prints what a
run's columns must then be: "ID N NODES STRATEGY" per run, sorted by id
("-" for none), from the original params (world_size, strategy), not
from amdahl. A world size W is split into NODES × PER-NODE as 2 × W/2
when W is even, else 1 × W.

Styles (the param names are the tools' own):
  torchrun    nnodes, nproc_per_node (torchrun's arguments)
  slurm       SLURM_NNODES, SLURM_NTASKS_PER_NODE, SLURM_JOB_ID (an env dump)
  env         WORLD_SIZE (an env dump); the first run keeps world_size
              too, beside a WORLD_SIZE it does not match
  lightning   num_nodes, devices (an int, or a list of indices for
              repeat 0), accelerator, strategy: "fsdp", or for ddp the
              repr of a DDPStrategy object (its address differs per run)
  accelerate  num_processes, num_machines, distributed_type (MULTI_GPU
              for ddp, FSDP for fsdp)
  per_node    num_nodes, RANKS_PER_HOST (amdahl.yaml names ranks_per_host)
  auto        lightning's, with devices "auto" or -1: no world size from
              the params, so n is the traces' (distributedInfo.world_size,
              read here from the run's artifacts) or none
"""
import gzip
import json
import os
import shutil
import sys

DROP = ("world_size", "num_gpus", "num_nodes", "strategy")


def split(w):
    return (2, w // 2) if w % 2 == 0 else (1, w)


def trace_world_size(run_dir):
    """The largest distributedInfo.world_size of the run's traces, or None."""
    sizes = []
    for dp, _, files in os.walk(os.path.join(run_dir, "artifacts")):
        for f in files:
            if f.endswith(".pt.trace.json.gz"):
                with gzip.open(os.path.join(dp, f), "rt", encoding="utf-8") as t:
                    sizes.append(json.load(t).get("distributedInfo", {}).get("world_size"))
    sizes = [s for s in sizes if isinstance(s, int) and s > 0]
    return max(sizes) if sizes else None


def rewrite(style, old, run_index, traced):
    """The new params and the expected (n, nodes, strategy)."""
    w, strategy, repeat = int(old["world_size"]), old["strategy"], int(old["repeat"])
    nodes, per = split(w)
    new = {k: v for k, v in old.items() if k not in DROP}
    want = (w, nodes, strategy)
    if style == "torchrun":
        new.update(strategy=strategy, nnodes=nodes, nproc_per_node=per)
    elif style == "slurm":
        new.update(strategy=strategy, SLURM_NNODES=nodes, SLURM_NTASKS_PER_NODE=per,
                   SLURM_JOB_ID=4242 + run_index)
    elif style == "env":
        new.update(strategy=strategy, WORLD_SIZE=w, num_nodes=nodes)
        if run_index == 0:
            new.update(world_size=w, WORLD_SIZE=w + 5)
    elif style in ("lightning", "auto"):
        devices = str(list(range(per))) if repeat == 0 else per
        if style == "auto":
            devices = "auto" if repeat == 0 else -1
            want = (traced, nodes, strategy)
        if strategy == "ddp":
            logged = "<lightning.pytorch.strategies.ddp.DDPStrategy object at 0x7f%08x>" % (
                0x1000 * (run_index + 1))
            want = (want[0], nodes, "DDPStrategy")
        else:
            logged = strategy
            want = (want[0], nodes, strategy)
        new.update(num_nodes=nodes, devices=devices, accelerator="cpu", strategy=logged)
    elif style == "accelerate":
        kind = {"ddp": "MULTI_GPU", "fsdp": "FSDP"}[strategy]
        new.update(num_processes=w, num_machines=nodes, distributed_type=kind)
        want = (w, nodes, kind)
    elif style == "per_node":
        new.update(strategy=strategy, num_nodes=nodes, RANKS_PER_HOST=per)
    else:
        sys.exit("unknown style " + style)
    return new, want


def main():
    src, dst, style = sys.argv[1:4]
    shutil.copytree(src, dst)
    lines = []
    runs = sorted(os.path.join(dp, "params") for dp, dirs, _ in os.walk(dst)
                  if "params" in dirs)
    for i, pdir in enumerate(runs):
        old = {}
        for name in os.listdir(pdir):
            with open(os.path.join(pdir, name), encoding="utf-8") as f:
                old[name] = f.read()
            os.unlink(os.path.join(pdir, name))
        new, want = rewrite(style, old, i, trace_world_size(os.path.dirname(pdir)))
        for k, v in new.items():
            with open(os.path.join(pdir, k), "w", encoding="utf-8") as f:
                f.write(str(v))
        run_id = os.path.basename(os.path.dirname(pdir))
        lines.append("%s %s" % (run_id, " ".join("-" if x is None else str(x) for x in want)))
    print("\n".join(sorted(lines)))


main()
