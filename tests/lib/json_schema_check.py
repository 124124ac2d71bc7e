#!/usr/bin/python3
# json_schema_check.py SCHEMA_DIR NAME FILE... — validates each JSON FILE
# against SCHEMA_DIR/NAME.schema.json (draft 2020-12, its $refs into
# common.schema.json resolved from SCHEMA_DIR, never the network) with
# Debian's python3-jsonschema. Prints "ok", or one line per file that
# fails: the file, the place in it and what is wrong; exits 1 then.
import glob
import json
import os
import sys

import jsonschema


def validator(schema_dir, name):
    store = {}
    for path in glob.glob(os.path.join(schema_dir, "*.schema.json")):
        with open(path, encoding="utf-8") as f:
            s = json.load(f)
        jsonschema.Draft202012Validator.check_schema(s)
        store[s["$id"]] = s
    with open(os.path.join(schema_dir, name + ".schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    resolver = jsonschema.RefResolver.from_schema(schema, store=store)
    return jsonschema.Draft202012Validator(schema, resolver=resolver)


def main(argv):
    if len(argv) < 4:
        print("usage: json_schema_check.py SCHEMA_DIR NAME FILE...", file=sys.stderr)
        return 2
    v = validator(argv[1], argv[2])
    bad = 0
    for path in argv[3:]:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        err = jsonschema.exceptions.best_match(v.iter_errors(doc))
        if err is not None:
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            print(f"{path}: {where}: {err.message[:300]}")
            bad += 1
    if not bad:
        print("ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
