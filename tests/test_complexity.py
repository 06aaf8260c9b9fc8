"""Issue #15: no function of the package above cyclomatic complexity 15 (radon, in the dev extra)."""
from pathlib import Path
import pytest

radon = pytest.importorskip("radon.complexity", reason="radon is in the dev extra")
PKG = Path(__file__).resolve().parents[1] / "uri1630"
LIMIT = 15


def test_no_function_above_the_limit():
    files = [p for p in PKG.rglob("*.py") if p.name != "_modidx.py"]
    if not files: pytest.skip(f"the package source is not here ({PKG})")
    over = [(str(p.relative_to(PKG.parent)), b.fullname, b.complexity)
            for p in files for b in radon.cc_visit(p.read_text(encoding="utf-8")) if b.complexity > LIMIT]
    assert not over, over


def test_the_check_sees_a_complex_function():
    "The measure is real: a function with 16 decisions is reported"
    src = "def f(x):\n" + "".join(f"    if x == {i}: return {i}\n" for i in range(16)) + "    return -1\n"
    assert max(b.complexity for b in radon.cc_visit(src)) > LIMIT
