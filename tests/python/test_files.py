# test_files.py: gaugefix.read and gaugefix.write: a field through every format and back
# (64-bit formats bit for bit, 32-bit ones to single precision), what FileInfo reports, the
# provenance a file keeps, g(x) files in every format, the format from the extension, and
# errors naming the file and the check (a damaged file, a missing one, a wrong shape).
import os

import numpy as np
import pytest

import gaugefix

FORMATS = [  # format, file name, bits, largest difference after the round trip
    ("nersc", "u.nersc", 64, 0.0),
    ("nersc-2row", "u.nersc", 64, 1e-14),
    ("ildg", "u.lime", 64, 0.0),
    ("scidac", "u.scidac", 32, 1e-6),
    ("milc", "u.milc", 0, 1e-6),
    ("openqcd", "u.oqcd", 64, 0.0),
    ("hdf5", "u.h5", 64, 0.0),
]


@pytest.mark.parametrize("fmt,name,bits,tolerance", FORMATS)
def test_every_format_round_trip(tmp_path, field, fmt, name, bits, tolerance):
    path = tmp_path / name
    gaugefix.write(str(path), field, format=fmt, bits=bits)
    links, info = gaugefix.read(str(path))
    assert links.shape == field.shape and links.dtype == np.complex128
    difference = np.abs(links - field).max()
    assert difference <= tolerance
    assert info.format == fmt.replace("-2row", "")
    assert info.lattice == [4, 4, 4, 8] and info.nc == 3
    assert info.bits == (32 if fmt in ("scidac", "milc") else 64)
    assert info.reunitarised == (info.bits == 32)
    assert info.plaquette == pytest.approx(gaugefix.plaquette(links), abs=1e-15)
    assert "FileInfo(format=" in repr(info)


def test_checks_and_provenance_are_reported(tmp_path, field):
    fixed, g, r = gaugefix.fix(field, gauge="coulomb")
    for name in ["f.nersc", "f.lime", "f.h5"]:
        path = str(tmp_path / name)
        gaugefix.write(path, fixed, ensemble_id="test-ensemble", ensemble_label="wilson beta=5.8",
                       sequence_number=42, gauge_fixing=r.record, metadata={"note": "pytest"})
        links, info = gaugefix.read(path)
        assert np.array_equal(links, fixed)
        assert info.ensemble_id == "test-ensemble"
        assert info.ensemble_label == "wilson beta=5.8"
        assert info.sequence_number == 42
        assert info.gauge_fixing.gauge == "coulomb"
        assert info.gauge_fixing.theta == r.theta
        assert info.gauge_fixing.iterations == r.iterations
        assert info.gauge_fixing.converged
        assert info.computed  # the values checked against the file's (checksums, plaquette)
    links, info = gaugefix.read(str(tmp_path / "f.nersc"))
    assert info.stored["CHECKSUM"] == info.computed["CHECKSUM"]


@pytest.mark.parametrize("fmt,name", [("lime", "g.lime"), ("hdf5", "g.h5"), ("binary", "g.bin")])
def test_transform_files_round_trip(tmp_path, field, fmt, name):
    u, g = gaugefix.random_transform(field, 5)
    path = str(tmp_path / name)
    gaugefix.write(path, g, metadata={"origin": "pytest"})
    back, info = gaugefix.read(path)
    assert back.shape == (8, 4, 4, 4, 3, 3)
    assert np.array_equal(back, g)
    assert info.format == fmt
    assert info.metadata.get("origin") == "pytest" or fmt == "lime"


def test_format_from_the_extension(tmp_path, field):
    for name, fmt in [("a.h5", "hdf5"), ("a.lime", "ildg"), ("a.dat", "nersc"), ("a.milc", "milc")]:
        gaugefix.write(str(tmp_path / name), field)
        assert gaugefix.read(str(tmp_path / name))[1].format == fmt
    with pytest.raises(gaugefix.Error, match="write: .*a.h5.*nersc"):
        gaugefix.write(str(tmp_path / "a.h5"), field, format="nersc")


def test_su2_fields(tmp_path):
    u = gaugefix.generate((4, 4, 4, 4), group="su2", start="hot", seed=2)
    for name in ["s.nersc", "s.h5", "s.scidac"]:
        gaugefix.write(str(tmp_path / name), u)
        links, info = gaugefix.read(str(tmp_path / name))
        assert info.nc == 2 and np.array_equal(links, u)
    with pytest.raises(gaugefix.Error, match="write: .*s.lime.*SU\\(2\\)"):
        gaugefix.write(str(tmp_path / "s.lime"), u)
    assert not os.path.exists(tmp_path / "s.lime")


def test_errors_name_the_file_and_the_check(tmp_path, field, capfd):
    missing = str(tmp_path / "missing.nersc")
    with pytest.raises(gaugefix.Error, match=f"read: .*{missing}"):
        gaugefix.read(missing)
    path = str(tmp_path / "cut.nersc")
    gaugefix.write(path, field)
    data = open(path, "rb").read()
    open(path, "wb").write(data[:-1000])
    with pytest.raises(gaugefix.Error, match=f"read: .*{path}"):
        gaugefix.read(path)
    path = str(tmp_path / "flipped.nersc")
    open(path, "wb").write(data[:-1] + bytes([data[-1] ^ 1]))  # the last bit of the last real
    with pytest.raises(gaugefix.Error, match="CHECKSUM"):
        gaugefix.read(path)
    capfd.readouterr()
    links, info = gaugefix.read(path, checksum_warning_only=True)
    assert "warning" in capfd.readouterr().err
    assert np.abs(links - field).max() < 1e-15
    with pytest.raises(gaugefix.Error, match="write: bits must be 32 or 64"):
        gaugefix.write(str(tmp_path / "b.nersc"), field, bits=16)
    with pytest.raises(gaugefix.Error, match="single precision"):
        gaugefix.write(str(tmp_path / "b.milc"), field, bits=64)
    with pytest.raises(gaugefix.Error, match="array: shape \\(4, 4\\)"):
        gaugefix.write(str(tmp_path / "b.nersc"), np.eye(4))
    (tmp_path / "dir.nersc").mkdir()
    with pytest.raises(gaugefix.Error, match="dir.nersc"):
        gaugefix.write(str(tmp_path / "dir.nersc"), field)
    assert (tmp_path / "dir.nersc").is_dir()
