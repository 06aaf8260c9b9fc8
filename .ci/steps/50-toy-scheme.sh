#!/usr/bin/env bash
# "A scheme is one notebook" (#28): a toy scheme (finger:, RFC 1288, from nbs/_template_scheme.ipynb) is added to a
# copy of the repository by Contributing's "Adding a scheme" checklist, run word for word (.ci/toy_scheme.py): export,
# the navigation, the gates (in sync, lint, rhythm, mypy, the rules of nbs/09a, 25, 30, 36, tests/test_layout.py and
# tests/test_reader.py) and the toy's own tests, a retrieval from a loopback server among them. Passes only if
# `git status` then shows nothing but the new notebook, its module and nbdev's index, and no process is left.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
nice $PY .ci/toy_scheme.py
