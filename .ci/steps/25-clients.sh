#!/usr/bin/env bash
# "Then and now" run rather than described (#29): every real client (Lynx, w3m, Perl's URI, curl, Node, Chromium and
# the Python libraries) on every case, by tests/peers/clients.py. Fails if a client is missing (.ci/test installed them
# all: .ci/apt-packages, the bench and e2e extras) or if its answers differ from the committed nbs/33_clients.json,
# which nbs/33_then_and_now.ipynb and the site's page read (regenerate: python tests/peers/clients.py, then commit).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
timeout 120 $PY tests/peers/clients.py --check
