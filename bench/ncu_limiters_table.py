#!/usr/bin/env python3
"""ncu_limiters_table.py: a markdown table of what limits each kernel, from the Nsight Compute
section logs that bench/profile_limiters.sh writes (ncu_<name>.log, one profiled launch each):
duration, registers a thread, achieved occupancy, issue slots busy, cycles with no eligible warp,
DRAM throughput (of the GPU's peak) and the kernel's template arguments.
With --stalls: where the logs hold the metrics
regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio, also the cycles a warp waits
per issued instruction for each stall reason (those of at least 0.2 in some log).
Usage: ncu_limiters_table.py [--stalls] LOG_DIR"""
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


def stalls_of(text):
    pattern = r"smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio\s+\S+\s+([\d.,]+)"
    return {m.group(1): float(m.group(2).replace(",", "")) for m in re.finditer(pattern, text)}


def print_stalls(logs):
    stalls = {log.stem[len("ncu_"):]: stalls_of(log.read_text(errors="replace")) for log in logs}
    reasons = sorted({r for s in stalls.values() for r, v in s.items() if v >= 0.2})
    print("| sweep | " + " | ".join(reasons) + " |")
    print("|---" * (len(reasons) + 1) + "|")
    for name, s in stalls.items():
        print(f"| {name} | " + " | ".join(f"{s.get(r, 0.0):.2f}" for r in reasons) + " |")


def main():
    stalls = "--stalls" in sys.argv[1:]
    folder = pathlib.Path([a for a in sys.argv[1:] if a != "--stalls"][0])
    logs = sorted(folder.glob("ncu_*.log"))
    print("| sweep | " + " | ".join(label for _, label in METRICS) + " | kernel |")
    print("|---" * (len(METRICS) + 2) + "|")
    for log in logs:
        text = log.read_text(errors="replace")
        cells = [value_of(text, metric) for metric, _ in METRICS]
        name = log.stem[len("ncu_"):]
        print(f"| {name} | " + " | ".join(cells) + f" | `{kernel_of(text)}` |")
    if stalls:
        print()
        print_stalls(logs)


if __name__ == "__main__":
    main()
