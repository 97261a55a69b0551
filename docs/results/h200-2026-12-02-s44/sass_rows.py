"""Keeps the rows of an Nsight Compute SASS export (`ncu -i R --page source --csv
--print-source sass`) that matter for a loop run ITERATIONS times: those whose warp-level
"Instructions Executed" is near a multiple of ITERATIONS (on the loop's path, as session 42's
hot_lines.py tells them) and those with warp stall samples, every column kept; the header
first.

    python3 sass_rows.py EXPORT.csv ITERATIONS > ROWS.csv"""
import csv
import sys

path, iters = sys.argv[1], int(sys.argv[2])
out, hdr = csv.writer(sys.stdout), None
for row in csv.reader(open(path)):
    if row and row[0] == "Address":
        hdr = row
        out.writerow(row)
    elif hdr and len(row) >= len(hdr) and row[0].startswith("0x"):
        c = int(row[hdr.index("Instructions Executed")] or 0)
        k = round(c / iters)
        stalls = sum(int(row[i] or 0) for i, h in enumerate(hdr) if h.startswith("Warp Stall Sampling"))
        if (k >= 1 and abs(c - k * iters) <= 3 * k) or stalls > 0:
            out.writerow(row)
