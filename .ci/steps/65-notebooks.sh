#!/usr/bin/env bash
# ci: heavy
# Every notebook runs alone and all together, as nbdev documents it (#28): in a fresh venv with only the README's
# notebook install (`pip install -e ".[notebooks]"`, nbs/index.ipynb, "The notebooks in JupyterLab") in a copy of
# the tracked files, `nbdev_test` over all of nbs/ with its default parallelism (each worker runs several notebooks
# in one process, so a notebook sees what the ones before it left). `--flags "notest slow"` (settings.ini's
# tst_flags) runs the flagged cells too: every cell but the export cell, what JupyterLab's Run All runs, so the
# notebooks run once. Every notebook names a Python 3 kernelspec (JupyterLab asks for none). When nbdev_test ends,
# no process a notebook started (HTTP/FTP servers, pygopherd, gophernicus, their watchdogs) may still run: every
# process started here carries a mark in its environment, and .ci/leftover-processes.py lists those left.
# The Debian packages of .ci/apt-packages are the machine's (.ci/test installs them: bash .ci/system-packages).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
t0=$SECONDS
mkdir "$work/run"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$work/run"
$PY - nbs <<'PY'
import json, sys
from pathlib import Path
bad = [p.name for p in sorted(Path(sys.argv[1]).glob("*.ipynb")) if not p.name.startswith(("_", "."))
       and json.loads(p.read_text())["metadata"].get("kernelspec", {}).get("name") != "python3"]
if bad: sys.exit(f"FAIL: no Python 3 kernelspec in the metadata of {bad}: JupyterLab would ask for a kernel")
PY
$PY -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --disable-pip-version-check -e "$work/run[notebooks]" 2>&1 | grep -v "^WARNING: \(Running pip as\|Location\)" >&2 || true
"$work/venv/bin/python" -c "import uri1630, jupyterlab, ipywidgets, nbdev, fastcore" || { echo "FAIL: the notebook install is incomplete" >&2; exit 1; }
t1=$SECONDS
echo "-- fresh venv with uri1630[notebooks] in $((t1 - t0)) s"
token="nb$$-$RANDOM"
rc=0
(cd "$work/run" && URI1630_RUN=$token PATH="$work/venv/bin:$PATH" nice "$work/venv/bin/nbdev_test" --flags "notest slow" --timing) || rc=$?
echo "-- nbdev_test over every notebook in $((SECONDS - t1)) s"
$PY .ci/leftover-processes.py "$token" || rc=1
exit $rc
