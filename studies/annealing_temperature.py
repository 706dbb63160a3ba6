#!/usr/bin/env python3
"""annealing_temperature.py: the paper's section 6.4 (Fig. 7), simulated annealing's
temperature dependence.

A hot (random) SU(3) field is annealed in Landau gauge and in MAG: heatbath steps with T
falling linearly from --t-max to --t-min, each followed by 3 microcanonical sweeps; the
history (gaugefix fix --history) gives F and theta at each check against T. The paper finds
the sensitive region below T ~ 4 (Landau) and T ~ 2 (MAG).
Full size: 32^4 (the paper's), 10 000 annealing steps from T = 6 to 0.01, mixed precision,
a check every 100 steps; smoke: 4^4, 400 steps on the CPU.
Writes annealing_temperature.csv/.md (F and theta per gauge and T), annealing_temperature.png,
logs/ and histories/.
"""
import os
import study_common as sc

GAUGES = ("landau", "mag")


def main():
    a = sc.parse_args(__doc__.splitlines()[0])
    L, steps, every, precision = (4, 400, 20, "double") if a.smoke else (32, 10000, 100, "mixed")
    t_max, t_min = 6.0, 0.01
    hist_dir = os.path.join(a.outdir, "histories")
    os.makedirs(hist_dir, exist_ok=True)
    hist = {g: os.path.join(hist_dir, f"annealing_{g}.csv") for g in GAUGES}
    if not a.plot_only:
        for g in GAUGES:
            # one sweep of the final phase: the study is the annealing; not converging is expected
            sc.run(a, f"annealing_{g}", [
                "fix", "--generate", "hot", "--lattice", f"{L},{L},{L},{L}", "--gauge", g,
                "--anneal-steps", steps, "--t-max", t_max, "--t-min", t_min, "--micro-steps", 3,
                "--max-iterations", 1, "--check-interval", every, "--precision", precision,
                "--seed", 5, "--backend", a.backend, "--history", hist[g]], ok=(0, 3))
    rows = []
    for g in GAUGES:
        for r in sc.read_history(hist[g]):
            if r["phase"] == "anneal":
                rows.append({"gauge": g, "iteration": r["iteration"], "T": r["temperature"],
                             "F": r["functional"], "theta": r["theta"]})
    sc.write_table(a, "annealing_temperature", list(rows[0].keys()), rows)
    for g in GAUGES:
        rs = [r for r in rows if r["gauge"] == g]
        print(f"{g}: T {rs[0]['T']:.3g} -> {rs[-1]['T']:.3g}, F {rs[0]['F']:.6f} -> {rs[-1]['F']:.6f}, "
              f"theta {rs[0]['theta']:.3e} -> {rs[-1]['theta']:.3e}")

    def draw(ax):
        for g in GAUGES:
            rs = [r for r in rows if r["gauge"] == g]
            ax[0].plot([r["T"] for r in rs], [r["F"] for r in rs], label=g)
            ax[1].semilogy([r["T"] for r in rs], [r["theta"] for r in rs], label=g)
        ax[0].set(xlabel="T", ylabel="F", title="Fig. 7: F against T (annealing)")
        ax[1].set(xlabel="T", ylabel="theta", title="theta against T")
        for x in ax:
            x.invert_xaxis()
            x.legend()

    sc.figure(a, "annealing_temperature", draw, ncols=2)


if __name__ == "__main__":
    main()
