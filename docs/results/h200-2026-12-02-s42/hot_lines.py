"""Per-iteration instruction counts of run D's owned loop, by source line and by opcode.

    python3 hot_lines.py DIR ITERATIONS

DIR holds Nsight Compute's exports of run D (`ncu -i X.ncu-rep --page source --csv
--print-source cuda,sass` as d-cuda-sass.csv and h-cuda-sass.csv, `--print-source sass` as
d-sass.csv and h-sass.csv; about 23 MB, not kept). A line or an instruction is on the loop's
path when its warp-level "Instructions Executed" is within a few of a multiple of
ITERATIONS (the loop runs ITERATIONS times on one warp at P = 1). The persistent kernel's
idle warps poll in loops whose counts can fall on such multiples too: those lines are
listed, and told apart by reading them (fk_run_tasks, the kernel warp's nap, fk_device_run).
"""
import collections
import csv
import re
import sys

folder, iters = sys.argv[1], int(sys.argv[2])


def on_path(count):
    k = round(count / iters)
    return k >= 1 and abs(count - k * iters) <= 3 * k


def lines(path):
    per, text, name, hdr = collections.Counter(), {}, None, None
    for row in csv.reader(open(path)):
        if not row:
            continue
        if row[0] == "File Path":
            name = row[1].split("/")[-1]
        elif row[0] == "Line No":
            hdr = row
        elif hdr and len(row) >= len(hdr) and row[2] == "-" and row[0].isdigit():
            count = int(row[hdr.index("Instructions Executed")])
            if on_path(count):
                per[(name, int(row[0]))] += count / iters
                text[(name, int(row[0]))] = row[1].strip()
    return per, text


def opcodes(path):
    per, hdr = collections.Counter(), None
    for row in csv.reader(open(path)):
        if row and row[0] == "Address":
            hdr = row
        elif hdr and len(row) >= len(hdr) and row[0].startswith("0x"):
            count = int(row[hdr.index("Instructions Executed")])
            if on_path(count):
                op = re.sub(r"^@!?U?P\w+\s+", "", row[1].strip()).split()[0]
                per[op] += count / iters
    return per


for schedule, tag in (("device", "d"), ("host", "h")):
    per, text = lines(f"{folder}/{tag}-cuda-sass.csv")
    print(f"{schedule}: {sum(per.values()):.0f} warp instructions an iteration on these lines")
    for key, n in per.most_common(45):
        print(f"  {n:6.1f}  {key[0]}:{key[1]}  {text[key][:90]}")
device, host = opcodes(f"{folder}/d-sass.csv"), opcodes(f"{folder}/h-sass.csv")
print(f"by opcode (SASS rows): device {sum(device.values()):.0f}, host {sum(host.values()):.0f}")
for op in sorted(set(device) | set(host), key=lambda o: host[o] - device[o])[:30]:
    print(f"  {op:30s} device {device[op]:6.1f}  host {host[op]:6.1f}")
