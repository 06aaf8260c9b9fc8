"""Run every notebook in nbs/ as one pytest item, the way `nbdev_test` does (cells flagged `slow`/`notest` skipped)."""
from pathlib import Path
import pytest
import nbdev.test as nbt

NBS = Path(__file__).resolve().parent.parent / "nbs"
NOTEBOOKS = sorted(p for p in NBS.rglob("*.ipynb") if not any(part.startswith(('_', '.')) for part in p.relative_to(NBS).parts))


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: str(p.relative_to(NBS)))
def test_notebook(nb):
    """The notebook runs top to bottom: every test cell under every quoted RFC passage passes."""
    ok, _ = nbt.test_nb(nb, skip_flags=["notest", "slow"], showerr=True)
    assert ok, f"{nb.name} failed (see the traceback above)"
