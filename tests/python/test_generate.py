# test_generate.py: gaugefix.generate: shapes in the documented order for a lattice given as
# (Lx, Ly, Lz, Lt), cold, hot and smooth starts, SU(N) links, determinism by seed, the
# plaquette against its definition (which fixes the meaning of every axis), bad options.
import numpy as np
import pytest

import gaugefix
from conftest import max_unitarity_deviation, plaquette


def test_shape_is_t_z_y_x_mu_a_b():
    u = gaugefix.generate((4, 6, 2, 8))
    assert u.shape == (8, 2, 6, 4, 4, 3, 3)
    assert u.dtype == np.complex128
    g2 = gaugefix.generate((2, 4, 6, 4), group="su2")
    assert g2.shape == (4, 6, 4, 2, 4, 2, 2)


def test_cold_start_is_the_unit_field():
    u = gaugefix.generate((4, 4, 4, 4))
    assert np.array_equal(u, np.broadcast_to(np.eye(3), u.shape))
    assert gaugefix.plaquette(u) == 1.0


@pytest.mark.parametrize("start", ["hot", "smooth"])
@pytest.mark.parametrize("group", ["su2", "su3"])
def test_random_starts_are_special_unitary_and_seeded(start, group):
    u = gaugefix.generate((4, 4, 4, 4), group=group, start=start, seed=3)
    assert max_unitarity_deviation(u) < 1e-14
    assert np.abs(np.linalg.det(u) - 1).max() < 1e-14
    assert np.array_equal(u, gaugefix.generate((4, 4, 4, 4), group=group, start=start, seed=3))
    assert not np.array_equal(u, gaugefix.generate((4, 4, 4, 4), group=group, start=start, seed=4))
    assert gaugefix.plaquette(u) < (0.5 if start == "hot" else 1.0)


def test_heatbath_plaquette_against_its_definition():
    # non-cubic, so that a confusion of axes or directions changes the value
    u = gaugefix.generate((4, 2, 6, 8), beta=5.7, sweeps=4, or_sweeps=1, seed=2)
    p = gaugefix.plaquette(u)
    assert 0.3 < p < 0.8
    assert abs(plaquette(u) - p) < 1e-14
    assert max_unitarity_deviation(u) < 1e-14


def test_bad_options_name_the_option():
    with pytest.raises(gaugefix.Error, match="generate: lattice: extent 5 in direction 3"):
        gaugefix.generate((4, 4, 4, 5))
    with pytest.raises(gaugefix.Error, match="generate: start: unknown start 'warm'"):
        gaugefix.generate((4, 4, 4, 4), start="warm")
    with pytest.raises(gaugefix.Error, match="generate: beta must be > 0"):
        gaugefix.generate((4, 4, 4, 4), beta=-1, sweeps=1)
    with pytest.raises(gaugefix.Error, match="generate: group: unknown group 'su4'"):
        gaugefix.generate((4, 4, 4, 4), group="su4")
    with pytest.raises(gaugefix.Error, match="generate: sweeps must be at least 0"):
        gaugefix.generate((4, 4, 4, 4), sweeps=-3)
