# test_cli.py: the Python module and the gaugefix program of the same build agree: the
# configuration `gaugefix generate` writes is gaugefix.generate's field; `gaugefix fix` with
# the same options writes the field gaugefix.fix returns, bit for bit (every gauge, the three
# precisions, annealing and stochastic relaxation, Fourier acceleration, a random start, a
# generated input), and
# records its theta and iterations; files the module writes are read by `gaugefix info`
# (its --check gives measure's values exactly), `gaugefix transform` and `gaugefix convert`
# (into NERSC: the input's sequence number, or none read back where the input has none).
import re

import numpy as np
import pytest

import gaugefix


def test_generate_matches_gaugefix_generate(tmp_path, cli):
    prefix = tmp_path / "ens"
    cli("generate", "--lattice", "4,2,6,8", "--beta", "5.7", "--or-sweeps", "1",
        "--thermalisation", "3", "--configs", "1", "--seed", "9", "--quiet", "-o", prefix)
    links, info = gaugefix.read(f"{prefix}.0000")
    assert np.array_equal(links, gaugefix.generate((4, 2, 6, 8), beta=5.7, sweeps=3, or_sweeps=1, seed=9))
    assert info.sequence_number == 3
    assert info.ensemble_label.startswith("wilson beta=5.7")


CASES = {  # id: options of both, as (command-line option, keyword, value)
    "landau": [("--gauge", "gauge", "landau")],
    "coulomb-anneal-sr": [("--gauge", "gauge", "coulomb"), ("--anneal-steps", "anneal_steps", 5),
                          ("--micro-steps", "micro_steps", 2), ("--sr-steps", "sr_steps", 10),
                          ("--sr-probability", "sr_probability", 0.3), ("--seed", "seed", 5),
                          ("--check-interval", "check_interval", 20)],
    "mag-mixed": [("--gauge", "gauge", "mag"), ("--precision", "precision", "mixed"),
                  ("--tolerance", "tolerance", 1e-10), ("--reproject-interval", "reproject_interval", 30)],
    "landau-single-8": [("--precision", "precision", "single"), ("--storage", "storage", 8),
                        ("--tolerance", "tolerance", 1e-7), ("--algorithm", "algorithm", "stochastic"),
                        ("--sr-probability", "sr_probability", 0.2), ("--omega", "omega", 1.9)],
    "landau-relaxation": [("--algorithm", "algorithm", "relaxation"), ("--tolerance", "tolerance", 1e-8)],
    "coulomb-facg": [("--gauge", "gauge", "coulomb"), ("--algorithm", "algorithm", "facg")],
    "landau-fasd-fixed-step": [("--algorithm", "algorithm", "fasd"), ("--alpha", "alpha", 0.08),
                               ("--sr-steps", "sr_steps", 5)],
}


@pytest.mark.parametrize("case", CASES)
def test_fix_matches_gaugefix_fix_bitwise(tmp_path, cli, case):
    cfg = tmp_path / "cfg.nersc"
    gaugefix.write(str(cfg), gaugefix.generate((4, 4, 4, 8), beta=5.8, sweeps=3, seed=1))
    options = CASES[case]
    args = [str(a) for option, _, value in options for a in (option, value)]
    cli("fix", "--input", cfg, "--random-transform", "3", "--output", tmp_path / "fixed.nersc",
        "--transform-output", tmp_path / "g.lime", "--quiet", *args)

    links, _ = gaugefix.read(str(cfg))
    start, g_random = gaugefix.random_transform(links, 3)
    fixed, g, r = gaugefix.fix(start, **{keyword: value for _, keyword, value in options})
    assert r.converged
    cli_fixed, info = gaugefix.read(str(tmp_path / "fixed.nersc"))
    assert np.array_equal(cli_fixed, fixed)
    assert info.gauge_fixing.theta == r.theta
    assert info.gauge_fixing.iterations == r.iterations
    # the command line's g(x) includes the random start: g(x) g_random(x)
    cli_g, _ = gaugefix.read(str(tmp_path / "g.lime"))
    assert np.abs(cli_g - g @ g_random).max() < 1e-14


def test_fix_of_a_generated_field_matches(tmp_path, cli):
    cli("fix", "--lattice", "4,4,4,4", "--generate", "smooth", "--seed", "6", "--group", "su2",
        "--output", tmp_path / "fixed.h5", "--quiet")
    fixed, _, r = gaugefix.fix(gaugefix.generate((4, 4, 4, 4), start="smooth", seed=6, group="su2"), seed=6)
    assert np.array_equal(gaugefix.read(str(tmp_path / "fixed.h5"))[0], fixed)


def test_files_written_here_are_read_by_the_command_line(tmp_path, cli, field):
    fixed, g, r = gaugefix.fix(field, gauge="coulomb")
    gaugefix.write(str(tmp_path / "fixed.lime"), fixed, gauge_fixing=r.record)
    out = cli("info", "--check", "coulomb", tmp_path / "fixed.lime")
    assert "format: ildg" in out
    check = re.search(r"check coulomb: F (\S+), theta (\S+), max theta_t (\S+)", out)
    m = gaugefix.measure(fixed, gauge="coulomb")
    assert [float(v) for v in check.groups()] == [m.functional, m.theta, m.theta_max_slice]
    theta_t = re.search(r"theta_t: (.*)", out).group(1).split()
    assert [float(v) for v in theta_t] == m.theta_per_slice

    # g(x) written here, applied by `gaugefix transform` to the field it was found for
    gaugefix.write(str(tmp_path / "field.nersc"), field)
    gaugefix.write(str(tmp_path / "g.lime"), g)
    cli("transform", "--transform", tmp_path / "g.lime", tmp_path / "field.nersc", tmp_path / "out.lime")
    transformed, _ = gaugefix.read(str(tmp_path / "out.lime"))
    assert np.array_equal(transformed, gaugefix.apply_transform(field, g))
    assert np.abs(transformed - fixed).max() < 1e-12


@pytest.mark.parametrize("source,sequence_number", [("milc", None), ("openqcd", None), ("hdf5", 120)])
def test_convert_to_nersc_keeps_the_sequence_number_and_invents_none(tmp_path, cli, field, source,
                                                                      sequence_number):
    src, out = tmp_path / f"cfg.{source}", tmp_path / "cfg.nersc"
    extra = {} if sequence_number is None else {"sequence_number": sequence_number}
    gaugefix.write(str(src), field, format=source, **extra)
    cli("convert", src, out, "--format", "nersc")
    header = out.read_bytes().split(b"END_HEADER")[0].decode()
    _, info = gaugefix.read(str(out))
    assert info.sequence_number == sequence_number
    assert ("sequence number" in cli("info", out)) == (sequence_number is not None)
    if sequence_number is None:  # the key other readers need, marked as no record
        assert "SEQUENCE_NUMBER = 1\n" in header and "SEQUENCE_NUMBER_KNOWN = FALSE\n" in header
    else:
        assert f"SEQUENCE_NUMBER = {sequence_number}\n" in header and "KNOWN" not in header
