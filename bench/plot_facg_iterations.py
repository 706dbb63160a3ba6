#!/usr/bin/env python3
"""plot_facg_iterations.py: FACG's iterations to theta < 2.5e-13 (double, Landau gauge) against
the lattice's linear size V^(1/4), from a CSV with the columns lattice, sites, iterations,
field (bench/results/2026-11-26-facg-iterations/iterations.csv): the critical slowing down of
FACG on thermalised beta = 6.0 fields, with the power law fitted through the points.

usage: plot_facg_iterations.py ITERATIONS.csv -o PLOT.png
"""
import argparse
import csv
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    size = [float(r["sites"]) ** 0.25 for r in rows]
    its = [int(r["iterations"]) for r in rows]
    lx, ly = [math.log(s) for s in size], [math.log(i) for i in its]
    n = len(rows)
    mx, my = sum(lx) / n, sum(ly) / n
    slope = sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)
    fig, ax = plt.subplots(figsize=(6, 4))
    for r, s, i in zip(rows, size, its):
        ax.plot(s, i, "o", color="C0" if "200" in r["field"] else "C1")
        ax.annotate(r["lattice"].replace("x", "×"), (s, i), textcoords="offset points",
                    xytext=(5, -10), fontsize=7)
    grid = [min(size) * (max(size) / min(size)) ** (k / 50) for k in range(51)]
    ax.plot(grid, [math.exp(my + slope * (math.log(g) - mx)) for g in grid], "--", color="gray",
            label=f"fit: iterations ∝ L^{slope:.2f}")
    ax.plot([], [], "o", color="C0", label="field: 200 sweeps")
    ax.plot([], [], "o", color="C1", label="field: 100 sweeps")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("L = V^(1/4)")
    ax.set_ylabel("FACG iterations to θ < 2.5e-13")
    ax.set_title("FACG, Landau gauge, double, β = 6.0")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"exponent {slope:.3f} from {n} points; wrote {args.output}")


if __name__ == "__main__":
    main()
