# test_measure.py: gaugefix.gluon_propagator and gaugefix.static_potential (docs/measurements.md)
# against numpy versions of the definitions, and against the files `gaugefix measure` writes.
import numpy as np
import pytest

import gaugefix


def lie(links):
    """A_mu(x) = traceless part of (U - U^dagger)/(2i), shape [t, z, y, x, mu, a, b]."""
    a = (links - np.conj(np.swapaxes(links, -1, -2))) / 2j
    n = links.shape[-1]
    tr = np.trace(a, axis1=-2, axis2=-1)[..., None, None]
    return a - tr / n * np.eye(n)


def landau_propagator(links, modes):
    """GLU's transverse and longitudinal propagators at the modes (nx, ny, nz, nt)."""
    lt, lz, ly, lx, _, n, _ = links.shape
    dims = (lx, ly, lz, lt)
    v = lx * ly * lz * lt
    # sum_x e^{+i p.x} A(x): numpy's inverse FFT times V, over the axes t, z, y, x
    ap = np.fft.ifftn(lie(links), axes=(0, 1, 2, 3)) * v
    out = []
    for k in modes:
        pt = [2 * np.pi * k[mu] / dims[mu] for mu in range(4)]
        p = np.array([2 * np.sin(q / 2) for q in pt])
        a = np.array([ap[k[3] % lt, k[2] % lz, k[1] % ly, k[0] % lx, mu] * np.exp(0.5j * pt[mu])
                      for mu in range(4)])
        t = np.real(np.einsum("mab,nab->mn", a, np.conj(a)))
        p2 = p @ p
        if p2 == 0:
            out.append((2 / ((n * n - 1) * 4 * v) * np.trace(t), 0.0))
            continue
        proj = np.outer(p, p) / p2
        out.append((2 / ((n * n - 1) * 3 * v) * np.sum((np.eye(4) - proj) * t),
                    2 / ((n * n - 1) * v) * np.sum(proj * t)))
    return np.array(out)


def test_gluon_propagator_against_the_definition(rotated):
    g = gaugefix.gluon_propagator(rotated, max_n2=2)
    assert list(g) == ["nx", "ny", "nz", "nt", "p2", "transverse", "longitudinal"]
    modes = np.stack([g["nx"], g["ny"], g["nz"], g["nt"]], axis=1).astype(int)
    want = landau_propagator(rotated, modes)
    assert np.allclose(g["transverse"], want[:, 0], rtol=1e-11, atol=1e-14)
    assert np.allclose(g["longitudinal"], want[:, 1], rtol=1e-11, atol=1e-14)


def test_static_potential_against_the_definition(field):
    v = gaugefix.static_potential(field, 2)
    assert list(v) == ["r", "t", "correlator", "potential"]
    ut = field[:, :, :, :, 3]  # [t, z, y, x, a, b]
    lt = field.shape[0]
    w = {0: np.broadcast_to(np.eye(3), ut.shape).copy()}
    for T in range(1, 4):
        w[T] = w[T - 1] @ np.roll(ut, -(T - 1), axis=0)
    def c(r, T):
        s = 0.0
        for axis in (3, 2, 1):  # x, y, z
            s += np.real(np.sum(w[T] * np.conj(np.roll(w[T], -r, axis=axis))))
        return s / (3 * lt)  # GLU's normalisation: summed over space, averaged over time
    for r, t, corr, pot in zip(v["r"], v["t"], v["correlator"], v["potential"]):
        assert corr == pytest.approx(c(int(r), int(t)), rel=1e-12)
        assert pot == pytest.approx(np.log(c(int(r), int(t)) / c(int(r), int(t) + 1)), rel=1e-9)
    with pytest.raises(gaugefix.Error, match="max_t"):
        gaugefix.static_potential(field, lt)


def test_the_files_of_gaugefix_measure(field, cli, tmp_path):
    path = tmp_path / "cfg.nersc"
    gaugefix.write(str(path), field)
    cli("measure", "--input", path, "--gluon-propagator", tmp_path / "g.csv", "--max-n2", 3,
        "--gauge", "coulomb", "--static-potential", tmp_path / "v.csv", "--max-t", 2)
    for name, table in (("g.csv", gaugefix.gluon_propagator(field, max_n2=3, gauge="coulomb")),
                        ("v.csv", gaugefix.static_potential(field, 2))):
        lines = [l for l in open(tmp_path / name) if not l.startswith("#")]
        assert lines[0].strip().split(",") == list(table)
        rows = np.array([[float(x) for x in l.split(",")] for l in lines[1:]])
        for i, column in enumerate(table):
            assert np.array_equal(rows[:, i], table[column], equal_nan=True), column
