"""The notebook-rhythm gate (.ci/export_cells.py, CI step 35): each rule is counted, and --strict fails on any."""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / ".ci" / "export_cells.py"
if not TOOL.is_file(): pytest.skip("not a clone (.ci/ is not shipped)", allow_module_level=True)
spec = importlib.util.spec_from_file_location("export_cells", TOOL)
EC = importlib.util.module_from_spec(spec); spec.loader.exec_module(EC)


def _nb(tmp_path, *cells):
    "A notebook of code cells with these sources"
    p = tmp_path / "t.ipynb"
    p.write_text(json.dumps({"cells": [{"cell_type": "code", "source": s, "metadata": {}, "outputs": []} for s in cells],
                             "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    return p


@pytest.mark.parametrize("cells, rule, n", [
    (["#| export\ndef f():\n    pass", "f()"], None, 0),                                          # the rhythm
    (["#| export\nx = 1  # " + "y" * 100, "x"], "wide", 1),                                 # over 100 characters
    (["#| export\nx = 1; y = 2", "x"], "joined", 1),                                      # two statements a line
    (["#| export\nif x: y = 2", "x"], "joined", 1),
    (["#| export\n" + "x = 1\n" * 41, "x"], "long", 1),                                    # over 40 lines
    (["#| export\n" + "x = 1\n" * 40, "x"], None, 0),                                      # 40 is the limit
    (["#| export\ndef f():\n    pass", "#| export\ndef g():\n    pass", "g()"], "untested", 1),     # f has no test
    (["#| export\nimport os", "#| export\ndef g():\n    pass", "g()"], None, 0),              # imports are exempt
    (["#| export\ndef f():\n    pass"], "untested", 1),                                         # the last one too
    (["#| export\ndef f():\n    pass", "nbdev_export()", "#| export\ndef g():\n    pass", "g()"], "untested", 1),
])
def test_each_rule_is_counted(tmp_path, cells, rule, n):
    got = EC.measure(_nb(tmp_path, *cells))
    for k in ("wide", "joined", "long", "untested"):
        assert got[k] == (n if k == rule else 0), (k, got)


def test_strict_fails_on_a_broken_rule_and_passes_the_repository(tmp_path):
    bad = _nb(tmp_path, "#| export\nx = 1; y = 2")
    assert subprocess.run([sys.executable, str(TOOL), "--strict", str(bad)], capture_output=True).returncode == 1
    assert subprocess.run([sys.executable, str(TOOL), "--strict"], capture_output=True).returncode == 0   # nbs/ as it is
