#!/usr/bin/python3
"""make_keyavg.py OUTDIR — writes the key_averages tables of
testdata/profiles: a few training steps of a small MLP on CPU under
torch.profiler (Debian's python3-torch), saved the way oumi's profiler
saves them (prof.key_averages().table(sort_by=..., row_limit=...)):

  train.keyavg.txt         sort by cpu_time_total, memory columns
  train-shapes.keyavg.txt  group_by_input_shape=True (an Input Shapes column)
"""
import os, sys
import torch
from torch.profiler import profile, ProfilerActivity, record_function

out = sys.argv[1]
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x, y = torch.randn(32, 64), torch.randint(0, 10, (32,))
with profile(activities=[ProfilerActivity.CPU], record_shapes=True, profile_memory=True) as prof:
    for _ in range(5):
        with record_function("train_step"):
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
with open(os.path.join(out, "train.keyavg.txt"), "w") as f:
    f.write(prof.key_averages().table(sort_by="cpu_time_total", row_limit=25))
with open(os.path.join(out, "train-shapes.keyavg.txt"), "w") as f:
    f.write(prof.key_averages(group_by_input_shape=True).table(sort_by="self_cpu_time_total",
                                                                row_limit=15))
