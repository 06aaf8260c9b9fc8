#!/usr/bin/env bash
# (owner: docs) Build the docs site, then check it and the live explorers in a real headless browser:
# every page loads without console errors, RFC quotes and show_doc signatures are there, the widgets
# render, nothing comes from a CDN; typing into the explorers under Voila changes their results.
set -euo pipefail
cd "$(dirname "$0")/../.."
t0=$SECONDS
.venv/bin/python docs/build.py
.venv/bin/python docs/browser_check.py --screenshots _site/screenshots
echo "== docs site + browser checks in $((SECONDS - t0))s"
