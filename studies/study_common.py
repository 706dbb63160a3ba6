"""study_common.py: what every study script of studies/ shares (docs/studies.md).

- arguments: OUTDIR, --smoke (the CPU size CI runs), --gaugefix BINARY (else $GAUGEFIX, else
  build/src/app/gaugefix), --backend (default cpu with --smoke, else cuda), --plot-only
  (redo the table and the figure from the logs already in OUTDIR);
- run(): one gaugefix command, its output kept under OUTDIR/logs/ with the command line;
- read_history(): a `gaugefix fix --history` CSV (docs/history.md) as a list of dicts;
- thermalised_field(): a quenched field from `gaugefix generate`, made once per OUTDIR;
- write_table(): the study's table as CSV and markdown;
- figure(): a matplotlib figure saved as PNG (Agg backend, imported only there).
Only the standard library is needed to run a study; matplotlib only for its figure.
"""
import argparse
import csv
import os
import shlex
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_args(description, extra=None):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("outdir", help="folder for the table, the figure and the logs")
    p.add_argument("--smoke", action="store_true", help="the small CPU size that CI runs")
    p.add_argument("--gaugefix", default=os.environ.get("GAUGEFIX",
                                                        os.path.join(REPO, "build/src/app/gaugefix")),
                   help="the gaugefix binary (default: $GAUGEFIX, else build/src/app/gaugefix)")
    p.add_argument("--backend", choices=["cpu", "cuda"],
                   help="default: cpu with --smoke, else cuda")
    p.add_argument("--plot-only", action="store_true",
                   help="make the table and figure from the logs already in OUTDIR")
    if extra:
        extra(p)
    a = p.parse_args()
    if a.backend is None:
        a.backend = "cpu" if a.smoke else "cuda"
    os.makedirs(os.path.join(a.outdir, "logs"), exist_ok=True)
    if not a.plot_only and not os.access(a.gaugefix, os.X_OK):
        sys.exit(f"{p.prog}: error: the gaugefix binary '{a.gaugefix}' is not executable "
                 "(give --gaugefix or $GAUGEFIX)")
    return a


def log_path(args, name):
    return os.path.join(args.outdir, "logs", name)


def run(args, name, cmd, ok=(0,)):
    """Runs cmd (a list; cmd[0] is the subcommand of gaugefix), writing its command line and
    output to logs/<name>.log; returns the output. An exit status outside `ok` stops the study
    (3, not converged, is expected where a study runs a fixed number of sweeps)."""
    full = [args.gaugefix] + [str(c) for c in cmd]
    log = log_path(args, name + ".log")
    t0 = time.time()
    r = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(log, "w") as f:
        f.write("# command: " + " ".join(shlex.quote(c) for c in full) + "\n")
        f.write(f"# date: {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime(t0))}, "
                f"{time.time() - t0:.1f} s, exit status {r.returncode}\n")
        f.write(r.stdout)
    if r.returncode not in ok:
        sys.exit(f"error: '{' '.join(full)}' exited with {r.returncode} (log: {log}):\n"
                 + r.stdout[-2000:])
    return r.stdout


def read_history(path):
    """The rows of a --history CSV, numbers as int/float, phase as text."""
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            row = {k: float(v) for k, v in r.items() if k != "phase"}
            row["iteration"] = int(row["iteration"])
            row["phase"] = r["phase"]
            rows.append(row)
    if not rows or rows[-1]["phase"] != "final":
        sys.exit(f"error: '{path}' is not a complete history (no final row)")
    return rows


def thermalised_field(args, L, beta, sweeps, seed=11):
    """A quenched SU(3) field of extent L^4 at beta, from a cold start, after `sweeps`
    sweeps of 1 heatbath + 4 overrelaxation (gaugefix generate); made once per OUTDIR and
    reused by the studies that ask for the same one. Its plaquette is in the log."""
    prefix = os.path.join(args.outdir, f"field_L{L}_b{beta}_s{sweeps}")
    path = prefix + ".0000"
    if not os.path.exists(path):
        run(args, os.path.basename(prefix), [
            "generate", "--lattice", f"{L},{L},{L},{L}", "--beta", beta, "--start", "cold",
            "--thermalisation", sweeps, "--or-sweeps", 4, "--seed", seed,
            "--backend", args.backend, "--precision", "mixed" if args.backend == "cuda" else "double",
            "--measure-interval", max(1, sweeps // 10), "--output-prefix", prefix])
    return path


def write_table(args, name, columns, rows):
    """The table as OUTDIR/<name>.csv and OUTDIR/<name>.md; returns the markdown text."""
    with open(os.path.join(args.outdir, name + ".csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(columns)
        for r in rows:
            w.writerow([r[c] for c in columns])

    def cell(v):
        return f"{v:.6g}" if isinstance(v, float) else str(v)

    md = "| " + " | ".join(columns) + " |\n|" + "---|" * len(columns) + "\n"
    for r in rows:
        md += "| " + " | ".join(cell(r[c]) for c in columns) + " |\n"
    with open(os.path.join(args.outdir, name + ".md"), "w") as f:
        f.write(md)
    return md


def figure(args, name, draw, ncols=1, size=(6.4, 4.8)):
    """Calls draw(axes) on a figure of ncols panels and saves OUTDIR/<name>.png; without
    matplotlib prints a note and returns False (the table is still written; rerun with
    --plot-only where matplotlib exists)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"note: no matplotlib here; {name}.png not drawn (rerun with --plot-only where "
              "python3-matplotlib is installed)")
        return False
    fig, axes = plt.subplots(1, ncols, figsize=(size[0] * ncols, size[1]), squeeze=False)
    draw(list(axes[0]))
    fig.tight_layout()
    fig.savefig(os.path.join(args.outdir, name + ".png"), dpi=120)
    plt.close(fig)
    return True


def mean_and_error(values):
    """Mean and standard error of the mean (0 for fewer than two values)."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(values) / n
    if n < 2:
        return m, 0.0
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return m, (var / n) ** 0.5
