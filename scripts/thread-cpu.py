#!/usr/bin/env python3
"""CPU time of a process's threads, grouped by name: `thread-cpu.py snap PID FILE` saves a snapshot,
`thread-cpu.py diff PID FILE EPISODES` prints user and system ms per episode per thread group since it."""
import json, os, re, sys

def snap(pid):
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            stat = open(f"/proc/{pid}/task/{tid}/stat").read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        f = stat[stat.rindex(")") + 2:].split()
        out[tid] = [name, int(f[11]), int(f[12])]
    return out

def group(name):
    name = re.sub(r"[#\-]?\d+$", "", name)
    return re.sub(r"\d+", "N", name)

cmd, pid, path = sys.argv[1:4]
if cmd == "snap":
    json.dump(snap(pid), open(path, "w"))
else:
    before, after, episodes = json.load(open(path)), snap(pid), float(sys.argv[4])
    hz = os.sysconf("SC_CLK_TCK")
    groups = {}
    for tid, (name, u, s) in after.items():
        b = before.get(tid, [name, 0, 0])
        g = groups.setdefault(group(name), [0, 0])
        g[0] += u - b[1]
        g[1] += s - b[2]
    total = sum(u + s for u, s in groups.values())
    print(f"server CPU by thread group, ms per episode ({episodes:.0f} episodes): user / system")
    for name, (u, s) in sorted(groups.items(), key=lambda kv: -sum(kv[1])):
        if u + s > 0:
            print(f"  {name:<28} {u * 1000 / hz / episodes:6.3f} / {s * 1000 / hz / episodes:6.3f}")
    print(f"  {'total':<28} {total * 1000 / hz / episodes:6.3f}")
