# test_example.py: examples/fix_field.py runs and finds what it prints.
import os
import subprocess
import sys

from conftest import SOURCE


def test_python_example(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(SOURCE, "examples", "fix_field.py"), str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "FixResult(converged=True" in r.stdout
    rebuilt = float(r.stdout.split("time links rebuilt from g(x) to ")[1].split()[0])
    assert rebuilt < 1e-12
    assert (tmp_path / "fixed.lime").exists() and (tmp_path / "g.lime").exists()
