#!/usr/bin/env bash
# ci: after 60-docs.sh
# (owner: docs) The built site (_site/, from 60-docs.sh) for every reader, in a real headless browser, offline
# (docs/a11y_check.py): axe-core (npm, pinned, sha512 checked, cached outside the repository) on every page in light
# and dark mode, no WCAG 2.1 A/AA violation (contrast included); Tab reaches every control with a visible focus ring,
# and buttons, presets, radio groups and the phone drawers work from the keyboard; the HTTP page prints without the
# site's chrome in a bounded number of pages; search for "resolve" leads with Partial form and prose excerpts; the
# front page's map follows the sidebar; every page links its notebook and source; wide tables use the window.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f _site/index.html ] || .venv/bin/python docs/build.py
.venv/bin/python docs/a11y_check.py --json _site/a11y.json --screenshots _site/screenshots
