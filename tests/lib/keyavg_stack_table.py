#!/usr/bin/python3
"""keyavg_stack_table.py OUT — writes a key_averages(group_by_stack_n=3)
.table() laid out as torch's _build_table does (with_stack=True): a
"Source Location" column last, left-aligned, a row's first frame in it,
its further frames on lines of that cell alone, a blank line after each
row; an operator in several rows (one per stack), one row without a
stack (its source cell empty). Prints the oracle: "NAME|CALLS|SELF_NS|
TOTAL_NS" per operator, the rows of its stacks summed, by name."""
import collections
import sys

rows = [  # name, self us, total us, calls, stack frames
    ("aten::addmm", 812.5, 930.0, 24, ["nn/modules/linear.py(125): forward",
                                        "train.py(41): step", "train.py(60): <module>"]),
    ("aten::addmm", 96.25, 101.0, 8, ["nn/modules/linear.py(125): forward",
                                      "eval.py(12): evaluate", "train.py(66): <module>"]),
    ("aten::relu", 41.0, 88.0, 24, ["nn/functional.py(1500): relu", "train.py(42): step"]),
    ("aten::empty", 12.0, 12.0, 56, []),
    ("aten::sum", 1200.0, 2400.0, 3, ["train.py(44): step"]),
]
name_w, w, src_w = 20, 12, 40
cols = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
total_self = sum(r[1] for r in rows)


def line(cells):  # torch: each cell padded to its width, then two blanks
    name, rest, src = cells[0], cells[1:-1], cells[-1]
    return (name.rjust(name_w) + "  " + "".join(c.rjust(w) + "  " for c in rest)
            + src.ljust(src_w) + "  ")


rule = "-" * name_w + "  " + ("-" * w + "  ") * len(cols) + "-" * src_w + "  "
out = [rule, line(["Name"] + cols + ["Source Location"]), rule]
for name, self_us, tot_us, calls, stack in rows:
    out.append(line([name, "%.2f%%" % (100 * self_us / total_self), "%.3fus" % self_us,
                     "%.2f%%" % (100 * tot_us / total_self), "%.3fus" % tot_us,
                     "%.3fus" % (tot_us / calls), str(calls), stack[0] if stack else ""]))
    for frame in stack[1:]:
        out.append(line([""] * len(cols) + ["", frame]))
    out.append(line([""] * (len(cols) + 2)))
out += [rule, "Self CPU time total: %.3fus" % total_self, ""]
open(sys.argv[1], "w").write("\n".join(out))
acc = collections.defaultdict(lambda: [0, 0, 0])
for name, self_us, tot_us, calls, _ in rows:
    a = acc[name]
    a[0] += calls
    a[1] += round(self_us * 1000)
    a[2] += round(tot_us * 1000)
for name in sorted(acc):
    print("%s|%d|%d|%d" % (name, *acc[name]))
