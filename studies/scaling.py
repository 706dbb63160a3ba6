#!/usr/bin/env python3
"""scaling.py: the paper's section 6.2 (Figs. 5-6), multi-GPU weak and strong scaling.

Runs nothing: it reads the `ranks ... ms/sweep` lines of bench_scaling logs (bench/run_scaling.sh;
default the 2 x H200 run bench/results/2026-11-22-h200x2-run2/scaling.log) and draws the
measured 1- and 2-GPU points (Landau overrelaxation; weak: 64^3x32 and 48^4 per GPU; strong:
64^3x128 and 64^3x256) beside the model of docs/scaling.md for 1-16 GPUs: a half-sweep takes
T_bnd + max(T_int, T_x), T_int = (nt-2)/nt T_sweep/2, the boundary T_bnd = 2/nt T_sweep/2,
T_sweep proportional to the slices per rank (from the measured 1-GPU time). On one node (up
to 8 GPUs) the peer path adds its exposed 0.03 ms per sweep; between nodes (16 GPUs, 2 nodes
of 8) the exchange is staged, T_x = 2b/53 GB/s + 2b/B_net + 2b/53 GB/s with
b = 12 V3/2 sizeof(real) bytes and B_net = 25 GB/s (assumed, HDR InfiniBand).
--smoke is the same (the script is cheap); OUTDIR gets scaling.csv/.md and scaling.png.
"""
import argparse
import os
import re
import study_common as sc

LINE = re.compile(r"ranks (\d+) lattice (\d+)x(\d+)x(\d+)x(\d+) slices/rank (\d+) precision (\w+)\s+"
                  r"exchange (on|off)\s+path (\w+)\s+ms/sweep\s+([\d.]+)")
BYTES = {"single": 4, "mixed": 4, "double": 8}
GPUS = (1, 2, 4, 8, 16)


def measured(paths):
    m = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                x = LINE.search(line)
                if x and x.group(8) == "on":
                    r, lx, ly, lz, lt = (int(x.group(i)) for i in range(1, 6))
                    m[(r, (lx, ly, lz, lt), x.group(7))] = float(x.group(10))
    return m


def model_ms(t1, nt1, ranks, lt, v3, precision, b_net=25.0):
    """Predicted ms per sweep on `ranks` GPUs of a lattice with lt slices, from the 1-GPU time
    t1 (ms per sweep) of nt1 slices."""
    nt = lt // ranks
    sweep = t1 * nt / nt1
    if ranks == 1:
        return sweep
    if ranks <= 8:  # one node: the peer path's exposed cost
        return sweep + 0.03
    t_int = (nt - 2) / nt * sweep / 2
    t_bnd = 2 / nt * sweep / 2
    b = 12 * v3 / 2 * BYTES[precision] / 1e9  # GB per block
    t_x = (2 * b / 53 + 2 * b / b_net + 2 * b / 53) * 1e3
    return 2 * (t_bnd + max(t_int, t_x)) + 0.03  # the peer path inside each node as well


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("outdir")
    p.add_argument("--smoke", action="store_true", help="the same (nothing is run)")
    p.add_argument("--plot-only", action="store_true", help="the same (nothing is run)")
    p.add_argument("--gaugefix", help="not used (nothing is run)")
    p.add_argument("--backend", help="not used (nothing is run)")
    p.add_argument("--logs", nargs="+",
                   default=[os.path.join(sc.REPO, "bench/results/2026-11-22-h200x2-run2/scaling.log")])
    a = p.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    m = measured(a.logs)
    if not m:
        raise SystemExit(f"error: no 'ranks ... exchange on ... ms/sweep' lines in {a.logs}")
    rows = []
    cases = [("weak", 64, 32), ("weak", 48, 48), ("strong", 64, 128), ("strong", 64, 256)]
    for kind, ls, lt in cases:
        for prec in ("single", "mixed", "double"):
            t1 = m.get((1, (ls, ls, ls, lt), prec))
            if t1 is None:
                continue
            for r in GPUS:
                total_lt = lt * r if kind == "weak" else lt
                if total_lt // r < 2:
                    continue
                t_model = model_ms(t1, lt, r, total_lt, ls ** 3, prec)
                t_meas = m.get((r, (ls, ls, ls, total_lt), prec))
                eff = lambda t: t1 / t if kind == "weak" else t1 / (r * t)
                rows.append({"scaling": kind, "lattice": f"{ls}^3x{lt}" + (" per GPU" if kind == "weak" else ""),
                             "precision": prec, "gpus": r,
                             "measured_ms": t_meas if t_meas is not None else "",
                             "measured_efficiency": eff(t_meas) if t_meas is not None else "",
                             "model_ms": t_model, "model_efficiency": eff(t_model)})
    print(sc.write_table(a, "scaling", list(rows[0].keys()), rows))

    def draw(ax):
        for i, kind in enumerate(("weak", "strong")):
            for j, lat in enumerate(sorted({r["lattice"] for r in rows if r["scaling"] == kind})):
                for k, prec in enumerate(("single", "double")):
                    rs = [r for r in rows if r["lattice"] == lat and r["precision"] == prec]
                    c = f"C{2 * j + k}"
                    ax[i].plot([r["gpus"] for r in rs], [r["model_efficiency"] for r in rs], "--",
                               color=c, label=f"{lat} {prec} model")
                    ms = [r for r in rs if r["measured_ms"] != ""]
                    ax[i].plot([r["gpus"] for r in ms], [r["measured_efficiency"] for r in ms], "o",
                               color=c, label=f"{lat} {prec} measured")
            ax[i].set(xscale="log", xlabel="GPUs", ylabel="efficiency", ylim=(0, 1.2),
                      title=f"Fig. {5 + i}: {kind} scaling (H200, peer path)")
            ax[i].set_xticks(GPUS, [str(g) for g in GPUS])
            ax[i].legend(fontsize=6)

    sc.figure(a, "scaling", draw, ncols=2)


if __name__ == "__main__":
    main()
