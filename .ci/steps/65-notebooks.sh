#!/usr/bin/env bash
# ci: heavy
# JupyterLab without surprises: a fresh venv with only the README's notebook install (`pip install -e ".[notebooks]"`,
# nbs/index.ipynb, "The notebooks in JupyterLab") in a copy of the tracked files, then every notebook of nbs/ run to
# the end as Run All does (.ci/notebooks-run-all.py: every cell, the kernel its kernelspec names), two at a time.
# The notebooks run in a second copy: each one's last cell (`nbdev_export()`) rewrites every module of uri1630/ in
# place, and two notebooks at once would otherwise import a module while the other's export is rewriting it (one
# reader running one notebook never sees that). Nothing is written here. The Debian packages of .ci/apt-packages
# are the machine's (.ci/test and .ci/docs install them: bash .ci/system-packages).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
t0=$SECONDS
mkdir "$work/src" "$work/run"
git ls-files -z | tar --null -T - -cf "$work/tracked.tar"
tar -xf "$work/tracked.tar" -C "$work/src"; tar -xf "$work/tracked.tar" -C "$work/run"
$PY -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --disable-pip-version-check -e "$work/src[notebooks]" 2>&1 | grep -v "^WARNING: \(Running pip as\|Location\)" >&2 || true
"$work/venv/bin/python" -c "import uri1630, jupyterlab, ipywidgets, nbdev, fastcore" || { echo "FAIL: the notebook install is incomplete" >&2; exit 1; }
t1=$SECONDS
echo "-- fresh venv with uri1630[notebooks] in $((t1 - t0)) s"
cd "$work/run" && nice "$work/venv/bin/python" .ci/notebooks-run-all.py nbs --workers 2 2>&1 | grep --line-buffered -v "Kernel is running over TCP without encryption"
echo "-- every notebook run to the end in $((SECONDS - t1)) s"
