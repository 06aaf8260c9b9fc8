"The text check (docs/textcheck.py) on small pages: a faithful quote passes, and each kind of defect is caught"
import re, sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

DOCS = Path(__file__).resolve().parent.parent / "docs"
sys.path.insert(0, str(DOCS))
rfctext = pytest.importorskip("rfctext")
if not rfctext.SEEDS.joinpath("rfc1630.txt").exists(): pytest.skip("the shared RFC texts are not next to the repository", allow_module_level=True)
import textcheck  # noqa: E402

R = rfctext.rfc1630()
LINK = textcheck.RFC_LINK


def esc(s): return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def quote_html(blocks, citation=None, link_page=None, prose_tables=False):
    "A blockquote as Sphinx renders a faithful quote of consecutive RFC 1630 blocks (or a damaged one; None: an elision)"
    parts = []
    for b in blocks:
        if b is None: parts.append("<p>[…]</p>"); continue
        if b.kind in ("table", "display") and not prose_tables:
            base = min(l.indent for l in b.lines)
            parts.append("<div class=\"highlight\"><pre>" + esc("\n".join(l.text[base:] for l in b.lines)) + "\n</pre></div>")
        else:
            parts.append(f"<p>{esc(b.lines[0].content if b.kind == 'subheading' else b.text)}</p>")
    cit = esc(citation or rfctext.citation_1630(blocks, link=False))
    p1 = min(b.pages[0] for b in blocks if b)
    m = re.search(r"(Pages? [\d–]+)", cit)
    href = LINK.format(n=1630, p=link_page or p1)
    cit = cit.replace(m.group(1), f'<a class="reference external" href="{href}">{m.group(1)}</a>')
    return "<blockquote><div>" + "".join(parts) + f"<p>{cit}</p></div></blockquote>"


def page(*quotes, extra=""): return f"<html><body><article>{extra}{''.join(quotes)}</article></body></html>"


def run(pages, part=None):
    "Check `pages` ({name: html}, in order); the RFC part is every page unless `part` says otherwise"
    ch = textcheck.Checker(list(pages) if part is None else part)
    ch._spans = {}
    for n, h in pages.items(): ch.check_page(n, h)
    return ch.finish()


def kinds(rep): return sorted({e["kind"] for e in rep.errors})


def by_heading(h): return [b for b in R.blocks if b.heading == h and b.kind != "heading"]


def test_whole_rfc_in_order_passes_at_100_percent():
    "Every heading's blocks quoted faithfully, one page per heading, in order: no error, 100% of paragraphs"
    pages = {}
    for h in dict.fromkeys(b.heading for b in R.blocks):
        bl = by_heading(h)
        if bl: pages[f"p{len(pages):02d}"] = page(quote_html(bl))
    rep = run(pages)
    assert rep.errors == [], rep.errors[:5]
    c = rep.coverage_1630
    assert (c["paragraphs"], c["words"]) == (c["of"], c["words_of"]) and c["of"] == len(R.paragraphs)


@settings(max_examples=8, deadline=None)
@given(st.data())
def test_a_missing_paragraph_fails_coverage(data):
    "Leave out any one paragraph (quoting around it with an elision): coverage is below 100% and names it"
    paras = R.paragraphs
    gone = data.draw(st.sampled_from(paras))
    pages = {}
    for h in dict.fromkeys(b.heading for b in R.blocks):
        bl = [None if b is gone else b for b in by_heading(h)]
        if not any(bl): continue
        if bl: pages[f"p{len(pages):02d}"] = page(quote_html(bl, citation=rfctext.citation_1630(by_heading(h), link=False)))
    rep = run(pages)
    assert rep.coverage_1630["paragraphs"] == len(paras) - 1
    assert any(e["kind"] == "coverage" and gone.text[:40] in e["message"] for e in rep.errors)


def _one(blocks, **kw): return run({"x": page(quote_html(blocks, **kw))}, part=[])


def test_faithful_quote_passes():
    assert _one(by_heading("HTTP")[:2]).errors == []


@pytest.mark.parametrize("change,kind", [
    (lambda s: s.replace('"proxy"', "\u201cproxy\u201d"), "words"),               # smart quotes
    (lambda s: s.replace("string sent", "string that is sent"), "words"),         # a word added
    (lambda s: s.replace("the host details.", "the host details;"), "words"),     # punctuation the RFC lacks
])
def test_changed_words_fail(change, kind):
    html = change(page(quote_html(by_heading("HTTP")[:2])))
    assert kind in kinds(run({"x": html}, part=[]))


def test_lost_backslash_and_ellipsis_fail():
    dc = [b for b in R.paragraphs if 'character "\\"' in b.text][0]
    html = page(quote_html([dc])).replace('"\\"', '""')
    assert "words" in kinds(run({"x": html}, part=[]))
    sec = [b for b in R.paragraphs if "..." in b.text]
    if sec:
        html = page(quote_html(sec[:1])).replace("...", "\u2026")
        assert "words" in kinds(run({"x": html}, part=[]))


def test_placeholder_rendered_as_tag_fails():
    "`<type-code>` went into the page as a tag: the browser hides it; both the element and the words are caught"
    ftp = [b for b in R.paragraphs if "<type-code>" in b.text][0]
    html = page(quote_html([ftp])).replace("&lt;type-code&gt;", "<type-code>")
    assert {"element", "words"} <= set(kinds(run({"x": html}, part=[])))
    assert "element" in kinds(run({"x": page(extra="<p>where <host> and <port> are</p>")}, part=[]))


def test_url_brackets_turned_into_link_fail():
    ref = [b for b in R.paragraphs if "<ftp://info.cern.ch/pub/www/doc/http-spec.txt>" in b.text][0]
    html = page(quote_html([ref])).replace("&lt;ftp://info.cern.ch/pub/www/doc/http-spec.txt&gt;",
                                           '<a href="ftp://info.cern.ch/pub/www/doc/http-spec.txt">ftp://info.cern.ch/pub/www/doc/http-spec.txt</a>')
    assert "words" in kinds(run({"x": html}, part=[]))


def test_table_as_running_text_and_lost_alignment_fail():
    schemes = by_heading("Specific Schemes")[1:9]
    assert "layout" in kinds(_one(schemes, prose_tables=True))
    html = page(quote_html(schemes)).replace("http                    Hypertext", "http Hypertext")
    assert "layout" in kinds(run({"x": html}, part=[]))


def test_bnf_line_the_rfc_does_not_print_fails():
    bnf = [b for b in by_heading("BNF for specific URL schemes") if b.text.startswith("httpaddress")]
    html = page(quote_html(bnf)).replace("</pre>", "fileaddress            f i l e :   / / [ host ] / path\n</pre>")
    assert "words" in kinds(run({"x": html}, part=[]))


def test_rewrapped_bnf_fails():
    url = [b for b in by_heading("BNF for specific URL schemes") if b.text.startswith("url ")]
    lines = url[0].lines
    html = page(quote_html(url)).replace("\n" + lines[1].text[min(l.indent for l in lines):], " " + lines[1].content)
    assert set(kinds(run({"x": html}, part=[]))) & {"layout", "words"}


def test_display_line_run_into_sentence_fails():
    ex = by_heading("Encoding reserved characters")
    i = next(i for i, b in enumerate(ex) if b.lines[0].content == "Example 1")
    blocks = ex[i + 1:i + 5]      # "The URIs", the display line, "and", the display line
    html = page("<blockquote><div><p>" + " ".join(esc(b.text) for b in blocks) + "</p><p>"
                + esc(rfctext.citation_1630(blocks, link=False)).replace("Page 9", f'<a href="{LINK.format(n=1630, p=9)}">Page 9</a>')
                + "</p></div></blockquote>")
    assert "layout" in kinds(run({"x": html}, part=[]))


def test_citations():
    http = by_heading("HTTP")[:2]
    assert "citation" in kinds(_one(http, citation='— RFC 1630, "HTTP", Page 14'))                  # wrong page
    assert "citation" in kinds(_one(http, citation='— RFC 1630, "FTP", Page 13'))                   # wrong heading
    two = [b for b in by_heading("HTTP") if b.pages == (14, 14)][:1] + [b for b in by_heading("HTTP") if b.pages[0] == 13][-1:]
    span = [b for b in R.paragraphs if b.pages[0] != b.pages[1]][0]
    assert _one([span]).errors == []
    assert "citation" in kinds(_one([span], link_page=span.pages[1]))                                 # link to the last page
    no_link = page(quote_html(http)).replace('href="' + LINK.format(n=1630, p=13) + '"', "")
    assert "citation" in kinds(run({"x": no_link}, part=[]))
    assert two


def test_uncited_rfc_quote_fails():
    b = by_heading("HTTP")[0]
    assert "citation" in kinds(run({"x": page(f"<blockquote><p>{esc(b.text)}</p></blockquote>")}, part=[]))


def test_order_and_repeats_on_a_page():
    http = by_heading("HTTP")
    a, b = quote_html(http[:1]), quote_html(http[1:2])
    assert run({"x": page(a, b)}, part=[]).errors == []
    assert "order" in kinds(run({"x": page(b, a)}, part=[]))                    # out of the RFC's order
    assert "order" in kinds(run({"x": page(a, b, a)}, part=[]))                 # quoted again


def test_order_across_the_rfc_part():
    http, ftp = by_heading("HTTP"), by_heading("FTP")
    rep = run({"ftp": page(quote_html(ftp[:1])), "http": page(quote_html(http[:1]))})
    assert "order" in kinds(rep)
    assert "order" not in kinds(run({"http": page(quote_html(http[:1])), "ftp": page(quote_html(ftp[:1]))}))


def test_rfc1738_quotes_checked_and_counted():
    R2 = rfctext.rfc1738()
    s = next(x for x in R2.sentences(["3.3"]) if x.text.startswith("No user name"))
    cit = f'— RFC 1738, §3.3 "HTTP", <a href="{LINK.format(n=1738, p=R2.page_at(s.start))}">Page {R2.page_at(s.start)}</a>'
    good = page(f"<blockquote><p>{esc(s.text)}</p><p>{cit}</p></blockquote>")
    rep = run({"x": good}, part=[])
    assert rep.errors == [] and rep.coverage_1738["sentences"] == 1
    assert "citation" in kinds(run({"x": good.replace("§3.3", "3.3.")}, part=[]))     # one format: §3.3 "HTTP"
    assert "words" in kinds(run({"x": good.replace("is allowed", "is permitted")}, part=[]))


def test_rfc1630_stream_is_the_rfc():
    "Every printed word of RFC 1630 (headers and footers aside) is in the stream, in order"
    text = (rfctext.SEEDS / "rfc1630.txt").read_text()
    sub = {b.lines[0].content for b in R.blocks if b.kind == "subheading"}     # the pages' own headings: not read
    words = [w for l in text.split("\n") if not re.match(r"^(Berners-Lee\s+\[Page|RFC 1630\s+URIs in WWW)", l)
             and l.strip() not in sub for w in l.split()]
    stream_words = R.stream.split(" ")
    joined = re.sub(r"(?<=[A-Za-z])- ", "-", " ".join(words))
    assert joined == R.stream and len(stream_words) < len(words) + 1


def test_same_sentence_twice_in_the_rfc():
    "Examples 1 and 2 both begin 'The URIs http://info.cern.ch/albert/bertram/marie-claude': quoted in order, each is found in its place"
    ex = by_heading("Encoding reserved characters")
    starts = [i for i, b in enumerate(ex) if b.lines[0].content in ("Example 1", "Example 2", "Example 3")]
    one, two = ex[starts[0] + 1:starts[1]], ex[starts[1] + 1:starts[2]]
    assert run({"x": page(quote_html(one), quote_html(two))}, part=[]).errors == []
    assert "order" in kinds(run({"x": page(quote_html(one), quote_html(one))}, part=[]))


def test_sub_headings_may_be_shown_or_left_out():
    "An indented heading ('EXAMPLES', 'Note 1:') is the page's own heading: a quote may show it or not"
    news = by_heading("News")
    with_notes = quote_html(news[2:])                     # "Note 1:", its paragraph, "Note 2:", ...
    without = quote_html([b for b in news[2:] if b.kind != "subheading"])
    assert "<p>Note 1:</p>" in with_notes and "Note 1:" not in without
    for html in (with_notes, without):
        assert run({"x": page(html)}, part=[]).errors == []


# -- RFC 1738's page model: the page ends are where the footers were, after words broken at a line's end are
# rejoined (the rejoin used to shorten the text under the recorded page ends, so every later page began late)
R1738 = rfctext.rfc1738()


def _q1738(text, citation, page):
    "A cited RFC 1738 quote as Sphinx renders it, its citation linking to `page`"
    cit = esc(citation)
    m = re.search(r"(Pages? [\d–]+)", cit)
    cit = cit.replace(m.group(1), f'<a href="{LINK.format(n=1738, p=page)}">{m.group(1)}</a>')
    return page_html(f"<blockquote><p>{esc(text)}</p><p>{cit}</p></blockquote>")


def page_html(body): return page(extra=body)


@pytest.mark.parametrize("text,section,wrong,right", [
    # §3.1 on the Specific Schemes page: from "Note that an empty user name" on, all of it is on page 6
    ("Note that an empty user name or password is different than no user name or password; there is no way to "
     "specify a password without specifying a user name.", '§3.1 "Common Internet Scheme Syntax"', (5, 6), (6, 6)),
    # §5's mailto productions (the mailto page): page 19, after page 18's footer
    ('; MAILTO (see also RFC822) mailtourl = "mailto:" encoded822addr encoded822addr = 1*xchar ; further defined '
     'in RFC822', '§5 "BNF for specific URL schemes"', (18, 19), (19, 19)),
    # §6 on the Security page: page 21
    ("The use of URLs containing passwords that should be secret is clearly unwise.",
     '§6 "Security Considerations"', (20, 21), (21, 21)),
])
def test_rfc1738_pages_of_the_three_citations(text, section, wrong, right):
    "The three citations the page model let through (issue 27): the old pages fail, the right page passes"
    at = R1738.stream.index(text)
    assert (R1738.page_at(at), R1738.page_at(at + len(text) - 1)) == right
    pages = lambda p: f"Page {p[0]}" if p[0] == p[1] else f"Pages {p[0]}–{p[1]}"
    good = _q1738(text, f"— RFC 1738, {section}, {pages(right)}", right[0])
    bad = _q1738(text, f"— RFC 1738, {section}, {pages(wrong)}", wrong[0])
    assert run({"x": good}, part=[]).errors == []
    assert "citation" in kinds(run({"x": bad}, part=[]))


def test_rfc1738_page_ends_are_at_the_footers():
    "Each page of RFC 1738 ends with the last words printed above its footer in the seed"
    raw = re.sub(r"\s+", " ", (rfctext.SEEDS / R1738_FILE()).read_text().replace("\u00a0", " "))
    for m in rfctext._FOOTER_1738.finditer(raw):
        n = int(m.group(1))
        before = raw[max(0, m.start() - 30):m.start()].strip().split(" ")[-3:]
        tail = " ".join(before)
        end = next(e for e, p in R1738._page_at if p == n)
        assert R1738.stream[:end].rstrip().endswith(tail), (n, tail, R1738.stream[end - 40:end])


def R1738_FILE():
    return next(iter(sorted(rfctext.SEEDS.glob("001_*.txt"))), rfctext.SEEDS / "rfc1738.txt").name


# -- quotations in the prose (issue 27): each one the text check should have caught, as it was, then as fixed
def _prose(*paras): return page(extra="".join(f"<p>{esc(p)}</p>" for p in paras))


@pytest.mark.parametrize("old,new", [
    # p. 7: the RFC's typo corrected, then kept and marked
    ('`*` and `!`, which are "reserved for use as having special significance within specific schemes" (p. 7)',
     '`*` and `!`, which are "reserved for use as having special signifiance [sic] within specific schemes" (p. 7)'),
    ('`*` and `!` ("special significance within specific schemes")',
     '`*` and `!` ("special signifiance [sic] within specific schemes")'),
    # p. 16: the gopher type "may be omiited"
    ('the prose (p. 16) says the type "may be omitted and "1" … is assumed" when the command is void',
     'the prose (p. 16) says the type "may be omiited [sic] and "1" … is assumed" when the command is void'),
    # Partial form: words dropped without an ellipsis
    ('`/g` keeps `magic://a`, "everything up to the first occurrence of exactly" one slash',
     '`/g` keeps `magic://a`, "everything … up to (but not including) the first occurrence of exactly" one slash'),
    # HTTP and transport pages: the RFC's double quotes turned into single ones
    ("""("the '/' between the host (or port) and the url-path is NOT part of the url-path", §3.1)""",
     """("the "/" between the host (or port) and the url-path is NOT part of the url-path", §3.1)"""),
    ("""a host number is "a set of four decimal digit groups separated by '.'" (§3.1, p. 6)""",
     """a host number is "a set of four decimal digit groups separated by "."" (§3.1, p. 6)"""),
    # a word changed ("begins" for the RFC's "begin")
    ('a prospero `hsoname` that "begins with a slash"', 'a prospero `hsoname`: "many <hsoname>s begin with a slash"'),
    # curly quotes are read too
    ("the RFC calls them \u201creserved for use as having special significance\u201d",
     "the RFC calls them \u201creserved for use as having special signifiance [sic]\u201d"),
])
def test_prose_quotations_are_the_rfcs_words(old, new):
    assert "prose" in kinds(run({"x": _prose(old)}, part=[]))
    assert run({"x": _prose(new)}, part=[]).errors == []


def test_prose_quotations_of_other_texts_pass():
    "A quotation of another document, the page's own heading, or a phrase of the edition's own is not the RFC's"
    ok = [
        'RFC 3986 §3.2.1 deprecates the form itself ("Use of the format user:password in the userinfo field")',
        'As said under "Levels within a URL of a registered scheme" above, a URL is read back',
        'IANA did take on the registry ("Uniform Resource Identifier (URI) Schemes")',
        'A quotation of no RFC at all: "the quick brown fox jumps over the lazy dog"',
    ]
    html = page(extra="<h2>Levels within a URL of a registered scheme: what you build</h2>"
                + "".join(f"<p>{esc(p)}</p>" for p in ok))
    assert run({"x": html}, part=[]).errors == []


def test_prose_inside_blockquotes_and_code_is_not_read_as_prose():
    "A blockquote is checked as a quote; a code span's double quotes are code (`\"ftp://\"`), not quotation marks"
    html = _prose('the production `ftpurl = "ftp://" login` is RFC 1738\'s') + quote_html(by_heading("HTTP")[:1])
    assert run({"x": html}, part=[]).errors == []


# -- BNF boxes: lines left out are marked with a […] line
def _box(*contents):
    "A preformatted quote of RFC 1630's BNF lines (by their content; None: a […] line), cited as the RFC prints them"
    lines = []
    for c in contents:
        lines.append("[…]" if c is None else next(l for l in R.lines if l.content.startswith(c)))
    real = [l for l in lines if l != "[…]"]
    base = min(l.indent for l in real)
    body = "\n".join(l if l == "[…]" else l.text[base:] for l in lines)
    p1, p2 = real[0].page, real[-1].page
    pages = f"Page {p1}" if p1 == p2 else f"Pages {p1}–{p2}"
    cit = f'— RFC 1630, "BNF for specific URL schemes", <a href="{LINK.format(n=1630, p=p1)}">{pages}</a>'
    return page(f"<blockquote><div><pre>{esc(body)}\n</pre><p>{cit}</p></div></blockquote>")


@pytest.mark.parametrize("before,after,skipped", [
    ("ftpaddress ", "ftptype ", 30),     # the FTP page
    ("newsaddress ", "groupart ", 10),   # the News page
    ("wpath ", "database ", 3),          # the WAIS page
])
def test_bnf_box_omissions_are_marked(before, after, skipped):
    rep = run({"x": _box(before, after)}, part=[])
    assert kinds(rep) == ["omission"] and f"{skipped} lines" in rep.errors[0]["message"]
    assert run({"x": _box(before, None, after)}, part=[]).errors == []


# -- the RFCs' own pages (docs/build.py shows them): every word of each RFC, page by page, nothing else
def test_printed_pages_1630_are_the_file():
    pages = rfctext.printed_pages("1630")
    assert list(pages) == list(range(1, 29))
    assert all(re.match(r"Berners-Lee\s+\[Page %d\]" % n, p[-1]) for n, p in pages.items())
    text = (rfctext.SEEDS / "rfc1630.txt").read_text()
    assert [l for p in pages.values() for l in p if l.strip()] == [l.rstrip() for l in text.split("\n") if l.strip()]


def test_printed_pages_1738_have_the_streams_words_and_pages():
    pages = rfctext.printed_pages("1738")
    hdr = re.compile(r"^RFC 1738\s+Uniform Resource Locators \(URL\)\s+December 1994$")
    body = {n: [l for l in p[:-1] if not hdr.match(l)] for n, p in pages.items()}
    words = " ".join(w for n in pages for l in body[n] for w in l.split())
    assert re.sub(r"(?<=[A-Za-z])- (?=[A-Za-z])", "-", words) == R1738.stream
    for n, ls in body.items():     # each page's last words end that page in the text check's model
        end = next(e for e, p in R1738._page_at if p == n)
        assert R1738.stream[:end].rstrip().endswith(ls[-1].split()[-1]), n


def test_site_quotes_have_permalinks_and_rfc_pages_their_passages(tmp_path):
    "On a built site: a quotation without its anchor and ¶, an RFC page without its passages, a missing copy: all fail"
    q = quote_html(by_heading("HTTP")[:1])
    (tmp_path / "http.html").write_text(page(q))
    (tmp_path / "rfc1630.html").write_text('<div class="u1630-quoted-by" data-rfc="1630" data-page="7"></div>')
    rep = textcheck.check_site(tmp_path)
    assert {"permalink", "pages"} <= set(kinds(rep))
    assert any("no copy of RFC 1738" in e["message"] for e in rep.errors)
    wrapped = ('<div class="u1630-quote" id="rfc1630-page-13">' + q
               + '<a class="u1630-permalink" href="#rfc1630-page-13">¶</a></div>')
    (tmp_path / "http.html").write_text(page(wrapped))
    (tmp_path / "rfc1738.html").write_text("")
    (tmp_path / "rfc1630.html").write_text('<div class="u1630-quoted-by" data-rfc="1630" data-page="7"><p>…</p></div>')
    assert not {"permalink", "pages"} & set(kinds(textcheck.check_site(tmp_path)))


def test_subtitle_names_only_the_rfcs_headings():
    "The Introduction's subtitle named a heading \"URIs, URLs, URNs\" that RFC 1630 does not have"
    sub = '<p class="u1630-subtitle">RFC 1630, {}, pp. 1–3.</p>'
    old = sub.format('"Introduction", "The Need For a Universal Syntax" and "URIs, URLs, URNs"')
    new = sub.format('"Introduction" and "The Need For a Universal Syntax" (its parts on URIs, URLs and URNs)')
    assert "heading" in kinds(run({"x": page(extra=old)}, part=[]))
    assert run({"x": page(extra=new)}, part=[]).errors == []


@pytest.mark.parametrize("text,ok", [
    ('As quoted above (RFC 1738, §6 "Security Considerations", pp. 20–21): "The use of URLs containing passwords '
     'that should be secret is clearly unwise."', False),
    ('As quoted above (RFC 1738, §6 "Security Considerations", p. 21): "The use of URLs containing passwords '
     'that should be secret is clearly unwise."', True),
    ('`*` and `!`, "reserved for use as having special signifiance [sic] within specific schemes" (p. 7)', True),
    ('`*` and `!`, "reserved for use as having special signifiance [sic] within specific schemes" (p. 8)', False),
    ('the grammar of "BNF for specific URL schemes" (p. 26) reads it', True),      # a section's name, not its words
])
def test_prose_quotations_name_their_page(text, ok):
    "A page named beside a prose quotation is the page its words are on"
    rep = run({"x": _prose(text)}, part=[])
    assert (rep.errors == []) == ok, rep.errors
