#!/usr/bin/env bash
# JupyterLab without surprises: a fresh venv with only the README's notebook install (`pip install -e ".[notebooks]"`,
# nbs/index.ipynb, "The notebooks in JupyterLab"), in a copy of the tracked files (the export cell rewrites uri1630/
# there, not here), then every notebook of nbs/ run to the end as Run All does (.ci/notebooks-run-all.py: every cell,
# the kernel its kernelspec names). The Debian packages of .ci/apt-packages are the machine's (.ci/test installs them).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
t0=$SECONDS
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$work"
$PY -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --disable-pip-version-check -e "$work[notebooks]" 2>&1 | grep -v "^WARNING: \(Running pip as\|Location\)" >&2 || true
"$work/venv/bin/python" -c "import uri1630, jupyterlab, ipywidgets, nbdev, fastcore" || { echo "FAIL: the notebook install is incomplete" >&2; exit 1; }
t1=$SECONDS
echo "-- fresh venv with uri1630[notebooks] in $((t1 - t0)) s"
cd "$work" && nice "$work/venv/bin/python" .ci/notebooks-run-all.py nbs --workers 2
echo "-- every notebook run to the end in $((SECONDS - t1)) s"
