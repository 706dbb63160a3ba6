#!/usr/bin/env python3
"""plot_history.py: theta and F against the iteration from `gaugefix fix --history` files.

    python3 scripts/plot_history.py run.csv [more.csv ...] [-o history.png]

One curve per file (labelled by its name) in two panels: theta (log scale) and F. The final
row (phase "final") is the result; it is drawn as a marker. Without -o the figure is written
beside the first file as <name>.png. Needs python3-matplotlib. The columns are described in
docs/history.md.
"""
import argparse
import csv
import os
import sys


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "theta" not in rows[0] or "iteration" not in rows[0]:
        sys.exit(f"plot_history.py: error: '{path}' is not a gaugefix history (no rows, or no "
                 "iteration and theta columns)")
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="+", help="history CSV files (gaugefix fix --history)")
    p.add_argument("-o", "--output", help="PNG to write (default: <first file>.png)")
    a = p.parse_args()
    histories = [(f, read(f)) for f in a.files]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_history.py: error: matplotlib is missing (apt-get install python3-matplotlib)")
    fig, (ax_theta, ax_f) = plt.subplots(1, 2, figsize=(11, 4.5))
    for path, rows in histories:
        label = os.path.basename(path)
        checks = [r for r in rows if r["phase"] != "final"]
        final = [r for r in rows if r["phase"] == "final"]
        it = [int(r["iteration"]) for r in checks]
        line = ax_theta.semilogy(it, [max(float(r["theta"]), 1e-300) for r in checks], label=label)[0]
        ax_f.plot(it, [float(r["functional"]) for r in checks], color=line.get_color(), label=label)
        for r in final:
            ax_theta.semilogy([int(r["iteration"])], [max(float(r["theta"]), 1e-300)], "o",
                              color=line.get_color())
            ax_f.plot([int(r["iteration"])], [float(r["functional"])], "o", color=line.get_color())
    ax_theta.set(xlabel="iteration", ylabel="theta", title="gauge precision theta")
    ax_f.set(xlabel="iteration", ylabel="F", title="functional F")
    for ax in (ax_theta, ax_f):
        ax.legend(fontsize=7)
    fig.tight_layout()
    out = a.output or os.path.splitext(a.files[0])[0] + ".png"
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
