# test_fix.py: gaugefix.fix, measure, plaquette, apply_transform and random_transform: every
# gauge reaches its tolerance, checked against the definition of theta (conftest.py) as well
# as by measure; g(x) takes the input to the fixed field; gauge-invariant quantities do not
# change; the input array is left as it was; options, progress, non-convergence and errors;
# arrays not in SU(N) refused, or reprojected.
import numpy as np
import pytest

import gaugefix
from conftest import landau_theta, max_unitarity_deviation, plaquette


def test_random_transform_keeps_the_orbit(field):
    u, g = gaugefix.random_transform(field, 7)
    assert g.shape == field.shape[:4] + (3, 3)
    assert max_unitarity_deviation(g) < 1e-14
    assert abs(gaugefix.plaquette(u) - gaugefix.plaquette(field)) < 1e-13
    assert np.array_equal(gaugefix.apply_transform(field, g), u)
    assert not np.allclose(u, field)


@pytest.mark.parametrize("gauge,algorithm", [("landau", "overrelaxation"), ("coulomb", "overrelaxation"),
                                             ("mag", "overrelaxation"), ("landau", "facg"),
                                             ("coulomb", "fasd")])
def test_fix_reaches_the_gauge_condition(rotated, gauge, algorithm):
    before = rotated.copy()
    fixed, g, r = gaugefix.fix(rotated, gauge=gauge, algorithm=algorithm, tolerance=1e-12)
    assert np.array_equal(rotated, before)  # fix works on a copy
    assert r.converged
    assert r.iterations > 0 and r.seconds > 0
    m = gaugefix.measure(fixed, gauge=gauge)
    assert len(m.theta_per_slice) == 8
    if gauge == "coulomb":
        assert r.final.theta_max_slice < 1e-12 and m.theta_max_slice < 1e-12
    else:
        assert r.theta < 1e-12 and m.theta < 1e-12
    assert m.functional == pytest.approx(r.functional, abs=1e-13)
    if gauge != "mag":  # the definition of docs/conventions.md, computed here with numpy
        f, theta, theta_t = landau_theta(fixed, 4 if gauge == "landau" else 3)
        assert f == pytest.approx(m.functional, abs=1e-13)
        assert theta == pytest.approx(m.theta, abs=1e-15)
        assert np.allclose(theta_t, m.theta_per_slice, rtol=0, atol=1e-15)
        # the condition: Coulomb gauge every slice, Landau gauge the whole lattice (one slice
        # may exceed the tolerance)
        assert (np.max(theta_t) if gauge == "coulomb" else theta) < 1e-12
    assert max_unitarity_deviation(g) < 1e-13
    assert np.abs(gaugefix.apply_transform(rotated, g) - fixed).max() < 1e-12
    assert gaugefix.plaquette(fixed) == pytest.approx(gaugefix.plaquette(rotated), abs=1e-13)
    assert r.record.gauge == gauge and r.record.converged and r.record.theta == r.theta


def test_measure_against_the_definition_on_an_unfixed_field(rotated):
    f, theta, theta_t = landau_theta(rotated)
    m = gaugefix.measure(rotated, gauge="landau")
    assert theta > 1e-3  # far from the gauge, so that the comparison means something
    assert m.functional == pytest.approx(f, rel=1e-14)
    assert m.theta == pytest.approx(theta, rel=1e-12)
    assert np.allclose(m.theta_per_slice, theta_t, rtol=1e-12, atol=0)
    assert gaugefix.plaquette(rotated) == pytest.approx(plaquette(rotated), abs=1e-14)


@pytest.mark.parametrize("precision,storage,tolerance", [("single", 8, 1e-7), ("mixed", 12, 1e-9),
                                                         ("double", 18, 1e-13)])
def test_precisions_and_storages(rotated, precision, storage, tolerance):
    fixed, g, r = gaugefix.fix(rotated, precision=precision, storage=storage, tolerance=tolerance,
                               algorithm="overrelaxation", omega=1.8, reproject_interval=50)
    assert r.converged and r.theta < tolerance
    assert r.record.precision == precision
    assert gaugefix.measure(fixed).theta < tolerance


def test_annealing_and_stochastic_relaxation_report_progress(rotated):
    seen = []
    fixed, g, r = gaugefix.fix(rotated, anneal_steps=4, t_max=2.0, t_min=0.01, micro_steps=2,
                               sr_steps=20, sr_probability=0.3, check_interval=2, seed=9,
                               progress=seen.append)
    assert r.converged
    phases = [p.phase for p in seen]
    assert phases[:2] == ["anneal", "anneal"]
    assert seen[0].temperature > seen[1].temperature > 0
    assert "stochastic" in phases and phases[-1] == "overrelaxation"
    assert [p.iteration for p in seen] == sorted(p.iteration for p in seen)
    assert seen[-1].iteration == r.iterations
    assert seen[-1].measured.theta == r.theta


def test_progress_callback_errors_propagate(rotated):
    def stop(progress):
        raise ValueError(f"stopped at {progress.iteration}")

    with pytest.raises(ValueError, match="stopped at 100"):
        gaugefix.fix(rotated, progress=stop)


def test_not_converged_is_a_result_and_transform_is_optional():
    hot = gaugefix.generate((4, 4, 4, 4), start="hot")
    fixed, g, r = gaugefix.fix(hot, max_iterations=3, transform=False)
    assert not r.converged and r.iterations == 3 and r.theta > 1e-12
    assert g is None
    assert "converged=False" in repr(r)


def test_other_array_layouts_are_converted(rotated):
    reference = gaugefix.fix(rotated)[0]
    fortran = np.asfortranarray(rotated)
    assert np.array_equal(gaugefix.fix(fortran)[0], reference)


def test_links_not_in_su_n_are_refused_or_reprojected(rotated):
    """Arrays that are not SU(N) within 1e-10: every function refuses them, naming the check,
    the worst deviation and the tolerance; a real array is refused by its dtype; fix with
    reproject=True projects the links onto SU(N) first."""
    check = r"links: unitarity: links are not in SU\(3\): max deviation {} > 1e-10 allowed for 64-bit data"
    scaled = rotated * 1.1
    for call, name in [(gaugefix.fix, "fix"), (gaugefix.measure, "measure"),
                       (gaugefix.plaquette, "plaquette")]:
        with pytest.raises(gaugefix.Error, match=f"^{name}: " + check.format(r"0\.331")):
            call(scaled)
    with pytest.raises(gaugefix.Error, match="random_transform: " + check.format(r"0\.331")):
        gaugefix.random_transform(scaled, 1)
    nan = rotated.copy()
    nan[1, 2, 3, 0, 2, 1, 1] = np.nan
    with pytest.raises(gaugefix.Error, match=check.format("inf")):
        gaugefix.fix(nan)
    g = gaugefix.random_transform(rotated, 2)[1]
    with pytest.raises(gaugefix.Error, match=r"apply_transform: g: unitarity: .* max deviation 0\.331"):
        gaugefix.apply_transform(rotated, g * 1.1)
    with pytest.raises(gaugefix.Error, match=r"^links: dtype float64 of shape \(8, 4, 4, 4, 4, 3, 3\) "
                                             r"is not complex"):
        gaugefix.fix(rotated.real)
    with pytest.raises(gaugefix.Error, match=r"^array: dtype int64 of shape \(8, 4, 4, 4, 4, 3, 3\)"):
        gaugefix.write("never-written.nersc", np.ones(rotated.shape, dtype=np.int64))
    with pytest.raises(gaugefix.Error, match=r"^links: shape \(4, 4\) is neither .* \(dtype float64\)$"):
        gaugefix.measure(np.eye(4))
    single = rotated.astype(np.complex64)  # SU(3) to single precision only
    with pytest.raises(gaugefix.Error, match=check.format(r"[0-9.e-]+")):
        gaugefix.fix(single)

    fixed, _, r = gaugefix.fix(scaled, reproject=True, transform=False)
    assert r.converged
    assert gaugefix.plaquette(fixed) == pytest.approx(gaugefix.plaquette(rotated), abs=1e-12)  # 1.1 U -> U
    fixed, _, r = gaugefix.fix(single, reproject=True, tolerance=1e-10)
    assert r.converged and max_unitarity_deviation(fixed) < 1e-12
    with pytest.raises(gaugefix.Error, match=r"fix: links \(reprojected\): unitarity: "):
        gaugefix.fix(np.zeros_like(rotated), reproject=True)


def test_errors_name_the_function_and_option(field):
    cases = [
        (dict(tolerance=float("inf")), "fix: tolerance must be a positive finite number"),
        (dict(gauge="axial"), "fix: gauge: unknown gauge 'axial'"),
        (dict(algorithm="heatbath"), r"fix: algorithm: unknown algorithm 'heatbath' \(expected "
         r"relaxation, overrelaxation, stochastic, fasd or facg\)"),
        (dict(gauge="landua"), r"fix: gauge: unknown gauge 'landua' \(expected landau, coulomb or "
         r"mag; did you mean landau\?\)"),
        (dict(exchange="mail"), "fix: exchange: unknown exchange path 'mail'"),
        (dict(omega=2.5), "omega"),
        (dict(storage=16), "fix: storage must be 8, 12 or 18"),
        (dict(precision="quad"), "fix: precision: unknown precision 'quad'"),
        (dict(preconditioner_precision="mixed"),
         "fix: preconditioner_precision: unknown preconditioner precision 'mixed'"),
        (dict(algorithm="facg", precision="single", preconditioner_precision="double"),
         "fix: preconditioner_precision double needs precision double or mixed"),
        (dict(backend="tpu"), "fix: backend: unknown backend 'tpu'"),
        (dict(tuning="always"), "fix: tuning: unknown tuning mode 'always'"),
        (dict(max_iterations=0), "fix: max_iterations must be at least 1"),
        (dict(algorithm="newton"), "fix: algorithm: unknown algorithm 'newton'"),
        (dict(alpha=0.1), "fix: alpha applies to algorithm fasd or facg, not to overrelaxation"),
        (dict(algorithm="fasd", alpha=-1.0), "fix: alpha must be 0"),
        (dict(algorithm="facg", gauge="mag"), "fix: algorithm facg: Fourier acceleration exists"),
    ]
    for options, message in cases:
        with pytest.raises(gaugefix.Error, match=message):
            gaugefix.fix(field, **options)
    with pytest.raises(gaugefix.Error, match=r"links: shape \(8, 4, 4, 4, 3, 3, 3\) is neither"):
        gaugefix.fix(np.zeros((8, 4, 4, 4, 3, 3, 3), complex))
    su2 = gaugefix.generate((4, 4, 4, 4), group="su2")
    with pytest.raises(gaugefix.Error, match="storage 8 holds SU\\(3\\) links only"):
        gaugefix.fix(su2, storage=8)
    g = gaugefix.random_transform(field, 1)[1]
    with pytest.raises(gaugefix.Error, match="a gauge field \\(4 matrices per site\\) is needed"):
        gaugefix.measure(g)
    with pytest.raises(gaugefix.Error, match="another lattice"):
        gaugefix.apply_transform(su2, g)
    with pytest.raises(TypeError, match="comm must be None"):
        gaugefix.plaquette(field, comm="world")
    assert issubclass(gaugefix.Error, RuntimeError)


def test_history_rows_end_with_the_result(rotated):
    seen = []
    _, _, r = gaugefix.fix(rotated, tolerance=1e-12, check_interval=20, history=True,
                           progress=lambda p: seen.append((p.iteration, p.measured.functional)))
    assert [(h.iteration, h.functional) for h in r.history[:-1]] == seen
    last = r.history[-1]
    assert last.phase == "final" and last.iteration == r.iterations
    assert last.functional == r.functional and last.theta == r.theta
    assert all(0 <= h.det_deviation_mean <= h.det_deviation_max < 1e-12 for h in r.history)
    assert gaugefix.fix(rotated, tolerance=1e-12)[2].history == []
