#!/usr/bin/env python3
"""ncu_kernel_table.py: a markdown table per kernel from Nsight Compute's CSV (`ncu --csv
--metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum`), as
bench/profile_facg_gpu.sh writes it: launches, total and mean time, mean DRAM bytes read and
written, and the bandwidth, optionally per step (--steps N divides the totals by N).
Usage: ncu_kernel_table.py ncu_facg.csv [--steps N]"""
import collections
import csv
import re
import sys


def short(name):
    m = re.search(r"(?:parallel_for_kernel|bounded_for_kernel)<(?:\d+, )?gf::(\w+)", name)
    if m:
        return m.group(1)
    return name.split("(")[0].replace("void ", "")[:40]


def main():
    path = sys.argv[1]
    steps = int(sys.argv[sys.argv.index("--steps") + 1]) if "--steps" in sys.argv else 1
    rows = list(csv.reader(line for line in open(path) if line.startswith('"')))
    head, rows = rows[0], rows[1:]
    col = {k: head.index(k) for k in ("ID", "Kernel Name", "Metric Name", "Metric Value")}
    launches = collections.OrderedDict()
    for r in rows:
        launch = launches.setdefault(r[col["ID"]], {"name": short(r[col["Kernel Name"]])})
        launch[r[col["Metric Name"]]] = float(r[col["Metric Value"]].replace(",", ""))
    kernels = collections.OrderedDict()
    for launch in launches.values():
        k = kernels.setdefault(launch["name"], [0, 0.0, 0.0, 0.0])
        k[0] += 1
        k[1] += launch.get("gpu__time_duration.sum", 0.0)
        k[2] += launch.get("dram__bytes_read.sum", 0.0)
        k[3] += launch.get("dram__bytes_write.sum", 0.0)
    total = sum(k[1] for k in kernels.values())
    print(f"| kernel | launches | µs per step (of {steps}) | share | MB read / launch | MB written / launch | GB/s |")
    print("|---|---|---|---|---|---|---|")
    for name, (n, ns, rd, wr) in sorted(kernels.items(), key=lambda kv: -kv[1][1]):
        print(f"| {name} | {n} | {ns / 1e3 / steps:.1f} | {ns / total:.3f} | {rd / n / 1e6:.1f} "
              f"| {wr / n / 1e6:.1f} | {(rd + wr) / ns:.0f} |")
    print(f"| all kernels | {sum(k[0] for k in kernels.values())} | {total / 1e3 / steps:.1f} | 1 | | | |")


if __name__ == "__main__":
    main()
