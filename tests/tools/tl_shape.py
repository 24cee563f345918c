#!/usr/bin/env python3
"""Timeline shape of a Chrome trace JSON written by `ptscope decode -o X.json`.

Checks the structure independently of the writer's code: the file parses as
JSON, per thread every B has its E, ends never come before their begins, time
never goes back. Prints one line per thread: "PID/TID B0 name|B1 name|E1|E0"
(depth = nesting level; instants as "I name"). Exit 1 on a structural error.
"""
import json
import sys


def main(path):
    with open(path) as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    threads = {}
    for e in events:
        if e.get("ph") not in ("B", "E", "i", "I", "X"):
            continue
        key = "%s/%s" % (e["pid"], e["tid"])
        threads.setdefault(key, []).append(e)
    ok = True
    for key, evs in threads.items():
        stack, out, last = [], [], None
        for e in evs:
            ts = float(e["ts"])
            if last is not None and ts < last:
                print("%s: time goes back %s -> %s" % (key, last, ts), file=sys.stderr)
                ok = False
            last = ts
            ph = e["ph"]
            if ph == "B":
                out.append("B%d %s" % (len(stack), e["name"]))
                stack.append(ts)
            elif ph == "E":
                if not stack:
                    print("%s: E without B" % key, file=sys.stderr)
                    ok = False
                    continue
                begin = stack.pop()
                if ts < begin:
                    print("%s: negative duration" % key, file=sys.stderr)
                    ok = False
                out.append("E%d" % len(stack))
            elif ph == "X":
                if float(e.get("dur", 0)) < 0:
                    print("%s: negative duration" % key, file=sys.stderr)
                    ok = False
                out.append("X%d %s" % (len(stack), e["name"]))
            else:
                out.append("I %s" % e["name"])
        if stack:
            print("%s: %d slices never end" % (key, len(stack)), file=sys.stderr)
            ok = False
        print("%s %s" % (key, "|".join(out)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
