# Sphinx configuration for the uri1630 read-along site (docs/build.py runs Sphinx with -c docs/).
from pathlib import Path
from docutils import nodes

DOCS = Path(__file__).resolve().parent
project = "uri1630"
author = "uri1630 developers"
copyright = "2026 onwards, uri1630 developers"
html_title = "uri1630 — RFC 1630, read along"
extensions = ["myst_nb"]
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints", "_proc"]
html_theme = "furo"
html_static_path = [str(DOCS / "_static")]
html_css_files = ["uri1630.css", "rfcpages.css"]   # rfcpages.css: the RFCs' own pages, quote permalinks
html_favicon = str(DOCS / "_static" / "favicon.svg")   # no 404 for /favicon.ico: every page names its icon
html_js_files = [("live.js", {"defer": "defer"})]   # docs/live.py: Python in the reader's browser
html_show_sourcelink = False
html_copy_source = False
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3
myst_all_links_external = True   # nbdev doc links are plain page.html#name links, not Sphinx references
nb_execution_mode = "off"          # docs/build.py executed the notebooks already
nb_merge_streams = True
nb_render_markdown_format = "gfm"   # markdown outputs (show_doc, the edition map) have tables
# no widget JavaScript: docs/build.py turns the explorers' widget views into live HTML forms (docs/live.py)
nb_ipywidgets_js = {}
suppress_warnings = ["myst.header", "mystnb.unknown_mime_type", "misc.highlighting_failure"]
mathjax_path = "about:blank"       # no page needs TeX; never reference MathJax's CDN
smartquotes = False               # the RFC's straight quotes, "--" and "..." are shown as it prints them (docs/textcheck.py)


def _mark_quotes(app, doctree, docname):
    "Class the RFC quotations: the blockquotes that end with a '— RFC …' citation"
    for bq in doctree.findall(nodes.block_quote):
        if "— RFC" in bq.astext(): bq["classes"].append("rfc-quote")


def setup(app):
    app.connect("doctree-resolved", _mark_quotes)
