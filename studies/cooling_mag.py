#!/usr/bin/env python3
"""cooling_mag.py: the paper's section 6.5 (Table 4), cooling down to the maximally Abelian
gauge.

Random starts (Gribov copies, gaugefix fix --copies with --random-transform) of a quenched
beta = 5.7 field are fixed to MAG (theta < 1e-12) by two schedules:
  OR        overrelaxation alone (omega 1.35), at most --or-cap sweeps;
  SA/SR/OR  annealing steps (T from 4 to 1e-4, 3 microcanonical sweeps each), then up to the
            same number of stochastic relaxation sweeps, then overrelaxation (omega 1.35).
Per schedule: the copies that converged, their iterations (mean +- standard error) and F
(mean +- standard error), from each copy's history (the final row).
Paper, 100 copies of 32^4: OR 83 converged, 272 340 +- 8 405 iterations,
F = 0.74356431(39697); SA/SR/OR 97 converged, 16 701 +- 2 562, F = 0.74423815(10996).
Full size (scaled down, the paper's OR needs ~3e5 sweeps per copy): 16^4, 12 copies, 2000
annealing steps and 2000 stochastic relaxation sweeps, OR capped at 50 000 sweeps, mixed
precision; smoke: 4^4, 3 copies, 50 + 50 steps, cap 4000, on the CPU.
Writes cooling_mag.csv/.md, cooling_mag.png, logs/ and histories/.
"""
import os
import study_common as sc

SCHEDULES = ("OR", "SA/SR/OR")


def main():
    a = sc.parse_args(__doc__.splitlines()[0])
    if a.smoke:
        L, copies, steps, cap, therm, precision = 4, 3, 50, 4000, 20, "double"
    else:
        L, copies, steps, cap, therm, precision = 16, 12, 2000, 50000, 200, "mixed"
    tol = 1e-12
    hist_dir = os.path.join(a.outdir, "histories")
    os.makedirs(hist_dir, exist_ok=True)
    tag = {"OR": "or", "SA/SR/OR": "sa_sr_or"}

    def history(s, k):
        return os.path.join(hist_dir, f"cooling_{tag[s]}.copy{k}.csv")

    if not a.plot_only:
        field = sc.thermalised_field(a, L, 5.7, therm)
        common = ["fix", "--input", field, "--gauge", "mag", "--algorithm", "overrelaxation",
                  "--omega", 1.35, "--tolerance", tol, "--copies", copies,
                  "--random-transform", 1, "--seed", 3, "--precision", precision,
                  "--backend", a.backend, "--check-interval", 100]
        sc.run(a, "cooling_or", common + [
            "--max-iterations", cap, "--history", os.path.join(hist_dir, "cooling_or.csv")],
            ok=(0, 3))
        sc.run(a, "cooling_sa_sr_or", common + [
            "--anneal-steps", steps, "--t-max", 4, "--t-min", 1e-4, "--micro-steps", 3,
            "--sr-steps", steps, "--sr-probability", 0.5, "--max-iterations", cap,
            "--history", os.path.join(hist_dir, "cooling_sa_sr_or.csv")], ok=(0, 3))
    rows, finals = [], {}
    for s in SCHEDULES:
        finals[s] = [sc.read_history(history(s, k))[-1] for k in range(copies)]
        done = [r for r in finals[s] if r["theta"] < tol]
        it_m, it_e = sc.mean_and_error([r["iteration"] for r in done])
        f_m, f_e = sc.mean_and_error([r["functional"] for r in done])
        rows.append({"schedule": s, "copies": copies, "converged": len(done),
                     "iterations_mean": it_m, "iterations_error": it_e,
                     "F_mean": f_m, "F_error": f_e,
                     "F_best": max(r["functional"] for r in finals[s])})
    print(sc.write_table(a, "cooling_mag", list(rows[0].keys()), rows))

    def draw(ax):
        for s in SCHEDULES:
            ax[0].plot([r["iteration"] for r in finals[s]], [r["functional"] for r in finals[s]],
                       "o", label=s)
            for k in range(copies):
                h = [r for r in sc.read_history(history(s, k)) if r["phase"] != "final"]
                ax[1].semilogy([r["iteration"] for r in h], [max(r["theta"], 1e-18) for r in h],
                               color="C0" if s == "OR" else "C1", alpha=0.5,
                               label=s if k == 0 else None)
        ax[0].set(xlabel="iterations", ylabel="final F", title="Table 4: copies (MAG)")
        ax[1].set(xlabel="iteration", ylabel="theta", title="theta per copy")
        for x in ax:
            x.legend()

    sc.figure(a, "cooling_mag", draw, ncols=2)


if __name__ == "__main__":
    main()
