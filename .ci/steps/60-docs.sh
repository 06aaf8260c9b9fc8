#!/usr/bin/env bash
# ci: heavy
# (owner: docs) Build the docs site (fails on any cell error, Sphinx warning or broken link), then check it in a
# real headless browser with every request off 127.0.0.1 aborted and counted: the navigation (docs/nav.py) is
# walked in order by clicking; every page loads without console or HTTP errors and without horizontal scroll at
# 390 and 1280 px; each live explorer answers a URL typed into it; code cells typed into with real key presses
# run, and their keys (Tab, Shift+Tab, Escape, Shift/Ctrl/Cmd+Enter) do what they say; on every page the last Run
# cell's Run runs all its cells (the page decides which run as JupyterLite does: docs/live.py browser_plan) and none
# raises; no word of a table's prose is broken over lines at 1280 or 390 px; "Open as a notebook" is
# clicked on every page and opens that page's notebook in JupyterLite, where Run All runs every notebook to the end
# without an error (cells a browser cannot run say so in one line); the figures (time to first live result, on a
# repeat visit too, update latency, per-notebook JupyterLite times) are printed.
set -euo pipefail
cd "$(dirname "$0")/../.."
t0=$SECONDS
.venv/bin/python docs/build.py
# the text the pages display: RFC 1630 all quoted, in order, word for word, citations right; RFC 1738 coverage reported
.venv/bin/python docs/textcheck.py --json _site/textcheck.json
t1=$SECONDS
.venv/bin/python docs/browser_check.py --screenshots _site/screenshots --json _site/live-figures.json
echo "== docs site built in $((t1 - t0))s, browser checks in $((SECONDS - t1))s, $(du -sm _site | cut -f1) MB"
