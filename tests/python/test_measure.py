# test_measure.py: gaugefix.gluon_propagator, static_potential, ghost_propagator,
# lowest_eigenvalue and abelian_projection (docs/measurements.md) against numpy versions of the
# definitions (for the ghost: the Faddeev-Popov operator as a dense matrix, diagonalised), and
# against the files `gaugefix measure` writes.
import itertools

import numpy as np
import pytest

import gaugefix
from conftest import AXIS, dagger, shift


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


PAULI_HALF = np.array([[[0, 1], [1, 0]], [[0, -1j], [1j, 0]], [[1, 0], [0, -1]]]) / 2


def faddeev_popov_matrix(links):
    """The SU(2) Faddeev-Popov operator of docs/measurements.md as a dense matrix on the
    vectors w[t, z, y, x, a] (flattened), built column by column:
    (M w)^a = 2 Re tr(T^a Y), Y = W K - sum_mu (U_mu(x) W(x + mu) + W(x - mu) U_mu(x - mu)),
    W = sum_a w^a T^a, K = sum_mu (U_mu(x) + U_mu(x - mu)^dagger)."""
    sites = links.shape[:4]
    n = int(np.prod(sites)) * 3
    w = np.eye(n).reshape((n, *sites, 3))
    big_w = np.einsum("b...a,aij->b...ij", w, PAULI_HALF)
    u = links[None]
    k = sum(u[..., mu, :, :] + dagger(np.roll(u[..., mu, :, :], 1, axis=1 + AXIS[mu]))
            for mu in range(4))
    y = big_w @ k
    for mu in range(4):
        axis = 1 + AXIS[mu]
        y = y - u[..., mu, :, :] @ np.roll(big_w, -1, axis=axis)
        y = y - np.roll(big_w @ u[..., mu, :, :], 1, axis=axis)
    out = 2 * np.einsum("aij,b...ji->b...a", PAULI_HALF, y).real
    return out.reshape(n, n).T


@pytest.fixture(scope="module")
def landau_su2():
    links = gaugefix.generate((4, 4, 4, 4), group="su2", beta=2.3, sweeps=4, seed=5)
    fixed, _, r = gaugefix.fix(links, gauge="landau", tolerance=1e-15)
    assert r.converged
    return fixed


def test_ghost_propagator_on_the_unit_field():
    unit = gaugefix.generate((4, 4, 4, 8))
    g = gaugefix.ghost_propagator(unit, max_n2=1, cut="hypercubic", tolerance=1e-12)
    assert list(g) == ["nx", "ny", "nz", "nt", "p2", "ghost", "iterations", "residual"]
    n = np.stack([g["nx"], g["ny"], g["nz"], g["nt"]], axis=1)
    assert len(n) == 134  # |n_i| <= 1, |n_t| <= 2 (n_t = 2 counts as 1 on 4^3 x 8), n != 0
    assert np.all(np.abs(n[:, :3]) <= 1) and np.all(np.abs(n[:, 3]) <= 2)
    assert not np.any(np.all(n == 0, axis=1))
    p2 = np.sum(4 * np.sin(np.pi * n / np.array([4, 4, 4, 8])) ** 2, axis=1)
    assert np.allclose(g["p2"], p2, rtol=0, atol=1e-14)
    assert np.allclose(g["ghost"] * p2, 1, rtol=0, atol=1e-10)
    assert np.all(g["residual"] <= 1e-12)
    with pytest.raises(gaugefix.Error, match="max_n2"):
        gaugefix.ghost_propagator(unit, max_n2=0)
    with pytest.raises(gaugefix.Error, match="cut"):
        gaugefix.ghost_propagator(unit, max_n2=1, cut="sphere")


def test_ghost_propagator_and_lowest_eigenvalue_against_the_dense_operator(landau_su2):
    m = faddeev_popov_matrix(landau_su2)
    assert np.abs(m - m.T).max() < 1e-6  # symmetric in Landau gauge
    values, vectors = np.linalg.eigh((m + m.T) / 2)
    assert np.all(np.abs(values[:3]) < 1e-6)  # the constants, one per colour
    assert values[3] > 1e-3
    e = gaugefix.lowest_eigenvalue(landau_su2, tolerance=1e-7)
    assert list(e) == ["eigenvalue", "lanczos_steps", "residual"]
    assert e["residual"][0] <= 1e-7
    assert e["eigenvalue"][0] == pytest.approx(values[3], abs=1e-9)

    g = gaugefix.ghost_propagator(landau_su2, max_n2=1, tolerance=1e-12)
    assert len(g["ghost"]) == 8
    v = 4 ** 4
    x = np.indices((4, 4, 4, 4)).reshape(4, -1)  # t, z, y, x of the flattened sites
    for row in range(len(g["ghost"])):
        n = [g["nt"][row], g["nz"][row], g["ny"][row], g["nx"][row]]
        wave = np.exp(2j * np.pi * np.tensordot(n, x, axes=1) / 4)
        total = 0
        for a in range(3):
            psi = np.zeros((v, 3), complex)
            psi[:, a] = wave
            overlaps = vectors[:, 3:].T @ psi.reshape(-1)
            total += np.sum(np.abs(overlaps) ** 2 / values[3:])
        assert g["ghost"][row] == pytest.approx(total / (3 * v), rel=1e-9)
        assert g["ghost"][row] * g["p2"][row] > 1


def abelian_angles(links):
    """theta^i_mu(x), shape [t, z, y, x, mu, i]."""
    n = links.shape[-1]
    phi = np.angle(np.diagonal(links, axis1=-2, axis2=-1))
    total = phi.sum(axis=-1, keepdims=True)
    k = np.where(total >= 0, np.floor(total / (2 * np.pi) + 0.5), np.ceil(total / (2 * np.pi) - 0.5))
    theta = phi - (total - 2 * np.pi * k) / n
    return theta - 2 * np.pi * np.ceil((theta - np.pi) / (2 * np.pi))


def epsilon(*index):
    """The sign of the permutation index of (0, 1, 2, 3)."""
    sign, rest = 1, list(index)
    for i in range(len(rest)):
        for j in range(i + 1, len(rest)):
            if rest[i] > rest[j]:
                sign = -sign
    return sign


def test_abelian_projection_against_the_definition():
    # a hot SU(2) field: many monopoles
    links = gaugefix.generate((4, 4, 4, 6), group="su2", start="hot", seed=8)
    a = gaugefix.abelian_projection(links)
    assert list(a) == ["plaquette", "polyakov_re", "polyakov_im", "polyakov_re_1", "polyakov_im_1",
                       "polyakov_re_2", "polyakov_im_2", "density_1", "density_2", "unconserved"]
    theta = abelian_angles(links)
    plaq = {}
    for mu, nu in itertools.combinations(range(4), 2):
        plaq[mu, nu] = (theta[..., mu, :] + shift(theta[..., nu, :], mu, 1)
                        - shift(theta[..., mu, :], nu, 1) - theta[..., nu, :])
    v = theta[..., 0, 0].size
    want = sum(np.cos(p).sum() for p in plaq.values()) / (6 * 2 * v)
    assert a["plaquette"][0] == pytest.approx(want, rel=1e-12)
    loops = np.exp(1j * theta[..., 3, :].sum(axis=0)).mean(axis=(0, 1, 2))
    for i in range(2):
        assert a[f"polyakov_re_{i + 1}"][0] == pytest.approx(loops[i].real, abs=1e-12)
        assert a[f"polyakov_im_{i + 1}"][0] == pytest.approx(loops[i].imag, abs=1e-12)
    assert a["polyakov_re"][0] == pytest.approx(loops.mean().real, abs=1e-12)
    # DeGrand-Toussaint for SU(2): the Dirac strings n = round(theta_rs / 2 pi) of colour 1
    strings = {key: np.floor(p[..., 0] / (2 * np.pi) + 0.5) for key, p in plaq.items()}
    nonzero = 0
    for mu in range(4):
        m = 0
        for nu in range(4):
            if nu == mu:
                continue
            rho, sigma = sorted(set(range(4)) - {mu, nu})
            s = shift(strings[rho, sigma], mu, 1)
            m = m - epsilon(mu, nu, rho, sigma) * (shift(s, nu, 1) - s)
        nonzero += np.count_nonzero(m)
    assert nonzero > 0
    assert a["density_1"][0] == pytest.approx(nonzero / (4 * v), abs=1e-15)
    assert a["density_2"][0] == pytest.approx(a["density_1"][0], abs=1e-15)
    assert a["unconserved"][0] == 0


def test_ghost_eigenvalue_and_abelian_files_of_gaugefix_measure(landau_su2, cli, tmp_path):
    path = tmp_path / "landau.nersc"
    gaugefix.write(str(path), landau_su2)
    cli("measure", "--input", path, "--gauge", "landau", "--ghost-propagator", tmp_path / "g.csv",
        "--ghost-max-n2", 4, "--ghost-cut", "cylinder", "--ghost-cylinder-width", 0.5,
        "--lowest-eigenvalue", tmp_path / "e.csv")
    cli("measure", "--input", path, "--gauge", "mag", "--abelian", tmp_path / "a.csv")
    for name, table in (
            ("g.csv", gaugefix.ghost_propagator(landau_su2, max_n2=4, cut="cylinder",
                                                cylinder_width=0.5)),
            ("e.csv", gaugefix.lowest_eigenvalue(landau_su2)),
            ("a.csv", gaugefix.abelian_projection(landau_su2))):
        lines = [l for l in open(tmp_path / name) if not l.startswith("#")]
        assert lines[0].strip().split(",") == list(table)
        rows = np.array([[float(x) for x in l.split(",")] for l in lines[1:]])
        assert len(rows) >= 1
        for i, column in enumerate(table):
            assert np.array_equal(rows[:, i], table[column]), column
