"""How the site renders a notebook's markdown output (docs/conf.py, docs/build.py; issue #27): RFC 1738's
`http://<host>:<port>/...`, escaped in the markdown so that it is not a tag, shows as `<host>` in the HTML, not as
a link whose text reads `&lt;host>` (GFM's autolink matched the bare URL before the entity was decoded)."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if not (ROOT / "docs" / "conf.py").is_file(): pytest.skip("docs/ is not here: the site builds from a clone", allow_module_level=True)
pytest.importorskip("myst_parser")
from docutils.core import publish_from_doctree  # noqa: E402
from myst_parser.config.main import MdParserConfig  # noqa: E402
from myst_parser.mdit_to_docutils.base import DocutilsRenderer, make_document  # noqa: E402
from myst_parser.parsers.mdit import create_md_parser  # noqa: E402

sys.path.insert(0, str(ROOT / "docs"))
try:
    import build, conf
finally: sys.path.remove(str(ROOT / "docs"))


def render(markdown, fix=True):
    "HTML of `markdown` parsed as the site parses a markdown output (GFM), with the site's doctree hook or not"
    doc = make_document("x")
    md = create_md_parser(MdParserConfig(gfm_only=True), DocutilsRenderer)
    md.options["document"] = doc
    md.render(markdown)
    if fix: conf.autolinks_as_gfm(None, doc)
    html = publish_from_doctree(doc, writer="html5").decode()
    return html[html.index('<main>'):html.index('</main>')]


def test_a_placeholder_in_a_bare_url_shows_as_written():
    # the sentence of the kind `http-login` as nbs/33's table writes it (its `_prose`: `<` escaped)
    from uri1630.peers import KINDS
    sentence = KINDS["http-login"].sentence
    assert "http://<host>:<port>/<path>?<searchpart>" in sentence
    markdown = f"| kind | sentence |\n|---|---|\n| `http-login` | {sentence.replace('<', '&lt;')} |"
    before = render(markdown, fix=False)
    assert "&amp;lt;host" in before and build.escaped_twice(before)          # the defect, as GFM's autolink made it
    html = render(markdown)
    assert "http://&lt;host&gt;:&lt;port&gt;/&lt;path&gt;?&lt;searchpart&gt;" in html and "<host>" not in html
    assert not build.escaped_twice(html)


def test_an_autolink_is_kept_up_to_its_end():
    "A URL whose entity is decoded stays a link (`&amp;` is `&`); one cut by `<` links its host part only"
    html = render("see http://h/?a=1&amp;b=2 and http://h/a&lt;b> and <http://x/>")
    assert '<a class="reference external" href="http://h/?a=1&amp;b=2">http://h/?a=1&amp;b=2</a>' in html
    assert '<a class="reference external" href="http://h/a">http://h/a</a>&lt;b&gt;' in html
    assert 'href="http://x/"' in html and not build.escaped_twice(html)


def test_escaped_twice_reads_prose_not_code():
    assert build.escaped_twice("<p>a &amp;lt;b</p>") == ["<p>a &amp;lt;b</p>"]
    assert build.escaped_twice('<pre>"&amp;lt;"</pre><code>&amp;amp;</code><p>&amp; &lt;</p>') == []
