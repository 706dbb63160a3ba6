# conftest.py: what the pytest suite of the Python module shares: the gaugefix program of the
# same build ($GAUGEFIX_EXE, set by tests/meson.build), a helper that runs it, small fields
# (one also at a random point of its gauge orbit) and numpy versions of the definitions
# (docs/conventions.md) in the documented index order [t, z, y, x, mu, a, b], against which
# the module is checked.
import os
import subprocess

import numpy as np
import pytest

import gaugefix

GAUGEFIX_EXE = os.environ.get("GAUGEFIX_EXE", "gaugefix")
SOURCE = os.environ.get("GAUGEFIX_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))


def run_cli(*args, status=0):
    """Runs the gaugefix program; returns its stdout, fails unless it exits with `status`."""
    r = subprocess.run([GAUGEFIX_EXE, *map(str, args)], capture_output=True, text=True)
    assert r.returncode == status, f"gaugefix {' '.join(map(str, args))}: exit {r.returncode}\n{r.stderr}"
    return r.stdout


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture(scope="session")
def field():
    """An SU(3) field on 4x4x4x8 (Lx, Ly, Lz, Lt): 3 heatbath sweeps at beta = 5.8."""
    return gaugefix.generate((4, 4, 4, 8), beta=5.8, sweeps=3, seed=4)


@pytest.fixture(scope="module")
def rotated(field):
    """The session's field at a random point of its gauge orbit."""
    return gaugefix.random_transform(field, 7)[0]


# The array axis of direction mu (x, y, z, t) in [t, z, y, x, ...].
AXIS = {0: 3, 1: 2, 2: 1, 3: 0}


def dagger(m):
    return np.conj(np.swapaxes(m, -1, -2))


def shift(u, mu, step):
    """u(x + step mu) at x, periodic."""
    return np.roll(u, -step, axis=AXIS[mu])


def plaquette(u):
    n = u.shape[-1]
    total = 0.0
    for mu in range(4):
        for nu in range(mu + 1, 4):
            p = u[..., mu, :, :] @ shift(u[..., nu, :, :], mu, 1) @ dagger(
                shift(u[..., mu, :, :], nu, 1)) @ dagger(u[..., nu, :, :])
            total += np.trace(p, axis1=-2, axis2=-1).real.sum()
    return total / (6 * n * u[..., 0, 0, 0].size)


def landau_theta(u, dirs=4):
    """(F, theta, theta_t) of Landau gauge (dirs = 4) or Coulomb gauge (dirs = 3)."""
    n = u.shape[-1]
    eye = np.eye(n)
    delta = 0
    for mu in range(dirs):
        a = (u[..., mu, :, :] - dagger(u[..., mu, :, :])) / 2j
        a = a - np.trace(a, axis1=-2, axis2=-1)[..., None, None] * eye / n
        delta = delta + a - shift(a, mu, -1)
    per_site = np.einsum("...ab,...ab->...", delta, np.conj(delta)).real
    f = np.trace(u[..., :dirs, :, :], axis1=-2, axis2=-1).real.sum()
    v = per_site.size
    theta_t = per_site.reshape(u.shape[0], -1).sum(axis=1) / (n * per_site[0].size)
    return f / (n * dirs * v), per_site.sum() / (n * v), theta_t


def max_unitarity_deviation(m):
    n = m.shape[-1]
    return np.abs(m @ dagger(m) - np.eye(n)).max()
