#===- trace_summary.py - what an OFFLOAD_PROFILE trace holds, for FileCheck -===#
#
# Part of the offload project's tests. Loads a Chrome/Perfetto trace written
# by OFFLOAD_PROFILE=<file>.json (json.load fails on a malformed one), checks
# the fields every complete event needs, and prints per event name its count
# and bytes, sorted, then the number of launch events.
#===----------------------------------------------------------------------===#
import collections
import json
import sys

with open(sys.argv[1]) as f:
    trace = json.load(f)
events = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
lanes = {(e["pid"], e["tid"]) for e in trace["traceEvents"]
         if e.get("name") == "thread_name"}
count = collections.Counter()
size = collections.Counter()
for e in events:
    assert e["cat"] in ("launch", "copy"), e
    assert e["dur"] >= 0 and e["ts"] >= 0, e
    assert (e["pid"], e["tid"]) in lanes, "event on an unnamed lane: %s" % e
    count[(e["cat"], e["name"])] += 1
    size[(e["cat"], e["name"])] += e["args"].get("bytes", 0)
for (cat, name), n in sorted(count.items()):
    print("%s %s: %d event%s, %d bytes" % (cat, name, n, "" if n == 1 else "s",
                                          size[(cat, name)]))
print("launch events: %d" % sum(1 for e in events if e["cat"] == "launch"))
