"""The release's promises that a test can check: module docstring and version, metadata, README links, no machine paths."""
import configparser, re, subprocess, sys
from pathlib import Path
import pytest
import uri1630

ROOT = Path(__file__).resolve().parent.parent


def test_docstring_and_version():
    "The module docstring comes first (so `__doc__` is set), and `__version__` is settings.ini's version"
    assert uri1630.__doc__ and uri1630.__doc__.startswith("uri1630:")
    assert re.fullmatch(r"\d+\.\d+\.\d+", uri1630.__version__)
    ini = ROOT / "settings.ini"
    if not ini.is_file(): pytest.skip("settings.ini is not here (tests run next to an installed wheel)")
    c = configparser.ConfigParser(delimiters=["="]); c.read(ini, encoding="utf-8")
    assert uri1630.__version__ == c["DEFAULT"]["version"]
    assert sys.version_info >= tuple(map(int, c["DEFAULT"]["min_python"].split(".")))


def test_py_typed_is_shipped():
    assert (Path(uri1630.__file__).parent / "py.typed").is_file()


def test_readme_has_no_relative_links():
    "README.md is shown on the package index too: every link and image is absolute"
    readme = ROOT / "README.md"
    if not readme.is_file(): pytest.skip("README.md is not here")
    links = re.findall(r"\]\(([^)\s]+)\)", readme.read_text(encoding="utf-8"))
    rel = [l for l in links if not re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", l)]
    assert not rel, rel


def test_no_path_of_this_machine_in_the_repository():
    "No tracked file names the directory this clone lives in (tests and tools find ../shared relative to the clone)"
    try: files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError): pytest.skip("not a git clone")
    if not files: pytest.skip("not a git clone")
    # the clone's own path (as found and as resolved), not its parent: a clone in /tmp/x must not flag every file
    # that names /tmp/; ../shared by its real path, as it may be a link elsewhere
    shared = ROOT.parent / "shared"
    marks = {str(ROOT) + "/", str(ROOT.resolve()) + "/"} | ({str(shared.resolve()) + "/"} if shared.exists() else set())
    bad = []
    for f in files:
        p = ROOT / f
        if p.suffix in (".png", ".jpg", ".gz", ".whl") or not p.is_file(): continue
        try: text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError: continue
        if any(m in text for m in marks): bad.append(f)
    assert not bad, f"files naming {marks}: {bad}"


def test_the_vendored_rfc_texts_are_the_shared_seeds():
    """docs/rfc/ holds RFC 1630 and RFC 1738 as the shared seeds give them, byte for byte, so that a clone copied
    elsewhere (CI's fresh-venv notebook run, an unpacked sdist) quotes and checks against the same text"""
    seeds, vendored = ROOT.parent / "shared" / "seeds", ROOT / "docs" / "rfc"
    if not (ROOT / "nbs").is_dir(): pytest.skip("not a clone (an unpacked sdist ships no docs/ and no notebooks)")
    assert (vendored / "rfc1630.txt").is_file() and (vendored / "rfc1738.txt").is_file()
    if not (seeds / "rfc1630.txt").is_file(): pytest.skip("../shared/seeds is not next to this clone: nothing to compare with")
    assert (vendored / "rfc1630.txt").read_bytes() == (seeds / "rfc1630.txt").read_bytes()
    assert (vendored / "rfc1738.txt").read_bytes() == next(seeds.glob("001_*.txt")).read_bytes()
