#!/usr/bin/env python3
"""accuracy.py: the paper's section 4.5 (Figs. 1-2), numerical accuracy of the precisions.

A fixed number of Landau overrelaxation sweeps (omega 1.7) on one thermalised field in
single, mixed and double precision, with 18 reals per link (the drift of the stored links is
visible only there: 12-real storage re-orthonormalises on every load) with and without
reprojection every 100 sweeps, plus single precision with 12 and 8 reals. From each run's
history (gaugefix fix --history): mean and max |1 - det U| against the iteration, F against
the iteration, and the relative deviation of F from the double-precision plateau (the last F
of the double run without reprojection).
Full size: 32^4 (the paper's), 12 000 sweeps, beta 6.0 field; smoke: 4^4, 400 sweeps on the CPU.
Writes accuracy.csv/.md (one row per run), accuracy.png, logs/ and histories/.
"""
import os
import study_common as sc


def runs():
    r = [(p, 18, rep) for p in ("single", "mixed", "double") for rep in (0, 100)]
    return r + [("single", 12, 0), ("single", 8, 0)]


def name(p, storage, rep):
    return f"{p}_s{storage}_r{rep}"


def main():
    a = sc.parse_args(__doc__.splitlines()[0])
    L, sweeps, every, therm = (4, 400, 20, 20) if a.smoke else (32, 12000, 100, 200)
    hist_dir = os.path.join(a.outdir, "histories")
    os.makedirs(hist_dir, exist_ok=True)
    if not a.plot_only:
        field = sc.thermalised_field(a, L, 6.0, therm)
        for p, s, rep in runs():
            sc.run(a, "accuracy_" + name(p, s, rep), [
                "fix", "--input", field, "--gauge", "landau", "--algorithm", "overrelaxation",
                "--omega", 1.7, "--precision", p, "--storage", s, "--reproject-interval", rep,
                "--max-iterations", sweeps, "--check-interval", every, "--tolerance", 1e-300,
                "--random-transform", 1, "--backend", a.backend,
                "--history", os.path.join(hist_dir, "accuracy_" + name(p, s, rep) + ".csv")],
                ok=(0, 3))
    h = {run: sc.read_history(os.path.join(hist_dir, "accuracy_" + name(*run) + ".csv"))
         for run in runs()}
    plateau = h[("double", 18, 0)][-1]["functional"]
    rows = []
    for run in runs():
        last = h[run][-1]
        checks = [r for r in h[run] if r["phase"] != "final"]
        rows.append({"precision": run[0], "storage": run[1], "reproject": run[2],
                     "iterations": last["iteration"], "F": last["functional"],
                     "theta": last["theta"],
                     "rel_dev_F": abs(last["functional"] - plateau) / plateau,
                     "max_rel_dev_F_last_half": max(
                         abs(r["functional"] - plateau) / plateau
                         for r in checks[len(checks) // 2:]),
                     "det_dev_mean": last["det_deviation_mean"],
                     "det_dev_max": last["det_deviation_max"],
                     "unitary_dev_max": last["unitary_deviation_max"]})
    print(sc.write_table(a, "accuracy", list(rows[0].keys()), rows))

    def draw(ax):
        for run in runs():
            rs = [r for r in h[run] if r["phase"] != "final"]
            it = [r["iteration"] for r in rs]
            label = f"{run[0]}, {run[1]} reals" + (f", reproj. {run[2]}" if run[2] else "")
            if run[2] == 0:
                ax[0].semilogy(it, [max(r["det_deviation_mean"], 1e-18) for r in rs], label=label + " mean")
                ax[0].semilogy(it, [max(r["det_deviation_max"], 1e-18) for r in rs], "--", label=label + " max")
            ax[1].plot(it, [r["functional"] for r in rs], label=label)
            ax[2].semilogy(it, [max(abs(r["functional"] - plateau) / plateau, 1e-18) for r in rs],
                           label=label)
        ax[0].set(xlabel="iteration", ylabel="|1 - det U|", title="Fig. 1: det U (no reprojection)")
        ax[1].set(xlabel="iteration", ylabel="F", title="Fig. 2: F")
        ax[2].set(xlabel="iteration", ylabel="|F - F_DP plateau| / F_DP plateau",
                  title="relative deviation from double")
        for x in ax:
            x.legend(fontsize=6)

    sc.figure(a, "accuracy", draw, ncols=3)


if __name__ == "__main__":
    main()
