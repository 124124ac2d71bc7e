#!/usr/bin/python3
"""trace_variants.py KIND SRC OUT — Chrome traces users have that are
not a plain Kineto file, for tests/e2e/trace.sh:
  wrapped  the Kineto trace SRC wrapped as trace tools write it:
           {"metadata": {... over 8 KiB ...}, "traceEvents": [...], then
           Kineto's own keys}, so neither traceEvents nor a Kineto key is
           in the first 4 KiB
  tf       a TensorFlow profiler trace (trace.json.gz, as TensorBoard's
           profile plugin stores it under plugins/profile/<run>/) of the
           same shape as SRC's CPU events: process/thread metadata events
           and X events named after TF's executor (EagerKernelExecute,
           ExecutorState::Process, MatMul), no "cat", no Kineto key
  range    a CUPTI range-profiler session of SRC: its CPU ops and, on the
           same thread, cuda_profiler_range events, no kernel; SRC's
           deviceProperties kept
  mtia     SRC's CPU ops and mtia_runtime calls, no kernel, no
           deviceProperties (an MTIA accelerator trace)
SRC may be gzipped; OUT is gzipped when it ends in .gz."""
import gzip
import json
import sys

kind, src, out = sys.argv[1:4]
d = json.load(gzip.open(src) if src.endswith(".gz") else open(src))
if kind == "wrapped":
    meta = {"tool": "trace wrapper", "profiler": {"repeats": 1, "warmups": 5, "wait": 1},
            "env": {f"VAR_{i}": "x" * 40 for i in range(200)}}
    doc = {"metadata": meta, "traceEvents": d["traceEvents"]}
    doc.update({k: v for k, v in d.items() if k != "traceEvents"})
elif kind == "tf":
    cpu = [e for e in d["traceEvents"] if e.get("ph") == "X" and e.get("cat") == "cpu_op"][:200]
    names = ["EagerKernelExecute", "ExecutorState::Process", "MatMul", "_EagerConst"]
    events = [{"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "/host:CPU"}},
              {"ph": "M", "pid": 1, "tid": 7, "name": "thread_name", "args": {"name": "tf_Compute"}}]
    events += [{"ph": "X", "pid": 1, "tid": 7, "ts": e["ts"], "dur": e["dur"],
                "name": names[i % len(names)], "args": {"long_name": names[i % len(names)]}}
               for i, e in enumerate(cpu)]
    doc = {"displayTimeUnit": "ns", "metadata": {"highres-ticks": True}, "traceEvents": events}
elif kind in ("range", "mtia"):
    cpu = [e for e in d["traceEvents"] if e.get("ph") == "X" and e.get("cat") == "cpu_op"][:300]
    cat, name = (("cuda_profiler_range", "profiler_range") if kind == "range"
                 else ("mtia_runtime", "mtiaLaunchKernel"))
    extra = [{"ph": "X", "cat": cat, "name": name, "pid": e["pid"], "tid": e["tid"],
              "ts": e["ts"], "dur": e["dur"]} for e in cpu[::10]]
    doc = {k: v for k, v in d.items() if k != "traceEvents" and (kind == "range" or k != "deviceProperties")}
    doc["traceEvents"] = cpu + extra
else:
    sys.exit("trace_variants.py: unknown KIND " + kind)
text = json.dumps(doc)
if out.endswith(".gz"):
    with gzip.open(out, "wt") as f:
        f.write(text)
else:
    with open(out, "w") as f:
        f.write(text)
