"""Run every notebook in nbs/ as one pytest item, the way `nbdev_test` does (cells flagged `slow`/`notest`
skipped), each in a fresh Python process so no notebook sees another's state (e.g. registered schemes)."""
import os, subprocess, sys
from pathlib import Path
import pytest

NBS = Path(__file__).resolve().parent.parent / "nbs"
if not NBS.is_dir():   # an unpacked sdist or a copy of tests/ next to an installed wheel: the notebooks are not shipped
    pytest.skip(f"the notebooks are not here ({NBS} is absent): they run from a clone of the repository", allow_module_level=True)
pytest.importorskip("nbdev", reason="the notebooks run with nbdev (the dev extra)")
if os.environ.get("URI1630_NOTEBOOKS_RAN_ALL"):   # set by .ci/test once .ci/steps/65-notebooks.sh has passed
    pytest.skip(f"every notebook already ran to the end, every cell, in a fresh venv ({os.environ['URI1630_NOTEBOOKS_RAN_ALL']})",
                allow_module_level=True)
NOTEBOOKS = sorted(p for p in NBS.rglob("*.ipynb") if not any(part.startswith(('_', '.')) for part in p.relative_to(NBS).parts))
RUN = ("import sys, pathlib, nbdev.test as nbt; ok, _ = nbt.test_nb(pathlib.Path(sys.argv[1]), skip_flags=['notest', 'slow'], showerr=True); "
       "sys.exit(0 if ok else 1)")


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: str(p.relative_to(NBS)))
def test_notebook(nb):
    """The notebook runs top to bottom: every test cell under every quoted RFC passage passes."""
    r = subprocess.run([sys.executable, "-c", RUN, str(nb)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"{nb.name} failed:\n{r.stderr[-6000:]}"
