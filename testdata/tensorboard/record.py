#!/usr/bin/python3
# record.py — writes the TensorBoard sweep beside it: a real data-parallel
# training on CPU with numpy (a two-layer softmax classifier; N worker
# processes each compute the gradient of their shard of the global batch,
# the parent averages them and steps), timed per epoch, at N = 1, 2, 4
# with 3 repeats. Each run is a run directory as PyTorch's SummaryWriter
# lays it out: events.out.tfevents.<time>.<host>.<pid>.0 with simple_value
# scalars (epoch_time_s, throughput_samples_per_s, train_loss per epoch,
# step = epoch) and, from add_hparams, a <time>/ subfolder whose event
# file holds the hparams plugin's session start (strategy, world_size,
# global_batch_size, repeat). Records are TFRecords with masked CRC32C;
# messages are written with the wire format of TensorFlow's event.proto
# (Debian 12 packages neither tensorboard nor torch; this machine lacks
# python3-torch). Usage: record.py OUTDIR
import multiprocessing as mp
import os
import socket
import struct
import sys
import time

import numpy as np

POLY = 0x82F63B78
CRC = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ POLY if c & 1 else c >> 1
    CRC.append(c)


def masked_crc(data):
    c = 0xFFFFFFFF
    for b in data:
        c = CRC[(c ^ b) & 0xFF] ^ (c >> 8)
    c ^= 0xFFFFFFFF
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def var(v):
    out = b""
    while True:
        b, v = v & 0x7F, v >> 7
        out += bytes([b | (0x80 if v else 0)])
        if not v:
            return out


def field(num, wire, payload):
    key = var(num << 3 | wire)
    if wire == 2:
        return key + var(len(payload)) + payload
    return key + payload


def event(wall, step, summary=None, version=None):
    b = field(1, 1, struct.pack("<d", wall)) + field(2, 0, var(step))
    if version:
        b += field(3, 2, version.encode())
    if summary is not None:
        b += field(5, 2, summary)
    return b


def scalar(tag, x):
    return field(1, 2, field(1, 2, tag.encode()) + field(2, 5, struct.pack("<f", x)))


def hparams(hp):
    entries = b""
    for k, v in hp.items():
        val = field(2, 1, struct.pack("<d", v)) if isinstance(v, (int, float)) else field(3, 2, v.encode())
        entries += field(1, 2, field(1, 2, k.encode()) + field(2, 2, val))
    content = field(1, 0, var(0)) + field(3, 2, entries)
    meta = field(1, 2, field(1, 2, b"hparams") + field(2, 2, content))
    return field(1, 2, field(1, 2, b"_hparams_/session_start_info") + field(9, 2, meta))


def write(path, evs):
    with open(path, "wb") as f:
        for e in evs:
            n = struct.pack("<Q", len(e))
            f.write(n + struct.pack("<I", masked_crc(n)) + e + struct.pack("<I", masked_crc(e)))


def grad(args):
    w1, w2, xb, yb = args
    h = np.maximum(xb @ w1, 0)
    z = h @ w2
    p = np.exp(z - z.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    loss = -np.log(p[np.arange(len(yb)), yb]).sum()
    g = p.copy()
    g[np.arange(len(yb)), yb] -= 1
    return (xb.T @ ((g @ w2.T) * (h > 0)), h.T @ g, loss)


def run(outdir, n, repeat, pool):
    rng = np.random.default_rng(100 * n + repeat)
    x, y = rng.normal(size=(4096, 128)), rng.integers(0, 10, 4096)
    x[np.arange(4096), y] += 2.0
    w1, w2 = rng.normal(0, 0.05, (128, 256)), rng.normal(0, 0.05, (256, 10))
    gbs, evs = 256, [event(time.time(), 0, version="brain.Event:2")]
    for epoch in range(4):
        t0, total = time.time(), 0.0
        for i in range(0, 4096, gbs):
            shards = [(w1, w2, x[j:j + gbs // n], y[j:j + gbs // n]) for j in range(i, i + gbs, gbs // n)]
            parts = pool.map(grad, shards)
            w1 -= 0.05 * sum(p[0] for p in parts) / gbs
            w2 -= 0.05 * sum(p[1] for p in parts) / gbs
            total += sum(p[2] for p in parts)
        secs = time.time() - t0
        now = time.time()
        for tag, v in (("epoch_time_s", secs), ("throughput_samples_per_s", 4096 / secs),
                       ("train_loss", total / 4096)):
            evs.append(event(now, epoch, scalar(tag, v)))
    name = "dp-n%d-r%d" % (n, repeat)
    d = os.path.join(outdir, name)
    stamp = "%.6f" % time.time()
    os.makedirs(os.path.join(d, stamp), exist_ok=True)
    tail = "%s.%d.0" % (socket.gethostname(), os.getpid())
    write(os.path.join(d, "events.out.tfevents.%d.%s" % (int(time.time()), tail)), evs)
    hp = {"strategy": "dp", "world_size": n, "global_batch_size": gbs, "repeat": repeat}
    write(os.path.join(d, stamp, "events.out.tfevents.%d.%s" % (int(time.time()), tail)),
          [event(time.time(), 0, version="brain.Event:2"), event(time.time(), 0, hparams(hp))])


if __name__ == "__main__":
    out = sys.argv[1]
    for n in (1, 2, 4):
        with mp.Pool(n) as pool:
            for r in range(3):
                run(out, n, r, pool)
