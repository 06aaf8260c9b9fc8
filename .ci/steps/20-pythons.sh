#!/usr/bin/env bash
# ci: heavy
# The release as a pip user gets it, on every supported Python. Owner: release (#12).
#  1. build the wheel and the sdist once; `twine check --strict` both;
#  2. for each of Python 3.11, 3.12, 3.13 (the newest patch release of each under $PYENV_ROOT, default ~/.pyenv):
#     a fresh venv, `pip install` the wheel + pytest + hypothesis, `import uri1630`, then the core tests (the pure-library
#     ones: no notebooks, servers or extras) from a copy of tests/ in a temp dir, so that `uri1630` is the installed wheel
#     (asserted: it must come from the venv's site-packages, not from this source tree);
#  3. once (Python 3.11): unpack the sdist and install it into a fresh venv. What it must carry is derived, not listed:
#     every file git tracks under tests/ is in it; every test module of its tests/ collects without an error (the
#     imports, fixtures and data each module reads at import); and the tests that use the installed package from the
#     outside run from it (the CLI through real subprocesses, retrieval from loopback servers, packaging). The whole
#     suite runs once, in the main test job (.ci/test), from the source tree: running it a second time here took
#     ~8 of this step's 11 minutes.
# Lean: hypothesis profile "quick" (25 derandomized examples; the full profile runs in the main test job).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
root=${PYENV_ROOT:-$HOME/.pyenv}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export HYPOTHESIS_PROFILE=quick PIP_DISABLE_PIP_VERSION_CHECK=1
CORE="test_properties.py test_partial.py test_regressions.py test_url_grammars.py test_schemes_ip.py test_pickle.py test_peers.py test_layout.py"
t0=$SECONDS

echo "-- build the wheel and the sdist, twine check"
$PY -m build --outdir "$work/dist" . >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
$PY -m twine check --strict "$work"/dist/*
whl=$(ls "$work"/dist/*.whl); sdist=$(ls "$work"/dist/*.tar.gz)
python3 - "$whl" "$sdist" <<'PY'
import sys, tarfile, zipfile
w = zipfile.ZipFile(sys.argv[1]).namelist(); s = tarfile.open(sys.argv[2]).getnames()
need_w = ['uri1630/py.typed', 'uri1630/__init__.py']
assert all(n in w for n in need_w), [n for n in need_w if n not in w]
assert any(n.endswith('.dist-info/licenses/LICENSE') for n in w), "no LICENSE in the wheel"
top = s[0].split('/')[0]
for n in ('LICENSE', 'tests/conftest.py', 'tests/test_properties.py', 'tests/data/corpus_sample.txt', 'uri1630/py.typed'):
    assert f"{top}/{n}" in s, f"{n} is not in the sdist"
print(f"wheel and sdist carry LICENSE, py.typed and (sdist) the tests")
PY

fresh_venv() {  # fresh_venv PYTHON DIR PACKAGES...: a new venv at DIR with PACKAGES installed
  local py=$1 dir=$2; shift 2
  "$py" -m venv --without-pip "$dir"            # no ensurepip per venv: this job's pip installs into it (pip --python)
  $PY -m pip --python "$dir/bin/python" install -q "$@" pytest hypothesis 2>&1 | grep -v "^WARNING: \(Running pip as\|Location\)" >&2 || true
  "$dir/bin/python" -c "import uri1630" || { echo "FAIL: uri1630 does not import with $py" >&2; exit 1; }
}

for minor in 3.11 3.12 3.13; do
  py=$(ls -d "$root"/versions/"$minor".*/bin/python 2>/dev/null | sort -V | tail -1 || true)
  [ -n "$py" ] || { echo "FAIL: no Python $minor under $root/versions" >&2; exit 1; }
  s=$SECONDS; v="$work/venv-$minor"; t="$work/run-$minor"
  fresh_venv "$py" "$v" "$whl"
  mkdir -p "$t"; cp -r tests "$t/tests"; rm -rf "$t/tests/__pycache__"
  (cd "$t" && "$v/bin/python" -c "
import sys, uri1630
assert '/site-packages/' in uri1630.__file__ and uri1630.__file__.startswith(sys.prefix), uri1630.__file__
assert uri1630.__doc__ and uri1630.__version__, 'no docstring or version'
print('uri1630', uri1630.__version__, 'from', uri1630.__file__, 'on Python', sys.version.split()[0])")
  (cd "$t/tests" && "$v/bin/pytest" -q -p no:cacheprovider $CORE | tail -1)
  echo "   Python $minor: $((SECONDS - s)) s"
done

echo "-- the unpacked sdist: its files, its tests collected, the outside-in tests run"
s=$SECONDS; mkdir "$work/sdist"; tar xzf "$sdist" -C "$work/sdist"; src=$(ls -d "$work"/sdist/*/)
if git rev-parse --git-dir >/dev/null 2>&1; then   # every file git tracks under tests/ is in the sdist
  missing=$(git ls-files tests | while read -r f; do [ -e "$src/$f" ] || echo "$f"; done)
  [ -z "$missing" ] || { echo "FAIL: tracked test files not in the sdist:" >&2; echo "$missing" >&2; exit 1; }
  echo "   $(git ls-files tests | wc -l) tracked files under tests/: all in the sdist"
fi
py=$(ls -d "$root"/versions/3.11.*/bin/python | sort -V | tail -1)
e2eserve=$(sed -n "s/^e2eserve_requirements *= *//p" settings.ini)   # the retrieval tests serve FTP from loopback
fresh_venv "$py" "$work/venv-sdist" "$sdist" $e2eserve pytest-xdist
(cd "$src" && "$work/venv-sdist/bin/pytest" -q --collect-only -p no:cacheprovider tests >"$work/collect.log" 2>&1) || {
  tail -30 "$work/collect.log" >&2; echo "FAIL: the sdist's tests do not collect" >&2; exit 1; }
echo "   collected: $(tail -1 "$work/collect.log")"
(cd "$src" && "$work/venv-sdist/bin/pytest" -q -n 2 -p no:cacheprovider -rs tests/test_cli.py tests/test_retrieval.py tests/test_packaging.py | tail -8)
echo "   sdist: $((SECONDS - s)) s; step total $((SECONDS - t0)) s"
