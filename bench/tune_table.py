#!/usr/bin/env python3
"""tune_table.py: the tables of docs/kernels.md from the logs of bench/run_tuning_suite.sh.

Reads tune_<gauge>_<precision>_<storage>_<L>.log (the output of `gaugefix tune --anneal`)
and prints, per sweep kernel, the winner's launch parameters, its time per call (one
half-sweep: the sites of one parity), site updates per second, GB/s from the documented
byte count and the fraction of the streaming bandwidth measured in the same run.
Usage: tune_table.py LOG_DIR
"""
import pathlib
import re
import sys


def winners(path):
    kernel = None
    sites = None
    for line in path.read_text().splitlines():
        m = re.match(r"tuning (\S+) \[.*\] (\d+)x(\d+)x(\d+)x(\d+) whole", line)
        if m:
            kernel = m.group(1)
            dims = [int(m.group(i)) for i in range(2, 6)]
            sites = dims[0] * dims[1] * dims[2] * dims[3] // 2
        elif "<- winner" in line and kernel:
            f = line.split()
            params = " ".join(x.split("=")[1] for x in f[1:4])
            us = float(f[6])
            yield kernel, params, us, float(f[8]), float(f[10]), sites


def main():
    rows = []
    for path in sorted(pathlib.Path(sys.argv[1]).glob("tune_*.log")):
        gauge, prec, storage, size = path.stem.split("_")[1:]
        for kernel, params, us, gbs, frac, sites in winners(path):
            if kernel.startswith("sweep."):
                family = kernel.split(".")[2]
                rows.append((gauge, family, prec, int(storage), int(size), params, us, sites / us * 1e-3, gbs, frac))
    print("| gauge | family | precision | reals | L | winner (variant block minb) | µs per half-sweep | Gsite/s | GB/s | of stream |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: (r[0], r[1], r[3], r[4], ["single", "mixed", "double"].index(r[2]))):
        print("| %s | %s | %s | %d | %d⁴ | %s | %.1f | %.2f | %.0f | %.3f |" % r)


if __name__ == "__main__":
    main()
