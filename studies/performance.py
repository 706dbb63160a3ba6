#!/usr/bin/env python3
"""performance.py: the paper's section 6.1 (Figs. 3-4), performance of Landau overrelaxation.

For spatial volumes Ns^3 and temporal extents Nt, in single, mixed and double precision
(12 reals per link), `gaugefix tune --tuning force` tunes the Landau overrelaxation sweep and
times every candidate; the winner's time per half-sweep gives site updates per second
(V/2 per half-sweep), its bytes per second and, where the backend measures it (CUDA), the
fraction of the streaming bandwidth measured in the same run.
Full size: Ns = 16, 24, 32 and Nt = 8, 16, 32, 64 on the GPU the session has (run it on an
H100 and on an H200; --label names the device in the table); smoke: Ns = 4, Nt = 4, 8 on the CPU.
Writes performance.csv/.md, performance.png and logs/.
"""
import os
import re
import study_common as sc

WINNER = re.compile(r"\s([\d.]+) us\s+([\d.]+) GB/s(?:\s+([\d.]+) of stream)?\s+<- winner")


def extra(p):
    p.add_argument("--label", default="", help="the device, for the table (e.g. H100)")


def winner(text, kernel="sweep.landau.local"):
    """(us per half-sweep, GB/s, fraction of stream or None) of the winner of `kernel`."""
    section = text[text.index("tuning " + kernel):]
    m = WINNER.search(section)
    if not m:
        raise SystemExit(f"error: no winner line for {kernel} in the tune output")
    return float(m.group(1)), float(m.group(2)), float(m.group(3)) if m.group(3) else None


def main():
    a = sc.parse_args(__doc__.splitlines()[0], extra)
    spatial, temporal = ([4], [4, 8]) if a.smoke else ([16, 24, 32], [8, 16, 32, 64])
    precisions = ("single", "mixed", "double")
    rows = []
    for ns in spatial:
        for nt in temporal:
            for p in precisions:
                name = f"performance_{ns}x{nt}_{p}"
                if not a.plot_only:
                    sc.run(a, name, ["tune", "--lattice", f"{ns},{ns},{ns},{nt}", "--gauge", "landau",
                                     "--precision", p, "--storage", 12, "--backend", a.backend,
                                     "--tuning", "force"])
                with open(sc.log_path(a, name + ".log")) as f:
                    us, gbs, stream = winner(f.read())
                sites = ns ** 3 * nt
                rows.append({"device": a.label or a.backend, "Ns": ns, "Nt": nt, "precision": p,
                             "us_per_half_sweep": us,
                             "site_updates_per_s": sites / 2 / (us * 1e-6),
                             "GB_per_s": gbs,
                             "of_stream": stream if stream is not None else "n/a"})
    print(sc.write_table(a, "performance", list(rows[0].keys()), rows))

    def draw(ax):
        for ns in spatial:
            for p in precisions:
                rs = [r for r in rows if r["Ns"] == ns and r["precision"] == p]
                nts = [r["Nt"] for r in rs]
                ax[0].plot(nts, [r["site_updates_per_s"] / 1e9 for r in rs], "o-",
                           label=f"{ns}^3, {p}")
                if all(r["of_stream"] != "n/a" for r in rs):
                    ax[1].plot(nts, [r["of_stream"] for r in rs], "o-", label=f"{ns}^3, {p}")
        ax[0].set(xlabel="Nt", ylabel="10^9 site updates / s",
                  title=f"Fig. 3: Landau OR, {a.label or a.backend}")
        ax[1].set(xlabel="Nt", ylabel="fraction of streaming bandwidth", title="Fig. 4")
        for x in ax:
            if x.lines:
                x.legend(fontsize=6)

    sc.figure(a, "performance", draw, ncols=2)


if __name__ == "__main__":
    main()
