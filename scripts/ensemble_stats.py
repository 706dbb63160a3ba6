#!/usr/bin/env python3
"""ensemble_stats.py: averages of `gaugefix measure` CSV files over configurations, with
jackknife errors.

    python3 scripts/ensemble_stats.py meas/*.gluon.csv -o gluon_mean.csv [--plot gluon.png]

Every file must be a measurement CSV of gaugefix (docs/measurements.md) with the same columns
and the same rows (the same momenta or distances, in the same order): the columns that label a
row (nx, ny, nz, nt, p2, r, t) must agree between the files, else the script stops naming the
file and the row. Every other column is averaged over the N files, with the jackknife error
sqrt((N-1)/N sum_i (m_i - m)^2), m_i the mean without file i. The static potential is not
averaged row by row: V(r, T) = log(C(r, T)/C(r, T+1)) is computed from the averaged correlator,
for the mean and for every jackknife sample. The output CSV has the label columns, then each
averaged column followed by <column>_err, after the record lines "# configurations: N" and
"# file: <path>" per input. --plot draws p^2 D(p^2) against |p| (gluon propagator) or V(r, T)
against r (static potential), with the errors (needs matplotlib). Needs numpy and N >= 2.
"""
import argparse
import math
import sys

import numpy as np

LABELS = ("nx", "ny", "nz", "nt", "p2", "r", "t")


def fail(message):
    sys.exit(f"ensemble_stats.py: error: {message}")


def read(path):
    record, header, rows = [], None, []
    try:
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("#"):
                    record.append(line)
                elif header is None:
                    header = line.split(",")
                elif line:
                    rows.append([float(v) for v in line.split(",")])
    except OSError as e:
        fail(f"'{path}': {e.strerror}")
    except ValueError:
        fail(f"'{path}': a row holds something that is not a number")
    if header is None or not rows:
        fail(f"'{path}' holds no table (header line and rows)")
    if any(len(r) != len(header) for r in rows):
        fail(f"'{path}': a row has not {len(header)} numbers")
    return header, np.array(rows)


def jackknife(samples):
    """Mean over axis 0 and the jackknife error, with the jackknife samples of the mean."""
    n = samples.shape[0]
    mean = samples.mean(axis=0)
    loo = (samples.sum(axis=0)[None, ...] - samples) / (n - 1)
    return mean, loo


def error(loo, estimate):
    n = loo.shape[0]
    return np.sqrt((n - 1) / n * ((loo - estimate[None, ...]) ** 2).sum(axis=0))


def potential(labels, header, correlator):
    """V(r, T) = log(C(r, T)/C(r, T+1)) of a correlator column (rows as the files hold them)."""
    r, t = labels[:, header.index("r")], labels[:, header.index("t")]
    index = {(a, b): i for i, (a, b) in enumerate(zip(r, t))}
    out = np.full(correlator.shape, np.nan)
    for i, (a, b) in enumerate(zip(r, t)):
        j = index.get((a, b + 1))
        if j is not None:
            with np.errstate(divide="ignore", invalid="ignore"):
                out[..., i] = np.log(correlator[..., i] / correlator[..., j])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="+", help="measurement CSV files of gaugefix, one per configuration")
    p.add_argument("-o", "--output", required=True, help="CSV of the means and errors to write")
    p.add_argument("--plot", help="PNG to draw (needs matplotlib)")
    a = p.parse_args()
    if len(a.files) < 2:
        fail("the jackknife needs at least 2 files")
    tables = [read(f) for f in a.files]
    header = tables[0][0]
    labels = [c for c in header if c in LABELS]
    values = [c for c in header if c not in LABELS]
    li = [header.index(c) for c in labels]
    for path, (h, rows) in zip(a.files, tables):
        if h != header:
            fail(f"'{path}' has the columns {','.join(h)}, not {','.join(header)}")
        if rows.shape != tables[0][1].shape:
            fail(f"'{path}' has {rows.shape[0]} rows, '{a.files[0]}' {tables[0][1].shape[0]}")
        differ = np.nonzero((rows[:, li] != tables[0][1][:, li]).any(axis=1))[0]
        if differ.size:
            fail(f"'{path}', row {differ[0] + 1}: other momenta or distances than '{a.files[0]}'")
    data = np.stack([rows for _, rows in tables])  # (files, rows, columns)
    label_values = tables[0][1][:, li]
    columns, errors = {}, {}
    for c in values:
        mean, loo = jackknife(data[:, :, header.index(c)])
        if c == "potential" and "correlator" in header:
            cm, cloo = jackknife(data[:, :, header.index("correlator")])
            mean, loo = potential(label_values, labels, cm), potential(label_values, labels, cloo)
        columns[c], errors[c] = mean, error(loo, mean)
    names = labels + [n for c in values for n in (c, c + "_err")]
    with open(a.output, "w") as out:
        out.write(f"# configurations: {len(a.files)}\n")
        for f in a.files:
            out.write(f"# file: {f}\n")
        out.write(",".join(names) + "\n")
        for i in range(label_values.shape[0]):
            row = [repr(float(v)) if not float(v).is_integer() else str(int(v))
                   for v in label_values[i]]
            for c in values:
                row += [repr(float(columns[c][i])), repr(float(errors[c][i]))]
            out.write(",".join(row) + "\n")
    if a.plot:
        draw(a.plot, labels, label_values, columns, errors)


def draw(path, labels, label_values, columns, errors):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("--plot needs matplotlib (python3-matplotlib)")
    fig, ax = plt.subplots(figsize=(6, 4))
    if "p2" in labels and "transverse" in columns:
        p2 = label_values[:, labels.index("p2")]
        keep = p2 > 0
        ax.errorbar(np.sqrt(p2[keep]), (p2 * columns["transverse"])[keep],
                    yerr=(p2 * errors["transverse"])[keep], fmt="o", ms=3)
        ax.set_xlabel("|p|")
        ax.set_ylabel("p^2 D(p^2)")
    elif "p2" in labels and "spatial" in columns:
        p2 = label_values[:, labels.index("p2")]
        keep = p2 > 0
        ax.errorbar(np.sqrt(p2[keep]), (p2 * columns["spatial"])[keep],
                    yerr=(p2 * errors["spatial"])[keep], fmt="o", ms=3)
        ax.set_xlabel("|p|")
        ax.set_ylabel("p^2 D_spatial(p^2)")
    elif "potential" in columns:
        r, t = label_values[:, labels.index("r")], label_values[:, labels.index("t")]
        for T in sorted(set(t)):
            sel = (t == T) & np.isfinite(columns["potential"])
            ax.errorbar(r[sel], columns["potential"][sel], yerr=errors["potential"][sel],
                        fmt="o-", ms=3, label=f"T = {int(T)}")
        ax.set_xlabel("r")
        ax.set_ylabel("V(r, T)")
        ax.legend()
    else:
        fail("--plot draws gluon propagators and static potentials only")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
