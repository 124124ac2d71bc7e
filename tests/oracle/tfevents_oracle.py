#!/usr/bin/python3
"""tfevents_oracle.py WHAT FILE... — TensorBoard event files read by a
small Python TFRecord and protobuf wire-format reader (not amdahl's
protobuf-c and ISA-L): every record's length and data CRC32C checked
(a table-driven CRC32C written here), Event/Summary/Value fields by
TensorFlow's field numbers.
  records   the number of records of each file, one a line
  scalars   "TAG|COUNT|MIN_STEP|MAX_STEP|SUM" per scalar tag over the
            files ("%.9g" sum), by tag; a tag whose first value names a
            plugin other than scalars is not a scalar
  hparams   "KEY=VALUE" of the hparams plugin's session start, by key
  medians   TAG ROOT: for each run directory under ROOT (a folder with an
            event file, its hparams in a subfolder's), the median of TAG
            over steps > 0 (step 0 is the warm-up); then per world_size
            the median of its runs: "N|MEDIAN|RUNS" ("%.9g"), by N
  span      "START_MS|END_MS": the least and greatest wall time of any
            event of the files, in ms rounded half away from zero"""
import math
import os
import statistics
import struct
import sys

POLY = 0x82F63B78
TABLE = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ POLY if c & 1 else c >> 1
    TABLE.append(c)


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def masked(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def records(path):
    raw = open(path, "rb").read()
    at = 0
    while at < len(raw):
        n, lc = struct.unpack_from("<QI", raw, at)
        assert masked(raw[at:at + 8]) == lc, "length crc at %d" % at
        data = raw[at + 12:at + 12 + n]
        (dc,) = struct.unpack_from("<I", raw, at + 12 + n)
        assert masked(data) == dc, "data crc at %d" % at
        yield data
        at += 16 + n


def varint(b, i):
    v = s = 0
    while True:
        x = b[i]
        i += 1
        v |= (x & 0x7F) << s
        s += 7
        if x < 0x80:
            return v, i


def fields(b):
    """(field number, wire type, value) of a message's bytes."""
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        f, w = key >> 3, key & 7
        if w == 0:
            v, i = varint(b, i)
        elif w == 1:
            v, i = b[i:i + 8], i + 8
        elif w == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        elif w == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % w)
        yield f, w, v


def tensor_number(t):
    vals, dtype, content = [], 0, b""
    for f, w, v in fields(t):
        if f == 1:
            dtype = v
        elif f == 4:
            content = v
        elif f == 5:
            vals += [struct.unpack("<f", v)[0]] if w == 5 else list(struct.unpack("<%df" % (len(v) // 4), v))
        elif f == 6:
            vals += [struct.unpack("<d", v)[0]] if w == 1 else list(struct.unpack("<%dd" % (len(v) // 8), v))
        elif f in (7, 10):
            if w == 0:
                vals.append(v if f == 10 or v < 2**31 else v - 2**32)
            else:
                j = 0
                while j < len(v):
                    x, j = varint(v, j)
                    vals.append(x)
    if len(vals) == 1:
        return vals[0]
    if not vals and content:
        fmt = {1: "<f", 2: "<d", 3: "<i", 9: "<q"}.get(dtype)
        if fmt and struct.calcsize(fmt) == len(content):
            return struct.unpack(fmt, content)[0]
    return None


def events(path):
    for rec in records(path):
        ev = {"step": 0, "values": []}
        for f, w, v in fields(rec):
            if f == 2:
                ev["step"] = v if v < 2**63 else v - 2**64
            elif f == 5:
                for f2, _, val in fields(v):
                    if f2 == 1:
                        ev["values"].append(val)
        yield ev


def value_parts(val):
    tag, simple, tensor, plugin, content = "", None, None, "", b""
    for f, w, v in fields(val):
        if f == 1:
            tag = v.decode()
        elif f == 2:
            simple = struct.unpack("<f", v)[0]
        elif f == 8:
            tensor = v
        elif f == 9:
            for f2, _, pd in fields(v):
                if f2 == 1:
                    for f3, _, x in fields(pd):
                        if f3 == 1:
                            plugin = x.decode()
                        elif f3 == 2:
                            content = x
    return tag, simple, tensor, plugin, content



def hparams_of(path):
    out = {}
    for ev in events(path):
        for val in ev["values"]:
            _, _, _, plugin, content = value_parts(val)
            if plugin != "hparams":
                continue
            for f, _, ssi in fields(content):
                if f != 3:
                    continue
                for f2, _, entry in fields(ssi):
                    if f2 != 1:
                        continue
                    kv = dict((f3, x) for f3, _, x in fields(entry))
                    hv = dict((f4, x) for f4, _, x in fields(kv.get(2, b"")))
                    if 2 in hv:
                        out[kv[1].decode()] = "%.15g" % struct.unpack("<d", hv[2])[0]
                    elif 3 in hv:
                        out[kv[1].decode()] = hv[3].decode()
                    elif 4 in hv:
                        out[kv[1].decode()] = "true" if hv[4] else "false"
    return out


def scalar_points(path):
    """(step, tag, value) of every scalar of one file."""
    first_plugin = {}
    for ev in events(path):
        for val in ev["values"]:
            tag, simple, tensor, plugin, _ = value_parts(val)
            if plugin == "hparams":
                continue
            x = simple if simple is not None else tensor_number(tensor) if tensor else None
            if x is None:
                continue
            first_plugin.setdefault(tag, plugin)
            if first_plugin[tag] in ("", "scalars"):
                yield ev["step"], tag, x


what, paths = sys.argv[1], sys.argv[2:]
if what == "records":
    for p in paths:
        print(sum(1 for _ in records(p)))
elif what == "scalars":
    acc = {}
    for p in paths:
        for step, tag, x in scalar_points(p):
            a = acc.setdefault(tag, [0, step, step, 0.0])
            a[0] += 1
            a[1], a[2] = min(a[1], step), max(a[2], step)
            a[3] += x
    for tag in sorted(acc):
        c, lo, hi, s = acc[tag]
        print("%s|%d|%d|%d|%.9g" % (tag, c, lo, hi, s))
elif what == "hparams":
    out = {}
    for p in paths:
        out.update(hparams_of(p))
    for k in sorted(out):
        print("%s=%s" % (k, out[k]))
elif what == "span":
    walls = []
    for p in paths:
        for rec in records(p):
            walls += [struct.unpack("<d", v)[0] for f, w, v in fields(rec) if f == 1 and w == 1]
    ms = [math.floor(x * 1000 + 0.5) for x in walls if math.isfinite(x)]
    print("%d|%d" % (min(ms), max(ms)))
elif what == "medians":
    tag, root = paths
    per_n = {}
    for d, _, files in os.walk(root):
        evf = [os.path.join(d, f) for f in files if ".tfevents." in f]
        if not evf or any(".tfevents." in f for f in os.listdir(os.path.dirname(d))):
            continue
        hp = {}
        for sub in os.listdir(d):
            sd = os.path.join(d, sub)
            if os.path.isdir(sd):
                for f in os.listdir(sd):
                    hp.update(hparams_of(os.path.join(sd, f)))
        vals = [x for p in evf for step, t, x in scalar_points(p) if t == tag and step > 0]
        per_n.setdefault(int(float(hp["world_size"])), []).append(statistics.median(vals))
    for n in sorted(per_n):
        print("%d|%.9g|%d" % (n, statistics.median(per_n[n]), len(per_n[n])))
else:
    sys.exit("tfevents_oracle.py: unknown WHAT " + what)
