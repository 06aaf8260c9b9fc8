"""The notebooks and the site as a reader opens them (issue #23): every notebook names a Python 3 kernel (and
`nbdev_clean` keeps it), every notebook has its place in the site's navigation (docs/nav.py), and the explorers'
example pickers never show a stale example."""
import json, shutil, subprocess, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
NBS = ROOT / "nbs"
if not NBS.is_dir(): pytest.skip("the notebooks are not here: they run from a clone of the repository", allow_module_level=True)
NOTEBOOKS = sorted(p for p in NBS.glob("*.ipynb") if not p.name.startswith(("_", ".")))


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_names_a_python3_kernel(nb):
    "JupyterLab opens it with no 'Select Kernel' dialog: metadata.kernelspec is Python 3 (add the block below if not)"
    ks = json.loads(nb.read_text(encoding="utf-8"))["metadata"].get("kernelspec", {})
    want = '"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}'
    assert (ks.get("name"), ks.get("language")) == ("python3", "python"), f"{nb.name}: no Python 3 kernelspec; add {want}"


def test_nbdev_clean_keeps_the_kernelspec(tmp_path):
    "nbdev_clean (the gate CI applies) leaves a notebook's kernelspec in place"
    pytest.importorskip("nbdev")
    nbdev_clean = Path(sys.executable).with_name("nbdev_clean")
    if not nbdev_clean.exists(): pytest.skip("nbdev_clean is not installed next to this Python")
    shutil.copy2(ROOT / "settings.ini", tmp_path / "settings.ini")
    (tmp_path / "nbs").mkdir()
    nb = json.loads(NOTEBOOKS[0].read_text(encoding="utf-8"))
    nb["metadata"]["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nb["metadata"]["language_info"] = {"name": "python", "version": "3.11.0"}   # what a kernel adds: cleaned away
    (tmp_path / "nbs" / "a.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    subprocess.run([str(nbdev_clean), "--fname", str(tmp_path / "nbs" / "a.ipynb")], cwd=tmp_path, check=True, capture_output=True)
    meta = json.loads((tmp_path / "nbs" / "a.ipynb").read_text(encoding="utf-8"))["metadata"]
    assert meta.get("kernelspec", {}).get("name") == "python3" and "language_info" not in meta, meta


def _nav():
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import nav
        return nav
    finally: sys.path.remove(str(ROOT / "docs"))


def test_every_notebook_has_its_place_in_the_navigation():
    "docs/nav.py and nbs/ agree: each notebook once, the front page first, RFC 1630's headings before the apparatus"
    nav = _nav()
    order = nav.order(NBS)   # raises if a notebook is in no part, or a name is neither a notebook nor pending
    assert order[0] == "index" and sorted(order) == sorted(p.stem for p in NOTEBOOKS)
    parts = nav.parts(NBS)
    rfc1630 = parts[0][1]
    assert rfc1630[0] in ("00a_front_matter", "01_introduction"), "RFC 1630's part opens with its first page"
    nums = [n.split("_")[0] for n in rfc1630]
    assert nums == sorted(nums), "RFC 1630's part is in the memo's order"
    assert not [n for n in rfc1630 if n.endswith("_explorer")], "the explorers are apparatus"


def test_navigation_check_fails_for_a_notebook_in_no_part(tmp_path):
    nav = _nav()
    for p in NOTEBOOKS: (tmp_path / p.name).write_bytes(p.read_bytes())   # a scheme's notebook is known by its content
    nav.parts(tmp_path)
    (tmp_path / "99_new_page.ipynb").write_text("{}")
    with pytest.raises(ValueError, match="99_new_page"): nav.parts(tmp_path)
    (tmp_path / "99_new_page.ipynb").unlink()
    # a scheme's notebook needs no line in docs/nav.py: the rule places it in its own part (#28)
    (tmp_path / "98_toy.ipynb").write_text(json.dumps({"cells": [{"cell_type": "code", "source": ["#| default_exp schemes.toy"]}]}))
    caption, names = nav.parts(tmp_path)[-1]
    assert caption == nav.SCHEMES_PART and names[-1] == "98_toy"
    (tmp_path / "98_toy.ipynb").unlink(); (tmp_path / "01_introduction.ipynb").unlink()
    with pytest.raises(ValueError, match="01_introduction"): nav.parts(tmp_path)


# ------------------------------------------------------------------ the explorers' pickers (ipywidgets, no browser)
from hypothesis import given, settings, strategies as st


def _explorers():
    W = pytest.importorskip("ipywidgets")
    from uri1630.widgets import EncodingExplorer, ParseExplorer
    from uri1630.widgets import encoding, parsing
    return [(EncodingExplorer, encoding.RFC_EXAMPLES), (ParseExplorer, parsing.RFC_EXAMPLES)]


@settings(max_examples=40, deadline=None)
@given(which=st.integers(0, 1), typed=st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF), max_size=30),
       first=st.integers(0, 13), again=st.integers(0, 13))
def test_choosing_an_example_always_applies_it(which, typed, first, again):
    "Pick an example, type anything, pick any example (the same one too): the text is that example, the picker agrees"
    cls, examples = _explorers()[which]
    names = list(examples)
    x = cls()
    x.example.value = examples[names[first % len(names)]]
    x.text.value = typed
    shown = x.example.value
    assert shown == (typed if typed in examples.values() else ""), "the picker shows what the text is, never a stale example"
    pick = examples[names[again % len(names)]]
    x.example.value = pick
    assert x.text.value == pick and x.example.value == pick


@pytest.mark.parametrize("i", [0, 1, 2])
def test_every_label_is_whole(i):
    "Each explorer's labelled controls keep their whole label (description_width 'initial', not the cut-off default)"
    W = pytest.importorskip("ipywidgets")
    from uri1630.widgets import EncodingExplorer, ParseExplorer, ResolutionExplorer
    x = (EncodingExplorer, ParseExplorer, ResolutionExplorer)[i]()
    labelled = [w for w in vars(x).values() if isinstance(w, W.widgets.widget_description.DescriptionWidget) and w.description]
    assert len(labelled) >= 3
    assert {w.description: w.style.description_width for w in labelled} == {w.description: "initial" for w in labelled}


# -- the notebook install covers every import of every notebook (#23: Run All in JupyterLab with only that install)
import ast, configparser, re as _re
from importlib import metadata


def _dist_name(req: str) -> str:
    return _re.split(r"[\s\[<>=!~;]", req.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _closure(reqs: list[str]) -> set[str]:
    "The distributions that installing `reqs` brings, following each one's own requirements (markers with `extra` left out)"
    seen, todo = set(), [_dist_name(r) for r in reqs if r.strip()]
    while todo:
        name = todo.pop()
        if name in seen: continue
        seen.add(name)
        try: deps = metadata.requires(name) or []
        except metadata.PackageNotFoundError: continue
        todo += [_dist_name(d) for d in deps if "extra ==" not in d]
    return seen


def _imports(path: Path) -> set[str]:
    "The top-level modules a notebook's code cells (cells that are not Python, e.g. a magic, are skipped) or a .py file import"
    if path.suffix == ".py": sources = [path.read_text(encoding="utf-8")]
    else: sources = ["".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
    mods = set()
    for src in sources:
        try: tree = ast.parse("\n".join(l for l in src.splitlines() if not l.lstrip().startswith(("%", "!"))))
        except SyntaxError: continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import): mods |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module: mods.add(node.module.split(".")[0])
    return mods


def _not_provided(extras: list[str], files: list[Path]) -> dict[str, list[str]]:
    """file name -> the modules it imports that are neither the standard library's, uri1630's, the clone's own helpers,
    nor brought by installing the `extras` of settings.ini (and what they require)"""
    ini = configparser.ConfigParser(); ini.read(ROOT / "settings.ini")
    have = _closure([r for e in extras for r in ini["DEFAULT"][f"{e}_requirements"].split()])
    dists = metadata.packages_distributions()
    local = {p.stem for p in ROOT.glob("*/*.py")} | {p.stem for p in ROOT.glob("tests/*/*.py")} | {p.stem for p in ROOT.glob("*/*/*.py")}
    local |= {p.parent.name for p in ROOT.glob("tests/*/__init__.py")}   # the tests' own packages (tests/attacks)
    missing: dict[str, list[str]] = {}
    for f in files:
        for mod in sorted(_imports(f)):
            if mod in sys.stdlib_module_names or mod in local or mod in ("uri1630", "__future__"): continue
            owners = {d.lower().replace("_", "-") for d in dists.get(mod, [])}
            if not owners or not owners & have: missing.setdefault(f.name, []).append(f"{mod} ({', '.join(sorted(owners)) or 'not installed'})")
    return missing


def test_the_notebooks_extra_provides_every_import_of_every_notebook():
    """Every module a notebook imports is the standard library's, uri1630's, or comes with the `notebooks` extra
    (settings.ini) and what it requires: a property cell that imports hypothesis fails Run All in the README's
    install unless the extra names it (CI's fresh-venv run found six such notebooks)."""
    missing = _not_provided(["notebooks"], sorted((ROOT / "nbs").glob("*.ipynb")))
    assert not missing, f"imports the notebooks extra does not provide: {missing}"


def test_the_dev_install_provides_every_import_of_every_test_and_notebook():
    """One install (#28): `bash .ci/setup dev` installs the `dev` extra, which setup.py makes dev's own tools and every
    other extra; every module a test file, a notebook, or a script of bench/, fuzz/, docs/ or .ci/ imports comes with it"""
    ini = configparser.ConfigParser(); ini.read(ROOT / "settings.ini")
    extras = [k[:-len("_requirements")] for k in ini["DEFAULT"] if k.endswith("_requirements") and k != "requirements"]
    files = sorted((ROOT / "nbs").glob("*.ipynb")) + sorted((ROOT / "tests").rglob("*.py")) + \
        sorted(p for d in ("bench", "fuzz", "docs", ".ci") for p in (ROOT / d).rglob("*.py"))
    missing = _not_provided(extras, files)
    assert not missing, f"imports the dev install (`bash .ci/setup dev`) does not provide: {missing}"
    setup = (ROOT / "setup.py").read_text()
    assert "extras['dev'] = sorted(set(extras.get('dev', [])) | set(extras['all']))" in setup, "setup.py's dev extra is no longer every extra"
