#!/usr/bin/env python3
#===- fuzz/reduce.py - shrink a crashing input found by fuzz_plugin.py -----===#
#
# Part of the offload project: GPU offloading for C++ through a Clang plugin.
#
#===----------------------------------------------------------------------===#
#
# Delta debugging over lines, then over tokens: keeps removing chunks while
# the command still crashes with the same first plugin stack frame (or, with
# --match, while stderr still contains the given text).
#
#   fuzz/reduce.py fuzz-out/crashes/syntax-1234.txt -o small.cpp
#
# The .txt file written next to each crash holds the command line.
#
#===----------------------------------------------------------------------===#

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_plugin import TOKEN_RE, classify, crash_frame  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("crash", help="the .txt report (or .cpp next to it)")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--match", help="text stderr must keep containing")
    ap.add_argument("--timeout", type=float, default=60)
    args = ap.parse_args()
    base = os.path.splitext(args.crash)[0]
    with open(base + ".txt") as fh:
        cmd = next(l[5:].split() for l in fh if l.startswith("cmd: "))
    cmd = cmd[:-1]  # the temporary input path
    if "--" in cmd:  # the rewriter: input before "--"
        dash = cmd.index("--")
        pre, post = cmd[:dash], cmd[dash:]
    else:
        pre, post = cmd, []
    with open(base + ".cpp") as fh:
        text = fh.read()
    tmp = tempfile.mkdtemp(prefix="ofld-reduce-")
    path = os.path.join(tmp, "input.cpp")

    def run(t):
        with open(path, "w") as fh:
            fh.write(t)
        try:
            p = subprocess.run(pre + [path] + post, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=args.timeout)
            return p.returncode, p.stderr.decode("utf-8", "replace"), False
        except subprocess.TimeoutExpired:
            return -9, "", True

    rc, err, to = run(text)
    if not classify(rc, err, to):
        sys.exit("reduce: the input does not fail (any more)")
    want = args.match or crash_frame(err)

    def still(t):
        rc, err, to = run(t)
        if not classify(rc, err, to):
            return False
        return want in err or want == crash_frame(err)

    for unit in ("lines", "tokens"):
        if unit == "lines":
            parts = text.split("\n")
            join = "\n".join
        else:
            parts = [m.group(0) for m in TOKEN_RE.finditer(text)]
            join = " ".join
        n = 2
        while len(parts) >= 2:
            chunk = max(1, len(parts) // n)
            removed = False
            for i in range(0, len(parts), chunk):
                cand = parts[:i] + parts[i + chunk:]
                if cand and still(join(cand)):
                    parts = cand
                    n = max(n - 1, 2)
                    removed = True
                    break
            if not removed:
                if chunk == 1:
                    break
                n = min(n * 2, len(parts))
        text = join(parts)
    with open(args.output, "w") as fh:
        fh.write(text + "\n")
    print("reduce: %d bytes -> %s" % (len(text), args.output))


if __name__ == "__main__":
    main()
