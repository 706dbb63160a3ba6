#!/usr/bin/env python3
"""ncu_limiters_table.py: a markdown table of what limits each kernel, from the Nsight Compute
section logs that bench/profile_limiters.sh writes (ncu_<name>.log, one profiled launch each):
duration, registers a thread, achieved occupancy, issue slots busy, cycles with no eligible warp,
DRAM throughput (of the GPU's peak) and the kernel's template arguments.
Usage: ncu_limiters_table.py LOG_DIR"""
import pathlib
import re
import sys

METRICS = [
    ("Duration", "µs"),
    ("Registers Per Thread", "registers"),
    ("Achieved Occupancy", "occupancy %"),
    ("Issue Slots Busy", "issue busy %"),
    ("No Eligible", "no eligible warp %"),
    ("DRAM Throughput", "DRAM % of peak"),
]


def kernel_of(text):
    m = re.search(r'Profiling "void gf::\w+<(?:\(int\)\d+, )?gf::(\w+<.*?>)>\(long', text)
    return m.group(1) if m else "?"


def value_of(text, metric):
    m = re.search(r"^\s+" + re.escape(metric) + r"\s+\S+\s+([\d.,]+)\s*$", text, re.M)
    return m.group(1).replace(",", "") if m else "?"


def main():
    folder = pathlib.Path(sys.argv[1])
    print("| sweep | " + " | ".join(label for _, label in METRICS) + " | kernel |")
    print("|---" * (len(METRICS) + 2) + "|")
    for log in sorted(folder.glob("ncu_*.log")):
        text = log.read_text(errors="replace")
        cells = [value_of(text, metric) for metric, _ in METRICS]
        name = log.stem[len("ncu_"):]
        print(f"| {name} | " + " | ".join(cells) + f" | `{kernel_of(text)}` |")


if __name__ == "__main__":
    main()
