"""The text check: does the built site show RFC 1630, all of it, in order, word for word?

    python docs/textcheck.py [--site _site] [--json FILE]

It reads the pages as a browser shows them (`_site/*.html`, parsed with html.parser: the text of the elements,
whitespace collapsed except inside `<pre>`), never the notebooks. For every blockquote that ends with a
citation (`— RFC 1630, "Heading", Page N` or `— RFC 1738, §3.3 "HTTP", Page N`, the page a link to
the site's own copy of that RFC page, `rfc1630.html#page-N`) it:

- finds each part of the quote (the parts are cut at an elision mark `[…]`) in the RFC, character for
  character after whitespace is collapsed (a curled quote, a lost backslash, a hidden `<host>`, a `…` for
  `...` or a dash the RFC does not have is a difference); RFC 1630's BNF, tables and display lines must be
  preformatted lines inside the quote, each one a line the RFC prints, with its alignment and indentation;
- checks the citation: the headings (RFC 1630) or section numbers and titles (RFC 1738) of what is quoted,
  the pages it is on, and that the link goes to the first of them;
- on each page, checks that quotes of one RFC come in the RFC's order and that no passage is quoted twice.

It also reads the quotations in the running text (`"…"` or `“…”` outside blockquotes and code): one that
reads as an RFC's words (some of its words in a row are RFC 1630's or RFC 1738's) must be them exactly, with
`[sic]` after a word the RFC misspells and `…` or `[…]` where words are left out; a quotation of another
document (named just before it: "RFC 3986", "IANA") or of the page's own heading is not read. In a
preformatted quote, RFC lines left out between two lines it shows must be marked by a `[…]` line. A
citation's page links to the site's own copy of the RFC (`rfc1630.html#page-N`, made by docs/build.py), and
on the built site every quotation has its anchor and ¶ permalink, and every page of the RFCs' copies its
list of the passages that quote it.

Over the pages of the RFC part (nbs 00a, 01-24, 26-28, in that order) it computes RFC 1630's coverage by
paragraph (fails below 100%) and checks that the paragraphs first appear in the RFC's order. On every page
it fails on an element HTML does not define (an RFC placeholder such as `<host>` that went into the page as a
tag). It reports RFC 1738's coverage: the sentences of sections 2-6 and the Appendix quoted somewhere.
"""
import json, re, sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rfctext  # noqa: E402  (docs/rfctext.py)
from rfctext import normalise  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# HTML's elements (the living standard, obsolete ones included) and the SVG elements the theme inlines
HTML_ELEMENTS = set("""a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption
cite code col colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure footer
form h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li link main map mark menu
meta meter nav noscript object ol optgroup option output p param picture pre progress q rp rt ruby s samp script
search section select slot small source span strong style sub summary sup table tbody td template textarea tfoot th
thead time title tr track u ul var video wbr acronym big center font frame frameset marquee nobr noframes strike tt
svg g path symbol use defs circle ellipse line polyline polygon rect text tspan lineargradient radialgradient stop
clippath mask pattern image foreignobject desc marker filter math mi mn mo ms mrow msup msub mfrac""".split())
BLOCK_TAGS = {"p", "div", "pre", "li", "ul", "ol", "dl", "dt", "dd", "table", "tr", "td", "th", "h1", "h2", "h3", "h4",
              "h5", "h6", "br", "hr", "section", "blockquote", "figure", "figcaption", "details", "summary"}
ELISION = re.compile(r"\[(?:…|\.\.\.)\]")
RFC_LINK = "rfc{n}.html#page-{p}"      # the site's own copy of the RFC, page by page (docs/build.py, `rfc_pages`)


@dataclass
class Quote:
    "One blockquote as displayed: its blocks (`('p'|'pre', text)`), its citation text and the citation's links"
    page: str
    index: int
    blocks: list = field(default_factory=list)
    citation: str = ""
    links: list = field(default_factory=list)
    cited: int = -1          # its place among the page's cited quotes
    at: tuple = ()           # offsets in the page's HTML: its `<blockquote` and its `</blockquote>`
    pages: tuple = ()        # the RFC pages its words were found on (first, last), once checked

    @property
    def rfc(self) -> str:
        m = re.match(r"— RFC (\d+)", self.citation)
        return m.group(1) if m else ""

    def where(self) -> str: return f"{self.page} Q{self.index}"


class _Page(HTMLParser):
    "A page's blockquotes (as displayed) and its elements"

    def __init__(self, name):
        super().__init__(convert_charrefs=True)
        self.name, self.quotes, self.tags = name, [], {}
        self.line_starts, self.bq_start = [0], 0
        self.depth = 0            # blockquote nesting
        self.pre = 0
        self.skip = 0             # inside script/style
        self.buf, self.blocks, self.links, self.in_a = [], [], [], None

    def _flush(self):
        text = "".join(self.buf)
        self.buf = []
        if self.pre: return
        t = normalise(text)
        if t: self.blocks.append(["p", t, list(self.links)])
        self.links = []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag in ("script", "style"): self.skip += 1
        if self.skip: return
        if tag == "blockquote":
            if self.depth == 0: self.buf, self.blocks, self.links = [], [], []; self.bq_start = self._offset()
            self.depth += 1; return
        if not self.depth: return
        if tag == "pre":
            self._flush(); self.pre += 1; self.buf = []; return
        if tag in BLOCK_TAGS and not self.pre: self._flush()
        if tag == "a": self.links.append(dict(attrs).get("href", ""))

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip: self.skip -= 1; return
        if self.skip or not self.depth: return
        if tag == "pre" and self.pre:
            self.pre -= 1
            if not self.pre:
                self.blocks.append(["pre", "".join(self.buf), []]); self.buf = []
            return
        if tag == "blockquote":
            self.depth -= 1
            if self.depth == 0:
                self._flush()
                q = Quote(self.name, len(self.quotes), at=(self.bq_start, self._offset()))
                blocks = self.blocks
                if blocks and blocks[-1][0] == "p" and blocks[-1][1].startswith("— RFC"):
                    q.citation, q.links = blocks[-1][1], blocks[-1][2]; blocks = blocks[:-1]
                q.blocks = [(k, t) for k, t, _ in blocks]
                self.quotes.append(q)
            return
        if tag in BLOCK_TAGS and not self.pre: self._flush()

    def handle_data(self, data):
        if self.skip or not self.depth: return
        self.buf.append(data)


    def _offset(self) -> int:
        "The offset in the page's HTML of the tag being read"
        line, col = self.getpos()
        return self.line_starts[line - 1] + col


class _Prose(HTMLParser):
    "The running text of a page's article, block by block, outside blockquotes and preformatted text: where "
    "quotations in the prose are read (`Checker.check_prose`). A `<code>` that holds a double quote becomes `\\x01`"
    " (its quotes are code, not quotation marks)"

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.article = self.skip = self.quote = self.pre = 0
        self.code, self.buf, self.blocks, self.headings, self.h = None, [], [], set(), 0

    def _flush(self):
        t = normalise("".join(self.buf)); self.buf = []
        if t: self.blocks.append(t)
        if self.h and t: self.headings.add(t.rstrip("#¶ ")); self.h = 0

    def handle_starttag(self, tag, attrs):
        if tag == "article": self.article += 1
        if tag in ("script", "style"): self.skip += 1
        if tag == "blockquote": self.quote += 1
        if tag == "pre": self.pre += 1
        if tag == "code" and self.code is None: self.code = []
        if tag in BLOCK_TAGS: self._flush()
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"): self.h = len(self.blocks) + 1

    def handle_endtag(self, tag):
        if tag == "article" and self.article: self._flush(); self.article -= 1
        if tag in ("script", "style") and self.skip: self.skip -= 1
        if tag == "blockquote" and self.quote: self.quote -= 1; self.buf = []
        if tag == "pre" and self.pre: self.pre -= 1; self.buf = []
        if tag == "code" and self.code is not None:
            t = "".join(self.code); self.code = None
            self.buf.append("\x01" if '"' in t else t)
        if tag in BLOCK_TAGS: self._flush()

    def handle_data(self, data):
        if not self.article or self.skip or self.quote or self.pre: return
        (self.code if self.code is not None else self.buf).append(data)


PROSE_QUOTE = re.compile(r"\u201c([^\u201d]+)\u201d|\"([^\"]+)\"")
SIC = re.compile(r"\s*\[sic\]")
PROSE_ELISION = re.compile(r"\s*(?:\[(?:…|\.\.\.)\]|…)\s*| \.\.\. ")
OTHER_SOURCE = re.compile(r"\bRFC (?!1630\b|1738\b)\d+|\bIANA\b|\bWHATWG\b|\bdraft\b")   # a quotation of another text
# a prose quotation's page: `(RFC 1738, §6 "…", pp. 20–21): "…"` before it, or `"…" (p. 7)` after it
PAGE_BEFORE = re.compile(r"(?:(RFC 1630|RFC 1738)[^()]*?, )?\bpp?\. (\d+)(?:–(\d+))?(?:, [^()]*)?\)?:?\s*$")
PAGE_AFTER = re.compile(r"\s*\((?:(RFC 1630|RFC 1738)[^()]*?, )?(?:[^()]*?, )?pp?\. (\d+)(?:–(\d+))?[,)]")
INNER = re.compile(r'"([^\s"](?:[^"]?[^\s"])?)"')   # "1", "/", "?": a quotation's own quoted character


def prose_quotes(html: str) -> list:
    "The quotations in a page's running text: each text between “ ” or a pair of straight double quotes"
    p = _Prose(); p.feed(html); p.close()
    out = []
    for b in p.blocks:
        if b in p.headings: continue
        src = INNER.sub("\x02\\1\x02", b)
        for m in PROSE_QUOTE.finditer(src):
            q = (m.group(1) or m.group(2)).replace("\x02", '"').strip()
            if any(h.startswith(q) for h in p.headings): continue   # the name of one of the page's own sections
            if OTHER_SOURCE.search(src[max(0, m.start() - 60):m.start()]): continue   # "RFC 3986 §3.2.1: "…""
            ref = PAGE_BEFORE.search(src[max(0, m.start() - 120):m.start()]) or PAGE_AFTER.match(src[m.end():])
            out.append((b, q, ref.groups() if ref else None))
    return out


def read_page(name: str, html: str) -> _Page:
    p = _Page(name)
    p.line_starts = [0] + [m.end() for m in re.finditer("\n", html)]
    p.feed(html); p.close(); return p


@dataclass
class Report:
    errors: list = field(default_factory=list)
    coverage_1630: dict = field(default_factory=dict)
    coverage_1738: dict = field(default_factory=dict)
    quotes: int = 0
    fixes: list = field(default_factory=list)     # the citations whose pages or link are wrong, with the right ones

    def err(self, where, kind, msg): self.errors.append({"where": where, "kind": kind, "message": msg})


def _find_all(stream: str, seg: str) -> list:
    out, i = [], stream.find(seg)
    while i >= 0: out.append(i); i = stream.find(seg, i + 1)
    return out


def _diverge(stream: str, seg: str) -> str:
    "Where a segment leaves the RFC: the longest prefix (in words) the RFC has, and what follows on each side"
    words = seg.split(" ")
    lo, hi = 0, len(words)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if stream.find(" ".join(words[:mid])) >= 0: lo = mid
        else: hi = mid - 1
    if lo == 0: return f"the page shows {seg[:90]!r}, which the RFC does not have"
    pre = " ".join(words[:lo]); at = stream.find(pre) + len(pre)
    return (f"after {' '.join(words[max(0, lo - 6):lo])!r} the page shows {' '.join(words[lo:lo + 8])!r}, "
            f"the RFC {stream[at:at + 60].strip()!r}")


def _in_rfc(part: str, streams) -> bool:
    "A part of a prose quotation is the RFC's words (its first letter's case aside: a quotation may begin a sentence)"
    x = part.strip(" ,.;:")
    return any(x in st or (x[:1].swapcase() + x[1:]) in st for st in streams) if x else True


def _prefix_words(stream: str, seg: str) -> int:
    "How many of `seg`'s first words the RFC has, in a row"
    words, n = seg.split(" "), 0
    while n < len(words) and stream.find(" ".join(words[:n + 1])) >= 0: n += 1
    return n


class Checker:
    "Check pages (name, html) in navigation order; `rfc_part`: the names of the pages that make up the RFC part"

    def __init__(self, rfc_part=()):
        self.r1630, self.r1738 = rfctext.rfc1630(), rfctext.rfc1738()
        self.rfc_part = list(rfc_part)
        self.report = Report()
        self.cov = {"1630": bytearray(len(self.r1630.stream)), "1738": bytearray(len(self.r1738.stream))}
        self.cov_part = bytearray(len(self.r1630.stream))
        self.seen: dict = {}             # 1630 paragraph index -> [((page, quote, offset), where)] in the RFC part
        self.read: dict = {}             # page name -> what `read_page` found on it (its quotes, located)

    # -- one quote ------------------------------------------------------------------------------------------
    def _match_prose(self, q, stream, text, bounds, after, pages_of, cited) -> list:
        "Spans of the parts of `text` (cut at elisions); `bounds`: offsets in `text` where a displayed block starts"
        spans, pos = [], 0
        for part in ELISION.split(text):
            seg = part.strip()
            off = text.index(seg, pos) if seg else pos
            pos = off + len(seg)
            if not seg: continue
            hits = _find_all(stream, seg)
            if not hits:
                self.report.err(q.where(), "words", _diverge(stream, seg)); continue
            later = [h for h in hits if h >= after] or hits
            inside = [h for h in later if cited and cited[0] <= pages_of(h) <= cited[1]]
            h = (inside or later)[0]
            b = {h + (x - off) for x in bounds if off <= x <= off + len(seg)} | {h, h + len(seg)}
            spans.append((h, h + len(seg), b))
            after = h + len(seg)
        return spans

    def check_quote(self, q: Quote, in_part: bool, start: int = 0) -> list:
        "Check one cited quote (looked for first after `start`, where the page's last quote ended); return its spans"
        rep = self.report
        rfc = q.rfc
        if rfc not in ("1630", "1738"): return []
        rep.quotes += 1
        R = self.r1630 if rfc == "1630" else self.r1738
        stream = R.stream
        cm = re.search(r"\[?Pages? (\d+)(?:–(\d+))?\]?", q.citation)
        cited = (int(cm.group(1)), int(cm.group(2) or cm.group(1))) if cm else None
        spans, after = [], max(start, 0)
        prose, bounds = [], []

        def flush_prose():
            nonlocal prose, bounds, after
            if prose:
                text = " ".join(prose)
                got = self._match_prose(q, stream, text, bounds, after, R.page_at, cited)
                for s in got: after = s[1]
                spans.extend(got)
            prose, bounds = [], []
        subheads = self.r1630.subheadings if rfc == "1630" else set()
        for kind, t in q.blocks:
            if kind == "p" and t in subheads: continue      # an indented heading the RFC prints ("SCHEME", "Note 1:")
            if kind == "p":
                cur = len(" ".join(prose)) + (1 if prose else 0)
                bounds.append(cur); prose.append(t); bounds.append(cur + len(t))
                continue
            flush_prose()
            if rfc == "1738":          # the 1738 seed has no line breaks: its preformatted blocks are compared by words
                got = self._match_prose(q, stream, normalise(ELISION.sub(" […] ", t)), [], after, R.page_at, cited)
                for s in got: after = s[1]
                spans.extend(got); continue
            spans.extend(self._match_pre(q, t, after))
            if spans: after = spans[-1][1]
        flush_prose()
        if not spans: return []
        # layout of RFC 1630's tables and display lines
        if rfc == "1630":
            for a, b, bd in spans:
                if bd is None: continue
                for blk in self.r1630.blocks:
                    if blk.end <= a or blk.start >= b: continue
                    if blk.kind == "table":
                        rep.err(q.where(), "layout", f"{blk.text[:50]!r} (p. {blk.pages[0]}) is set as running text: "
                                f"the RFC prints it in columns; quote it as preformatted lines")
                    elif blk.kind == "display" and not ({max(a, blk.start), min(b, blk.end)} <= bd):
                        rep.err(q.where(), "layout", f"the display line {blk.text[:50]!r} (p. {blk.pages[0]}) runs "
                                f"into the text around it: the RFC prints it on a line of its own")
        self._check_citation(q, rfc, R, spans, cited)
        for a, b, _ in spans:
            for i in range(a, b): self.cov[rfc][i] = 1
            if in_part and rfc == "1630":
                for i in range(a, b): self.cov_part[i] = 1
        return spans

    def _match_pre(self, q, text, after) -> list:
        "Each line of a preformatted block must be a line RFC 1630 prints, in the RFC's order, aligned as printed"
        lines = [l.rstrip() for l in text.split("\n") if l.strip()]
        if not any(not ELISION.fullmatch(l.strip()) for l in lines): return []
        R, spans, found = self.r1630, [], []
        start = next((i for i, ln in enumerate(R.lines) if ln.end > after), 0)
        elided, prev = False, None
        for l in lines:
            c = l.strip()
            if ELISION.fullmatch(c): elided = True; continue
            idx = next((i for i in range(start, len(R.lines)) if R.lines[i].content == c), None)
            if idx is None:
                idx = next((i for i, ln in enumerate(R.lines) if ln.content == c), None)
                if idx is not None and found:
                    self.report.err(q.where(), "order", f"the line {c[:50]!r} (p. {R.lines[idx].page}) comes after "
                                    f"lines the RFC prints later, in the same box")
            if idx is None:
                near = next((i for i, ln in enumerate(R.lines) if normalise(ln.content) == normalise(c)), None)
                if near is not None:
                    self.report.err(q.where(), "layout", f"the line {c[:60]!r} (p. {R.lines[near].page}) lost the "
                                    f"RFC's spacing or alignment: it prints {R.lines[near].content[:60]!r}")
                    idx = near
                else:
                    self.report.err(q.where(), "words", f"the preformatted line {c[:70]!r} is not a line RFC 1630 prints"
                                    + (f" ({_diverge(R.stream, normalise(c))})" if len(c) > 8 else ""))
                    continue
            if prev is not None and idx > prev + 1 and not elided:
                gap = R.lines[prev + 1:idx]
                self.report.err(q.where(), "omission", f"{len(gap)} line{'s' * (len(gap) > 1)} of the RFC "
                                f"(p. {gap[0].page}, from {gap[0].content[:40]!r}) left out between "
                                f"{R.lines[prev].content[:40]!r} and {c[:40]!r} without a […] line")
            prev, elided = idx, False
            found.append((l, R.lines[idx])); start = idx + 1
            spans.append((R.lines[idx].start, R.lines[idx].end, None))
        if found:
            base_q = min(len(l) - len(l.lstrip()) for l, _ in found)
            base_r = min(ln.indent for _, ln in found)
            for l, ln in found:
                if (len(l) - len(l.lstrip())) - base_q != ln.indent - base_r:
                    self.report.err(q.where(), "layout", f"the line {ln.content[:50]!r} (p. {ln.page}) is indented "
                                    f"differently from the RFC's other lines in the box")
                    break
        return spans

    def _check_citation(self, q, rfc, R, spans, cited):
        rep = self.report
        pages = sorted({R.page_at(a) for a, b, _ in spans} | {R.page_at(max(a, b - 1)) for a, b, _ in spans})
        p1, p2 = pages[0], pages[-1]
        want_pages = f"Page {p1}" if p1 == p2 else f"Pages {p1}–{p2}"
        if cited != (p1, p2) or RFC_LINK.format(n=rfc, p=p1) not in q.links:
            rep.fixes.append({"page": q.page, "cited": q.cited, "citation": q.citation, "pages": want_pages, "first": p1, "rfc": rfc})
        if cited is None: rep.err(q.where(), "citation", f"no page in the citation {q.citation!r}: want {want_pages}")
        elif cited != (p1, p2): rep.err(q.where(), "citation", f"{q.citation!r} cites the wrong pages: the quote is on {want_pages}")
        link = RFC_LINK.format(n=rfc, p=p1)
        if link not in q.links:
            rep.err(q.where(), "citation", f"the citation must link to the first page, {link} (links: {q.links})")
        if rfc == "1630":
            got = re.findall(r'"([^"]+)"', q.citation.split("[")[0].split(" Page")[0])
            want = []
            for a, b, _ in spans:
                for blk in self.r1630.blocks:
                    if blk.end > a and blk.start < b and blk.heading not in want: want.append(blk.heading)
            if got != want:
                rep.err(q.where(), "citation", f"{q.citation!r} names the headings {got}; the quote is under {want}")
        else:
            got = re.findall(r'(?:(§[\d.]+|Appendix) )?"([^"]+)"', q.citation.split("[")[0])
            want = []
            for a, b, _ in spans:
                for s in R.sections:
                    if s.end > a and s.start < b and not any(t.number.startswith(s.number + ".") and t.end > a and
                                                              t.start < b for t in R.sections):
                        key = ("Appendix" if s.number == "APPENDIX" else "" if s.number in ("8", "9") else "§" + s.number, s.title)
                        if key not in want: want.append(key)
            if [tuple(x) for x in got] != want:
                rep.err(q.where(), "citation", f"{q.citation!r} names {got}; the quote is in "
                        + ", ".join(f'{n} "{t}"' for n, t in want))

    # -- pages ----------------------------------------------------------------------------------------------
    def check_page(self, name: str, html: str):
        rep = self.report
        page = read_page(name, html)
        self.read[name] = page
        self.check_prose(name, html)
        self.check_subtitle(name, html)
        for tag, n in sorted(page.tags.items()):
            if tag not in HTML_ELEMENTS:
                rep.err(name, "element", f"<{tag}> ({n}x) is not an HTML element: an RFC placeholder taken for a tag?")
        in_part = name in self.rfc_part
        last = {"1630": (-1, None), "1738": (-1, None)}
        cited = [q for q in page.quotes if q.citation]
        for i, q in enumerate(cited): q.cited = i
        for q in page.quotes:
            if not q.citation:
                text = " ".join(t for _, t in q.blocks)
                if len(text) > 40 and any(len(s) > 40 and (s in self.r1630.stream) for s in ELISION.split(normalise(text))):
                    rep.err(q.where(), "citation", "an RFC 1630 quote with no citation")
                continue
            spans = self.check_quote(q, in_part, last.get(q.rfc, (0, None))[0])
            if not spans: continue
            rfc = q.rfc
            R = self.r1630 if rfc == "1630" else self.r1738
            q.pages = (min(R.page_at(a) for a, _, _ in spans), max(R.page_at(max(a, b - 1)) for a, b, _ in spans))
            prev_end, prev_q = last[rfc]
            for a, b, _ in spans:
                if a < prev_end:
                    what = "quoted again" if any(a < e and b > s for s, e in self._page_spans(rfc, name)) else "out of the RFC's order"
                    where = self.r1630 if rfc == "1630" else self.r1738
                    rep.err(q.where(), "order", f"{where.stream[a:a + 50]!r} (p. {where.page_at(a)}) comes after "
                            f"{prev_q} on this page, which quotes later text: {what}")
                    break
            self._spans.setdefault((rfc, name), []).extend((a, b) for a, b, _ in spans)
            last[rfc] = (max(prev_end, max(b for _, b, _ in spans)), q.where())
            if in_part and rfc == "1630":
                pi = self.rfc_part.index(name)
                for a, b, _ in spans:
                    for blk in self.r1630.paragraphs:
                        if blk.end > a and blk.start < b:
                            self.seen.setdefault(blk.index, []).append(((pi, q.index, a), q.where()))

    def check_subtitle(self, name: str, html: str):
        "A page's subtitle that names RFC 1630's headings (`RFC 1630, \"HTTP\", pp. 13–14`) names headings it has"
        import html as h
        m = re.search(r'<p class="u1630-subtitle">(.*?)</p>', html, re.S)
        text = h.unescape(re.sub(r"<[^>]+>", "", m.group(1))) if m else ""
        if not text.startswith("RFC 1630,"): return
        head = re.split(r"\bpp?\. |RFC 1738|: ", text)[0]
        have = set(self.r1630.headings) | self.r1630.subheadings | {rfctext.TITLE}
        for x in re.findall(r'"([^"]+)"', head):
            if x not in have:
                self.report.err(name, "heading", f"the subtitle names \"{x}\", which is not a heading of RFC 1630")

    def _prose_pages(self, name, q, parts, ref):
        "The page a prose quotation names is the page its words are on (in the RFC it names, else where they are)"
        rfc, a, b = ref
        cited = (int(a), int(b or a))
        tries = [(r, R) for r, R in (("1630", self.r1630), ("1738", self.r1738)) if not rfc or rfc.endswith(r)]
        found = []
        for r, R in tries:
            first, last = parts[0].strip(" ,.;:"), parts[-1].strip(" ,.;:")
            for x in (first, first[:1].swapcase() + first[1:]):
                for i in _find_all(R.stream, x):
                    j = R.stream.find(last, i) if last else i
                    found.append((R.page_at(i), R.page_at(max(i, (j if j >= 0 else i) + len(last) - 1))))
        if found and cited not in found:
            want = found[0]
            pages = f"p. {want[0]}" if want[0] == want[1] else f"pp. {want[0]}–{want[1]}"
            self.report.err(name, "prose", f"the quotation \"{q[:70]}\" is cited as "
                            f"{'p.' if cited[0] == cited[1] else 'pp.'} {a}{'–' + b if b else ''}; its words are on {pages}")

    def check_prose(self, name: str, html: str):
        "A quotation in the prose that reads as RFC 1630's or RFC 1738's words (its first four words, or any six in "
        "a row, are the RFC's) must be the RFC's words exactly: a `[sic]` after a word the RFC misspells, `…` or "
        "`[…]` where words are left out, its own straight quotes"
        for block, q, ref in prose_quotes(html):
            if "\x01" in q: continue
            text = normalise(SIC.sub("", q))
            if len(text.split()) < 4: continue
            streams = (self.r1630.stream, self.r1738.stream)
            parts = [x for x in PROSE_ELISION.split(text) if x.strip()]
            bad = [x for x in parts if not _in_rfc(x, streams)]
            if not bad:
                titles = set(self.r1630.headings) | {t for _, t in rfctext._SECTIONS_1738}
                if ref and text not in titles: self._prose_pages(name, q, parts, ref)   # a section's name: no page
                continue
            for h in self.r1630.subheadings:     # a heading the RFC prints inside the text quoted ("User name ...")
                text = text.replace(" " + h + " ", " ")
            parts = [x for x in PROSE_ELISION.split(text) if x.strip()]
            bad = [x for x in parts if not _in_rfc(x, streams)]
            if not bad: continue
            words = text.replace("…", " ").split()
            k = 4 if len(words) > 8 else 3        # reads as the RFC's: some `k` words in a row are
            near = any(_in_rfc(" ".join(words[i:i + k]), streams) for i in range(max(1, len(words) - k + 1)))
            if not near: continue
            seg = bad[0].strip(" ,.;:")
            st = max(streams, key=lambda st: _prefix_words(st, seg))
            self.report.err(name, "prose", f"the quotation \"{q[:100]}\" is not the RFC's words: " + _diverge(st, seg))

    _spans: dict = {}

    def _page_spans(self, rfc, name): return self._spans.get((rfc, name), [])

    def finish(self) -> Report:
        rep = self.report
        R = self.r1630
        covered = lambda blk, cov: all(cov[i] or R.stream[i] == " " for i in range(blk.start, blk.end))
        paras = R.paragraphs
        missing = [b for b in paras if not covered(b, self.cov_part)]
        words = sum(b.words for b in paras)
        wcov = sum(1 for m in re.finditer(r"\S+", R.stream)
                   if all(self.cov_part[i] for i in range(m.start(), m.end()))
                   and any(b.start <= m.start() < b.end for b in paras))
        rep.coverage_1630 = {"paragraphs": len(paras) - len(missing), "of": len(paras),
                             "words": wcov, "words_of": words,
                             "missing": [f"p. {b.pages[0]} \"{b.heading}\": {b.text[:70]}" for b in missing]}
        for b in (missing if self.rfc_part else []):     # no RFC part (a test of single pages): nothing to cover
            rep.err("RFC part", "coverage", f"RFC 1630 p. {b.pages[0]}, \"{b.heading}\": {b.text[:80]!r} is not quoted")
        # order across the RFC part: reading the pages forward, one can read every paragraph in the RFC's order
        # (each paragraph at the first of its quotes that comes after the previous paragraph's)
        at = (-1, -1, -1)
        for blk in paras:
            occ = sorted(self.seen.get(blk.index, []))
            nxt = [o for o in occ if o[0] >= at]
            if nxt: at = nxt[0][0]
            elif occ:
                rep.err(occ[-1][1], "order", f"RFC 1630 p. {blk.pages[0]} \"{blk.heading}\" {blk.text[:50]!r} is quoted "
                        f"only before text that comes earlier in the RFC (read in navigation order)")
        # RFC 1738 sentences
        S = self.r1738.sentences()
        cov = self.cov["1738"]
        quoted = [s for s in S if all(cov[i] or self.r1738.stream[i] == " " for i in range(s.start, s.end))]
        rep.coverage_1738 = {"sentences": len(quoted), "of": len(S)}
        return rep


def rfc_part_pages(nbs: Path = ROOT / "nbs") -> list:
    "The RFC part in navigation order: notebooks 00a, 01-24 (no explorers), 26-28, as site page names"
    names = sorted(p.stem for p in nbs.glob("*.ipynb"))
    part = [n for n in names if re.match(r"(00a|0[1-9]|1\d|2[0-4]|2[6-8])_", n)]
    return [re.sub(r"^\d+[a-zA-Z0-9]*_", "", n.lower()) for n in part]


def nav_pages(site: Path, nbs: Path = ROOT / "nbs") -> list:
    "Every built page, the notebooks' pages in notebook order first"
    order = [re.sub(r"^\d+[a-zA-Z0-9]*_", "", p.stem.lower()) for p in sorted(nbs.glob("*.ipynb"))]
    have = {p.stem for p in site.glob("*.html")}
    return [n for n in order if n in have] + sorted(have - set(order))


def check_site(site: Path, nbs: Path = ROOT / "nbs") -> Report:
    ch = Checker(rfc_part_pages(nbs))
    ch._spans = {}
    for n in nav_pages(site, nbs):
        if n in ("rfc1630", "rfc1738"): continue          # the RFCs' own pages: the text itself, not quotes of it
        html = (site / f"{n}.html").read_text(encoding="utf-8")
        ch.check_page(n, html)
        # every quotation has its anchor and its ¶ permalink (docs/build.py, `cite_passages`)
        for q in ch.read[n].quotes:
            head = html[max(0, q.at[0] - 200):q.at[0]]
            m = re.search(r'<div class="u1630-quote" id="([^"]+)">\s*$', head)
            if not m or f'href="#{m.group(1)}"' not in html[q.at[1]:q.at[1] + 300]:
                ch.report.err(q.where(), "permalink", "the quotation has no anchor and ¶ permalink")
    for rfc in ("1630", "1738"):                          # each RFC page of the site's copy lists its passages
        f = site / f"rfc{rfc}.html"
        if not f.exists(): ch.report.err(f"rfc{rfc}", "pages", f"the site has no copy of RFC {rfc}"); continue
        empty = re.findall(r'<div class="u1630-quoted-by" data-rfc="\d+" data-page="(\d+)">\s*</div>', f.read_text())
        if empty: ch.report.err(f"rfc{rfc}", "pages", f"pages {empty} were not given their passages")
    return ch.finish()


def main(argv) -> int:
    site = ROOT / (argv[argv.index("--site") + 1] if "--site" in argv else "_site")
    if not (rfctext.SEEDS / "rfc1630.txt").exists():
        print(f"[text] the RFC texts are not in ../shared/seeds (next to the repository): cannot check"); return 1
    rep = check_site(site)
    for e in rep.errors: print(f"[text] {e['where']}: {e['kind']}: {e['message']}")
    c, d = rep.coverage_1630, rep.coverage_1738
    print(f"[text] {rep.quotes} RFC quotes checked; {len(rep.errors)} problems")
    print(f"[text] RFC 1630 in the RFC part: {c['paragraphs']}/{c['of']} paragraphs, {c['words']}/{c['words_of']} words "
          f"({100 * c['words'] / max(1, c['words_of']):.1f}%)")
    print(f"[text] RFC 1738 sections 2-6 and Appendix: {d['sentences']}/{d['of']} sentences quoted "
          f"({100 * d['sentences'] / max(1, d['of']):.0f}%) (reported, not required)")
    if "--json" in argv:
        Path(argv[argv.index("--json") + 1]).write_text(json.dumps(rep.__dict__, indent=1, ensure_ascii=False))
    return 1 if rep.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
