# test_gpu.py: gaugefix.fix with backend="cuda" (skipped where this gaugefix was built
# without CUDA or the machine has no CUDA device): every gauge and algorithm family reaches
# its tolerance by the definition of theta (conftest.py), g(x) takes the input to the fixed
# field, gauge-invariant quantities do not change, the input array is left as it was, and the
# GPU's fix agrees with the CPU's (rounding apart: cuFFT and fused multiply-adds).
import numpy as np
import pytest

import gaugefix
from conftest import landau_theta, max_unitarity_deviation, plaquette

NO_GPU = ("no CUDA device", "built without CUDA")


@pytest.fixture(scope="module")
def gpu(rotated):
    """Skips the module's tests where the CUDA backend cannot run."""
    try:
        gaugefix.fix(rotated, backend="cuda", max_iterations=1, transform=False)
    except gaugefix.Error as e:
        if any(reason in str(e) for reason in NO_GPU):
            pytest.skip(f"the CUDA backend cannot run here: {e}")
        raise


@pytest.mark.parametrize("gauge,algorithm,precision", [
    ("landau", "overrelaxation", "double"), ("coulomb", "overrelaxation", "double"),
    ("mag", "overrelaxation", "double"), ("landau", "facg", "double"), ("coulomb", "fasd", "double"),
    ("landau", "facg", "mixed"), ("landau", "overrelaxation", "single")])
def test_fix_on_the_gpu_reaches_the_gauge_condition(gpu, rotated, gauge, algorithm, precision):
    double = precision == "double"
    tolerance = 1e-12 if double else 1e-9
    before = rotated.copy()
    fixed, g, r = gaugefix.fix(rotated, gauge=gauge, algorithm=algorithm, precision=precision,
                               backend="cuda", tolerance=tolerance)
    assert np.array_equal(rotated, before)
    assert r.converged and r.iterations > 0
    assert r.record.precision == precision
    m = gaugefix.measure(fixed, gauge=gauge)  # on the CPU, from the returned links
    if gauge == "coulomb":
        assert m.theta_max_slice < tolerance
    else:
        assert m.theta < tolerance
    if gauge != "mag":
        f, theta, theta_t = landau_theta(fixed, 4 if gauge == "landau" else 3)
        assert f == pytest.approx(m.functional, abs=1e-13)
        assert (np.max(theta_t) if gauge == "coulomb" else theta) < tolerance
    # float links (single, mixed) carry about 1e-7 of rounding per entry
    close = 1e-12 if double else 1e-5
    assert max_unitarity_deviation(g) < close
    assert np.abs(gaugefix.apply_transform(rotated, g) - fixed).max() < close
    assert plaquette(fixed) == pytest.approx(plaquette(rotated), abs=1e2 * close)


@pytest.mark.parametrize("gauge,algorithm", [("landau", "facg"), ("coulomb", "overrelaxation")])
def test_the_gpu_agrees_with_the_cpu(gpu, rotated, gauge, algorithm):
    fixes = {backend: gaugefix.fix(rotated, gauge=gauge, algorithm=algorithm, backend=backend,
                                   tolerance=1e-12)
             for backend in ("cpu", "cuda")}
    (u_cpu, g_cpu, r_cpu), (u_gpu, g_gpu, r_gpu) = fixes["cpu"], fixes["cuda"]
    assert r_cpu.converged and r_gpu.converged
    assert abs(r_cpu.iterations - r_gpu.iterations) <= max(1, r_cpu.iterations // 20)
    assert r_gpu.functional == pytest.approx(r_cpu.functional, abs=1e-12)
    # the same maximum of the functional: the same field up to the convergence
    assert np.abs(u_gpu - u_cpu).max() < 1e-5
    assert np.abs(g_gpu - g_cpu).max() < 1e-5
