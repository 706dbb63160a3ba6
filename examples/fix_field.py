#!/usr/bin/env python3
"""fix_field.py: the gaugefix Python module (docs/api.md). Generates a 4^3 x 8 SU(3) field,
fixes Coulomb gauge, checks the result with numpy, and writes the fixed field and g(x) into
DIR (an ILDG file carrying the record of the fixing, and a SciDAC LIME file of g(x)).

    python3 fix_field.py DIR
"""
import sys

import numpy as np

import gaugefix


def main(directory):
    # arrays are complex128 in the order [t, z, y, x, mu, a, b]; lattices are (Lx, Ly, Lz, Lt)
    links = gaugefix.generate((4, 4, 4, 8), beta=6.0, sweeps=5, seed=1)
    print("links:", links.shape, "plaquette:", gaugefix.plaquette(links))

    fixed, g, result = gaugefix.fix(links, gauge="coulomb", tolerance=1e-12,
                                    progress=lambda p: print(f"  {p.iteration:6d} {p.phase:15s} "
                                                             f"theta_max_slice {p.measured.theta_max_slice:.3e}"))
    print(result)
    # g(x) takes the input to the fixed field: U'_mu(x) = g(x) U_mu(x) g(x + mu)^dagger
    x_plus_t = np.roll(g, -1, axis=0)  # axis 0 is t, so this is g(x + t) at x
    rebuilt_t = g @ links[..., 3, :, :] @ np.conj(np.swapaxes(x_plus_t, -1, -2))
    print("time links rebuilt from g(x) to", np.abs(rebuilt_t - fixed[..., 3, :, :]).max())
    print("theta_t:", " ".join(f"{t:.1e}" for t in gaugefix.measure(fixed, gauge="coulomb").theta_per_slice))

    gaugefix.write(f"{directory}/fixed.lime", fixed, gauge_fixing=result.record)
    gaugefix.write(f"{directory}/g.lime", g)
    back, info = gaugefix.read(f"{directory}/fixed.lime")
    print(info, "gauge fixing:", info.gauge_fixing)
    return 0 if result.converged and np.array_equal(back, fixed) else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
