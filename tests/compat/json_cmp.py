#!/usr/bin/env python3
"""json_cmp.py — one JSON output of the reference and of the new binary,
compared for tests/compat/outputs.sh. Usage: json_cmp.py KIND REF NEW.

KIND names the output: the command words ("runs", "stats", "scaling",
"regions", "diff", "compare", "gate", "history", "trace show",
"pyspy top", "pyspy trie", "report build", "ingest") or the name of a
file a command wrote ("report.json"). When the converter exists
(tests/compat/json_old_to_new.py, or the file $COMPAT_JSON_CONVERTER
names), REF's text goes to its stdin (no argument; KIND in the
environment as COMPAT_JSON_KIND, for a converter that wants it) and its
stdout, the reference's document in the new JSON contract, must equal NEW
as parsed JSON: same keys, same values (numbers compared as Python
compares them, 1 == 1.0; true is not 1). Without a converter the two
files must be byte-identical. Exit 0 when equal, 1 with the first
differences on stdout."""
import difflib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONVERTER = os.environ.get("COMPAT_JSON_CONVERTER") or os.path.join(HERE, "json_old_to_new.py")


def lines(doc):
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False).splitlines()


def first_path(a, b, path="$"):
    """The first JSON path where a and b differ, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a:
                return "%s.%s: only in new" % (path, k)
            if k not in b:
                return "%s.%s: only in ref" % (path, k)
            p = first_path(a[k], b[k], "%s.%s" % (path, k))
            if p:
                return p
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            p = first_path(x, y, "%s[%d]" % (path, i))
            if p:
                return p
        if len(a) != len(b):
            return "%s: %d items in ref, %d in new" % (path, len(a), len(b))
        return None
    if type(a) is bool or type(b) is bool:
        same = a is b
    else:
        same = a == b
    return None if same else "%s: ref %s, new %s" % (path, json.dumps(a), json.dumps(b))


def main():
    kind, ref, new = sys.argv[1:4]
    with open(ref, "rb") as f:
        ref_text = f.read()
    with open(new, "rb") as f:
        new_text = f.read()
    if not os.path.exists(CONVERTER):
        if ref_text == new_text:
            return 0
        diff = difflib.unified_diff(ref_text.decode("utf-8", "replace").splitlines(),
                                    new_text.decode("utf-8", "replace").splitlines(),
                                    "ref", "new", lineterm="", n=1)
        print("\n".join(list(diff)[:40]))
        return 1
    if not ref_text.strip() and not new_text.strip():
        return 0  # no JSON on either side (an error: stderr and exit code say it)
    conv = subprocess.run([sys.executable, CONVERTER], input=ref_text, capture_output=True,
                          env=dict(os.environ, COMPAT_JSON_KIND=kind))
    if conv.returncode != 0:
        err = conv.stderr.decode("utf-8", "replace").strip().splitlines()
        print("%s (%s) failed (exit %d): %s" % (os.path.basename(CONVERTER), kind,
                                               conv.returncode, err[-1] if err else ""))
        return 1
    try:
        a = json.loads(conv.stdout)
    except ValueError as e:
        print("%s (%s): not JSON: %s" % (os.path.basename(CONVERTER), kind, e))
        return 1
    try:
        b = json.loads(new_text)
    except ValueError as e:
        print("new output: not JSON: %s" % e)
        return 1
    where = first_path(a, b)
    if where is None:
        return 0
    print("first difference at " + where)
    diff = difflib.unified_diff(lines(a), lines(b), "ref (converted)", "new", lineterm="", n=1)
    print("\n".join(list(diff)[:40]))
    return 1


if __name__ == "__main__":
    sys.exit(main())
