"""Every notebook runs to the end wherever a reader opens it (issue #27): no notebook reaches into the repository's
tests/ or edits sys.path, `show_doc` is imported where it is used, and the site's JupyterLite copy of a notebook marks
what a browser cannot run (`%%browser_skip why`: one line printed there, the cell run anywhere else). The run itself,
every page's notebook with Run All in a real browser, is docs/browser_check.py's (CI: .ci/steps/60-docs.sh)."""
import contextlib, io, json, re, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
NBS = ROOT / "nbs"
if not NBS.is_dir(): pytest.skip("the notebooks are not here: they run from a clone of the repository", allow_module_level=True)
NOTEBOOKS = sorted(p for p in NBS.glob("*.ipynb") if not p.name.startswith(("_", ".")))
# every notebook a reader opens or copies (the toy-scheme template too)
ALL_NOTEBOOKS = sorted(p for p in NBS.glob("*.ipynb") if not p.name.startswith("."))
# what reaches into the repository's code: a sys.path edit, ../tests, a module loaded from a file of tests/ (reading a
# data file of the repository is allowed where the notebook says so when it is absent; docs/live.py skips such a cell
# in a browser with a one-line note)
REACHES_OUT = re.compile(r"sys\.path\s*(\.\s*(insert|append|extend)|\+?=)|\.\./tests\b|"
                         r"spec_from_file_location\([^)]*tests|run_path\([^)]*tests")


@pytest.fixture(scope="module")
def live():
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import live, build
        yield live, build
    finally: sys.path.remove(str(ROOT / "docs"))


def code_cells(nb):
    return ["".join(c["source"]) for c in json.loads(nb.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("nb", ALL_NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_self_contained(nb):
    "No `sys.path` edit, no import from ../tests; `show_doc(` only where `show_doc` is imported"
    src = "\n".join(code_cells(nb))
    assert not REACHES_OUT.search(src), f"{nb.name} reaches outside the package: {REACHES_OUT.search(src)[0]!r}"
    if re.search(r"^\s*show_doc\(", src, re.M):
        assert re.search(r"from nbdev\.showdoc import (show_doc|\*)", src), f"{nb.name} calls show_doc without importing it"


def test_lite_marks_what_a_browser_cannot_run(live):
    live, _ = live
    nb = {"metadata": {}, "nbformat": 4, "nbformat_minor": 5, "cells": [
        {"cell_type": "code", "id": i, "metadata": {}, "outputs": [], "execution_count": None, "source": s}
        for i, s in enumerate([
            "from nbdev.showdoc import show_doc\nimport uri1630.testing as S  # servers on 127.0.0.1",
            "def get(u):\n    return retrieve(u)",                        # defines only: runs (the body runs when called)
            "with S.Misbehaving(lambda c, rec: None) as m:\n    port = m.port",   # a socket server: skipped
            "print(port + 1)",                                            # reads what only the skipped cell defines
            "port = 1\nprint(port)",                                      # defines it again: runs
            "x = resolve('http://a/b/c', '../g')  # not ../tests",         # '../g' is no file of the repository
            "#| eval: false\nprint('slow')",
            "import nbdev\nnbdev.nbdev_export()",
        ])]}
    out = live.lite_notebook(nb)
    cells = [c["source"] for c in out["cells"]]
    assert out["cells"][0]["id"] == "u1630-lite-setup" and "%pip install" in cells[0]
    first = [c.splitlines()[0] for c in cells[1:]]
    assert first == ["from nbdev.showdoc import show_doc", "def get(u):",
                     "%%browser_skip " + live.LITE_SKIP["network"], "%%browser_skip " + live.LITE_SKIP["above"],
                     "port = 1", "x = resolve('http://a/b/c', '../g')  # not ../tests",
                     "%%browser_skip " + live.LITE_SKIP["skip"]], first   # nbdev_export's cell is left out


def test_lite_setup_gives_show_doc_and_the_skip_magic():
    "The setup cell (less its %pip line) in an IPython shell: show_doc shows a signature; %%browser_skip prints its note "
    "in a browser (sys.platform 'emscripten') and runs the cell anywhere else"
    IPython = pytest.importorskip("IPython")
    sys.path.insert(0, str(ROOT / "docs"))
    try: import live
    finally: sys.path.remove(str(ROOT / "docs"))
    from IPython.core.interactiveshell import InteractiveShell
    saved = {k: sys.modules.get(k) for k in ("nbdev", "nbdev.showdoc")}
    sh = InteractiveShell.instance()
    try:
        setup = "\n".join(l for l in live.LITE_SETUP.splitlines() if not l.startswith("%pip"))
        assert sh.run_cell(setup).success
        assert sh.run_cell("from nbdev.showdoc import show_doc\nfrom uri1630 import resolve\nmd = show_doc(resolve)").success
        assert sh.user_ns["md"].data.startswith("`resolve(")
        for platform, want in (("emscripten", "skipped in the browser: needs sockets\n"), ("linux", "ran\n")):
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                old, sys.platform = sys.platform, platform
                try: sh.run_cell("%%browser_skip needs sockets\nprint('ran')")
                finally: sys.platform = old
            assert buf.getvalue() == want, (platform, buf.getvalue())
    finally:
        InteractiveShell.clear_instance()
        for k, v in saved.items():
            if v is None: sys.modules.pop(k, None)
            else: sys.modules[k] = v


def test_rfc_page_opens_with_its_text(live):
    "An RFC page's import cells before its first quotation move to just before the first code cell after it"
    _, build = live
    md = lambda s: {"cell_type": "markdown", "source": s}
    code = lambda s: {"cell_type": "code", "source": s}
    cells = [md("# Title"), code("import re\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import os"),
             md("> the RFC's words\n>\n> — RFC 1630"), md("what it means"), code("re.compile('x')")]
    got = build._rfc_text_first(cells)
    assert [c["source"][:8] for c in got] == ["# Title", "> the RF", "what it ", "import r", "re.compi"]
    kept = [md("# T"), code("x = 1"), code("import re"), md("> q")]   # other code before the quote: left as is
    assert build._rfc_text_first(kept) == kept


@pytest.mark.parametrize("nb", ALL_NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_opened_anywhere_shows_its_images(live, nb):
    "Every image a notebook's markdown names by a repository path travels in the JupyterLite copy as an attachment"
    live, _ = live
    lite = live.lite_notebook(json.loads(nb.read_text(encoding="utf-8")))
    for c in lite["cells"]:
        if c["cell_type"] != "markdown": continue
        src = "".join(c["source"])
        assert not live._LOCAL_IMAGE.search(src), f"{nb.name}: an image by a path JupyterLite cannot read: {live._LOCAL_IMAGE.search(src)[0]}"
        for name in re.findall(r"\(attachment:([^)]+)\)", src):
            assert name in c.get("attachments", {}), f"{nb.name}: {name} is named but not attached"
