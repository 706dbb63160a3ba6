#!/usr/bin/env python3
"""Plaquette averages of the run.sh logs: the first `skip` sweeps (thermalisation) are dropped,
the error is a jackknife over bins of 20 consecutive sweeps; tau_int = (binned error / naive
error)^2 / 2. Prints the Markdown table of docs/generator.md (and results.md)."""
import glob
import math
import os
import re
import sys


def jackknife(x, b):
    nb = len(x) // b
    sums = [sum(x[i * b:(i + 1) * b]) for i in range(nb)]
    total = sum(sums)
    mean = total / (nb * b)
    jk = [(total - s) / ((nb - 1) * b) for s in sums]
    return mean, math.sqrt((nb - 1) / nb * sum((j - mean) ** 2 for j in jk))


def main(skip=100, bin_size=20):
    print("| group | lattice | beta | sweeps measured | <P> | error | tau_int (sweeps) |")
    print("|---|---|---|---|---|---|---|")
    here = os.path.dirname(os.path.abspath(__file__))
    for log in sorted(glob.glob(os.path.join(here, "*.log"))):
        text = open(log).read()
        head = re.search(r"SU\((\d)\) (\S+), beta = (\S+),", text)
        plaq = [float(m.group(2)) for m in re.finditer(r"^\s+(\d+)\s+(\S+)\s+\S+\s+\S+$", text, re.M)]
        x = plaq[skip:]
        if not head or len(x) < 2 * bin_size:
            continue
        mean, err = jackknife(x, bin_size)
        _, naive = jackknife(x, 1)
        tau = 0.5 * (err / naive) ** 2
        print(f"| SU({head.group(1)}) | {head.group(2)} | {head.group(3)} | {len(x)} | "
              f"{mean:.5f} | {err:.5f} | {tau:.1f} |")


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:]])
