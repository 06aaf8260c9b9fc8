# Sphinx configuration for the uri1630 read-along site (docs/build.py runs Sphinx with -c docs/).
import html, json, re
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
html_css_files = ["uri1630.css", "rfcpages.css", "look.css"]   # rfcpages.css: the RFCs' own pages, quote permalinks; look.css: contrast, focus, drawers, wide tables, print (#27)
html_favicon = str(DOCS / "_static" / "favicon.svg")   # no 404 for /favicon.ico: every page names its icon
html_js_files = [("live.js", {"defer": "defer"}),   # docs/live.py: Python in the reader's browser
                 ("look.js", {"defer": "defer"})]   # keyboard drawers, wide tables, prose search excerpts (#27)
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


def _search_prose(app, doctree, docname):
    "The search index holds the pages' prose and outputs, not their code cells, banner or prelude (Sphinx: `no-search`)"
    for n in doctree.findall(nodes.Element):
        if "cell_input" in n.get("classes", ()) or (
                isinstance(n, nodes.raw) and re.search(r"u1630-(banner|files)|<script", n.astext())):
            n["classes"].append("no-search")


def _search_scorer():
    """Equal scores are listed in the edition's reading order (docs/nav.py, the sidebar's), not alphabetically:
    a Sphinx `Scorer` (its default weights) whose `score` adds less than 1 by the page's place in that order"""
    import sys
    sys.path.insert(0, str(DOCS))
    import nav
    from build import page_name
    order = [page_name(n) for n in nav.order(DOCS.parent / "nbs")]
    # a page whose own title holds a searched word ("fragment": "Fragment-id") comes before pages that only
    # mention it (#27: "fragment" ranked it third)
    js = ("var Scorer = {\n  order: %s,\n"
          "  words: (new URLSearchParams(location.search).get('q') || '').toLowerCase().split(/\\s+/).filter(w => w.length > 2),\n"
          "  own: r => !r[2] && Scorer.words.some(w => r[1].toLowerCase().split(/[^a-z0-9]+/).includes(w)),\n"
          "  score: r => { const i = Scorer.order.indexOf(r[0]); return r[4] + (Scorer.own(r) ? 20 : 0) + (i < 0 ? 0 : (Scorer.order.length - i) / (Scorer.order.length + 1)); },\n"
          "  objNameMatch: 11, objPartialMatch: 6, objPrio: {0: 15, 1: 5, 2: -5}, objPrioDefault: 0,\n"
          "  title: 15, partialTitle: 7, term: 5, partialTerm: 2,\n};\n") % json.dumps(order)
    out = DOCS / "_build" / "search_scorer.js"
    out.parent.mkdir(exist_ok=True)
    out.write_text(js)
    return str(out)


html_search_scorer = _search_scorer()


# an entity reference as the source writes it (`&lt;`, `&amp;`, `&#60;`)
_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);")
_LINKABLE = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")


def autolinks_as_gfm(app, doctree, docname=None):
    """A bare URL's autolink ends where GFM ends it (#27). The markdown outputs are parsed as GFM
    (`nb_render_markdown_format`), whose autolink extension (mdit-py-plugins' `gfm_autolink`) matches bare URLs in
    the source, where an entity reference is not yet decoded: `http://&lt;host>:&lt;port>/` (RFC 1738's form, `<`
    escaped so that it is not a tag) became a link whose text, escaped again, read `&lt;host>`. cmark-gfm decodes
    first, and `<` ends an autolink: so here a link whose text holds an entity reference gets its text decoded, and
    stays a link only up to the first `<`, where that is still a URL (a host after the scheme); the rest is text."""
    for ref in list(doctree.findall(nodes.reference)):
        text, uri = ref.astext(), ref.get("refuri", "")
        if not (_ENTITY.search(text) and _ENTITY.search(uri)): continue
        head, lt, tail = html.unescape(text).partition("<")
        if _LINKABLE.match(head):
            link = nodes.reference(head, head, refuri=head if "://" in head else "http://" + head, classes=ref["classes"])
            ref.replace_self([link, nodes.Text(lt + tail)] if lt else [link])
        else:
            ref.replace_self(nodes.Text(head + lt + tail))


def setup(app):
    app.connect("doctree-read", autolinks_as_gfm)
    app.connect("doctree-resolved", _mark_quotes)
    app.connect("doctree-resolved", _search_prose)
