"""The texts the edition quotes, loaded once and cut the way the text check (docs/textcheck.py) reads them.

RFC 1630 (`../shared/seeds/rfc1630.txt`, or the copy in `docs/rfc/`, paged, `[Page N]` footers) becomes a list of `Block`s in the RFC's
order: headings (column 0), then the paragraphs and display blocks (lines between blank lines), each with
its heading and its pages; a paragraph that runs over a page break is one block. `stream` is the text a reader
reads, whitespace collapsed: every block's lines joined by one space (no space after a word broken at a
hyphen, `www-` / `talk`), blocks joined by one space; each line and block knows its span in it.

RFC 1738 (`../shared/seeds/001_*.txt`, whitespace-collapsed, non-breaking spaces, footers inline) becomes
`stream` with its section of each character and its page; `sentences()` cuts sections 2-6 and the Appendix
into sentences.

Nothing here knows HTML: `normalise` is the one rule both sides of a comparison go through.
"""
import bisect, re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENDORED = ROOT / "docs" / "rfc"             # rfc1630.txt and rfc1738.txt, shipped with the repository


def _seeds() -> Path:
    """Where the RFC texts are read from: $URI1630_SEEDS, else the shared, read-only seeds next to the repository
    (../shared/seeds), else the copies in docs/rfc/ (a clone copied elsewhere, an unpacked sdist, CI's fresh venv)"""
    import os
    env = os.environ.get("URI1630_SEEDS")
    if env: return Path(env)
    shared = ROOT.parent / "shared" / "seeds"
    return shared if (shared / "rfc1630.txt").is_file() else VENDORED


SEEDS = _seeds()

__all__ = ["normalise", "Block", "Line", "RFC1630", "RFC1738", "Section", "Sentence", "rfc1630", "rfc1738", "SEEDS", "VENDORED"]


def normalise(s: str) -> str:
    "Whitespace collapsed to single spaces (non-breaking spaces too), ends stripped; nothing else changes"
    return re.sub(r"[ \t\r\n\u00a0]+", " ", s).strip()


@dataclass
class Line:
    "One printed line of RFC 1630: its text as printed (indentation kept), its page, its span in `stream`"
    text: str
    page: int
    start: int = 0
    end: int = 0

    @property
    def indent(self) -> int: return len(self.text) - len(self.text.lstrip(" "))

    @property
    def content(self) -> str: return self.text.strip()


@dataclass
class Block:
    "A heading, paragraph or display block of RFC 1630 (`kind`: heading, subheading, prose, display or table)"
    index: int
    kind: str
    heading: str          # the column-0 heading it is under ('' for a heading itself... see `RFC1630`)
    lines: list = field(default_factory=list)
    start: int = 0
    end: int = 0

    @property
    def pages(self) -> tuple: return (self.lines[0].page, self.lines[-1].page)

    stream: str = field(default="", repr=False)

    @property
    def text(self) -> str:
        "Its text as read: lines joined as in `RFC1630.stream`"
        return self.stream[self.start:self.end] if self.stream else normalise(" ".join(l.content for l in self.lines))

    @property
    def words(self) -> int: return len(self.text.split())


_FOOTER = re.compile(r"^Berners-Lee\s+\[Page (\d+)\]\s*$")
_HEADER = re.compile(r"^RFC 1630\s+URIs in WWW\s+June 1994\s*$")
TITLE = "Universal Resource Identifiers in WWW"


def _kind(lines: list) -> str:
    "table: columns aligned by runs of spaces (BNF, two-column lists); display: an indented line of its own"
    if any(re.search(r"[^\s.] {3,}\S", l.text) for l in lines): return "table"
    if len(lines) > 1 and any(l.indent >= lines[0].indent + 8 for l in lines[1:]): return "table"
    if len(lines) == 1 and (lines[0].indent >= 8 or "://" in lines[0].text) and not lines[0].content.endswith("."):
        return "display"
    return "prose"


class RFC1630:
    "RFC 1630 cut into blocks, with the reading stream and the printed lines"

    def __init__(self, text: str):
        self.pages: dict = {}                       # page number -> its printed lines (header and footer removed)
        page, cur = 1, []
        for raw in text.split("\n"):
            m = _FOOTER.match(raw)
            if m:
                self.pages[int(m.group(1))] = cur; page, cur = int(m.group(1)) + 1, []; continue
            if _HEADER.match(raw): continue
            cur.append(raw.rstrip())
        if any(l.strip() for l in cur): self.pages[page] = cur
        self.blocks: list = []
        heading, pending, para = TITLE, [], []

        def flush():
            nonlocal para
            if para: self.blocks.append(Block(len(self.blocks), _kind(para), heading, para))
            para = []
        for n in sorted(self.pages):
            lines = self.pages[n]
            # a paragraph runs over the page break when the last block of the page does not end a sentence and
            # the next page's first line goes on in lower case (or is indented deeper than a heading)
            for raw in lines:
                if not raw.strip():
                    if para: pending.append("")
                    continue
                ln = Line(raw, n)
                if ln.indent == 0 and "://" not in raw and not raw.startswith(("Network Working Group",
                                                                               "Request for Comments", "Category:")):
                    flush(); pending = []
                    heading = raw.strip().rstrip(":")
                    self.blocks.append(Block(len(self.blocks), "heading", heading, [ln]))
                    continue
                if pending and para:
                    prev = para[-1]
                    same_para = (prev.page != n and pending and not prev.content.endswith((".", ":"))
                                 and ln.content[:1].islower() and ln.indent == para[0].indent
                                 and _kind(para) == "prose")
                    if not same_para: flush()
                pending = []
                para.append(ln)
            # page end: keep `para` open, the next page decides
            pending = [""] if para else []
        flush()
        for b, nxt in zip(self.blocks, self.blocks[1:]):   # an indented heading ("THE PERCENT SIGN", "Example 1",
            t = b.lines[0].content  # "Note 1:"): structure, which the edition's pages give as their own headings
            if (b.kind != "heading" and len(b.lines) == 1 and b.lines[0].indent < 8 and t[:1].isupper()
                    and not t.endswith(".") and len(t.split()) <= 8 and b.heading not in ("References", "Author's Address")
                    and not (t.endswith(":") and len(t.split()) > 2) and nxt.kind not in ("display", "table")):
                b.kind = "subheading"
        # the reading stream
        out, pos = [], 0
        for b in self.blocks:
            if b.kind == "subheading":
                b.start = b.end = pos
                for ln in b.lines: ln.start = ln.end = pos
                continue
            if out: out.append(" "); pos += 1
            b.start = pos
            for i, ln in enumerate(b.lines):
                if i:
                    prev = b.lines[i - 1].content
                    sep = "" if re.search(r"[A-Za-z]-$", prev) and b.kind == "prose" else " "
                    out.append(sep); pos += len(sep)
                c = normalise(ln.content)
                ln.start = pos; out.append(c); pos += len(c); ln.end = pos
            b.end = pos
        self.stream = "".join(out)
        for b in self.blocks: b.stream = self.stream
        self.lines = [ln for b in self.blocks if b.kind != "subheading" for ln in b.lines]
        self._ends = [ln.end for ln in self.lines]

    def block_at(self, pos: int) -> Block:
        "The block whose span holds `pos` (or the next one)"
        for b in self.blocks:
            if pos < b.end: return b
        return self.blocks[-1]

    def page_at(self, pos: int) -> int:
        "The page of the character at `pos` of `stream`"
        i = bisect.bisect_right(self._ends, pos)
        return self.lines[min(i, len(self.lines) - 1)].page

    @property
    def paragraphs(self) -> list:
        "Every block but the headings: what coverage counts"
        return [b for b in self.blocks if b.kind not in ("heading", "subheading")]

    @property
    def subheadings(self) -> set:
        "The indented headings (\"THE PERCENT SIGN\", \"Example 1\"): a quote may show them or leave them out"
        return {b.lines[0].content for b in self.blocks if b.kind == "subheading"}

    @property
    def headings(self) -> list:
        return [b.heading for b in self.blocks if b.kind == "heading"]


# ---------------------------------------------------------------------------------------------------------
# RFC 1738
@dataclass
class Section:
    "A numbered section of RFC 1738 ('APPENDIX' for the appendix), its title as printed, its span in `stream`"
    number: str
    title: str
    start: int
    end: int = 0


@dataclass
class Sentence:
    "A sentence of RFC 1738 (a BNF production line counts as one), its section and its span in `stream`"
    section: str
    text: str
    start: int
    end: int


# (number, title as printed): the headings of RFC 1738, in order (the seed writes some numbers with a final dot)
_SECTIONS_1738 = [
    ("1", "Introduction"), ("2", "General URL Syntax"), ("2.1", "The main parts of URLs"),
    ("2.2", "URL Character Encoding Issues"), ("2.3", "Hierarchical schemes and relative links"),
    ("3", "Specific Schemes"), ("3.1", "Common Internet Scheme Syntax"), ("3.2", "FTP"),
    ("3.2.1", "FTP Name and Password"), ("3.2.2", "FTP url-path"), ("3.2.3", "FTP Typecode is Optional"),
    ("3.2.4", "Hierarchy"), ("3.2.5", "Optimization"), ("3.3", "HTTP"), ("3.4", "GOPHER"),
    ("3.4.1", "Gopher URL syntax"), ("3.4.2", "Specifying URLs for Gopher Search Engines"),
    ("3.4.3", "URL syntax for Gopher+ items"), ("3.4.4", "Default Gopher+ data representation"),
    ("3.4.5", "Gopher+ items with electronic forms"), ("3.4.6", "Gopher+ item attribute collections"),
    ("3.4.7", "Referring to specific Gopher+ attributes"), ("3.4.8", "URL syntax for Gopher+ alternate views"),
    ("3.4.9", "URL syntax for Gopher+ electronic forms"), ("3.5", "MAILTO"), ("3.6", "NEWS"), ("3.7", "NNTP"),
    ("3.8", "TELNET"), ("3.9", "WAIS"), ("3.10", "FILES"), ("3.11", "PROSPERO"),
    ("4", "REGISTRATION OF NEW SCHEMES"), ("5", "BNF for specific URL schemes"), ("6", "Security Considerations"),
    ("7", "Acknowledgements"), ("APPENDIX", "Recommendations for URLs in Context"), ("8", "References"),
    ("9", "Editors' Addresses"),
]
_FOOTER_1738 = re.compile(r"\s*Berners-Lee, Masinter & McCahill\s+\[Page (\d+)\]"
                          r"(?:\s+RFC 1738\s+Uniform Resource Locators \(URL\)\s+December 1994)?\s*")
SECTIONS_1738 = [n for n, _ in _SECTIONS_1738]
REPORTED_1738 = [n for n in SECTIONS_1738 if n.split(".")[0] in ("2", "3", "4", "5", "6") or n == "APPENDIX"]


class RFC1738:
    "RFC 1738 as one reading stream (footers removed), with its sections and pages"

    def __init__(self, text: str):
        text = text.replace("\u00a0", " ")
        text = text[text.index("Network Working Group"):]       # the seed's first line is a reader's note
        # pages: each footer ends page N; remove footers, remember where each page ends in the joined text
        parts, page_ends, last = [], [], 0
        for m in _FOOTER_1738.finditer(text):
            parts.append(text[last:m.start()]); parts.append(" "); last = m.end()
            page_ends.append((sum(map(len, parts)), int(m.group(1))))
        parts.append(text[last:])
        raw = "".join(parts)
        # a word broken at a line's end ("World-    Wide") is one word again; then whitespace collapsed. The
        # line break's spaces become as many \x00 (dropped below), so `raw` keeps its length and the page ends
        # recorded above stay where the footers were (a shorter `raw` moved every later page end late)
        raw = re.sub(r"(?<=[A-Za-z])- {4,}(?=[A-Za-z])", lambda m: "-" + "\x00" * (len(m.group(0)) - 1), raw)
        # map raw offsets to stream offsets while collapsing
        out, rawpos, pos = [], [], 0
        prev_space = True
        for i, ch in enumerate(raw):
            if ch == "\x00": continue
            if ch in " \t\r\n":
                if prev_space: continue
                ch = " "; prev_space = True
            else: prev_space = False
            out.append(ch); rawpos.append(i)
        stream = "".join(out).rstrip()
        self.stream = stream
        self._page_at = []       # stream offset where each page ends
        j = 0
        for rend, n in page_ends:
            while j < len(rawpos) and rawpos[j] < rend: j += 1
            self._page_at.append((j, n))
        # sections, found in order
        self.sections: list = []
        at = 0
        for n, title in _SECTIONS_1738:
            num = re.escape(n) + r"\.?" if n != "APPENDIX" else "APPENDIX:"
            if n == "8": num = ""          # the seed prints the references' heading without its number
            if n == "9": num = ""
            pat = (num + r"\s+" if num else "") + re.escape(title)
            m = re.compile(pat).search(stream, at)
            if not m: raise ValueError(f"RFC 1738 section {n} {title!r} not found")
            self.sections.append(Section(n, title, m.start()))
            at = m.end()
        for a, b in zip(self.sections, self.sections[1:]): a.end = b.start
        self.sections[-1].end = len(stream)

    def page_at(self, pos: int) -> int:
        "The page of the character at `pos`"
        for end, n in self._page_at:
            if pos < end: return n
        return self._page_at[-1][1] if self._page_at else 1

    def section_at(self, pos: int) -> Section:
        "The (innermost) section holding `pos`"
        for s in self.sections:
            if s.start <= pos < s.end: return s
        return self.sections[0] if pos < self.sections[0].start else self.sections[-1]

    def section(self, number: str) -> Section:
        return next(s for s in self.sections if s.number == number)

    def heading_span(self, s: Section) -> tuple:
        "The span of a section's own heading (number and title) in `stream`"
        return s.start, self.stream.index(s.title, s.start) + len(s.title)

    def sentences(self, numbers=None) -> list:
        "The sentences of the sections `numbers` (default: 2-6 and the Appendix), headings left out"
        out = []
        for s in self.sections:
            if s.number not in (numbers or REPORTED_1738): continue
            body_start = self.heading_span(s)[1]
            body = self.stream[body_start:s.end]
            for m in re.finditer(r"\S.*?(?:(?<![^\s(]\.[a-z])(?<!\be\.g)(?<!\bi\.e)(?<!\betc)[.:;](?=\s+[A-Z<\"(\[]|\s*$)|$)",
                                 body, re.S):
                t = m.group(0).strip()
                if len(re.sub(r"\W", "", t)) < 2: continue
                out.append(Sentence(s.number, t, body_start + m.start(), body_start + m.start() + len(m.group(0).rstrip())))
        return out


@lru_cache(maxsize=None)
def rfc1630(path: str = "") -> RFC1630:
    "RFC 1630, read from the shared seeds (or `path`)"
    return RFC1630(Path(path or SEEDS / "rfc1630.txt").read_text())


@lru_cache(maxsize=None)
def rfc1738(path: str = "") -> RFC1738:
    "RFC 1738, read from the shared seeds (or `path`)"
    p = Path(path) if path else next(iter(sorted(SEEDS.glob("001_*.txt"))), SEEDS / "rfc1738.txt")
    return RFC1738(p.read_text())


# ---------------------------------------------------------------------------------------------------------
# writing quotes (used to write the notebooks' quotes and the text check's tests)
_MD_ESCAPE = re.compile(r"([\\`*_<>\[\]])")


def md_escape(s: str) -> str:
    "Markdown that displays `s` as written: backslash, backtick, `*`, `_`, `<`, `>` and brackets escaped"
    s = _MD_ESCAPE.sub(r"\\\1", s)
    return re.sub(r"&(?=#?\w+;)", "&amp;", s)


def citation_1630(blocks: list, link: bool = True) -> str:
    "`— RFC 1630, \"Heading\", [Page N](…#page-N)` for the blocks quoted (headings in order, first page linked)"
    heads = []
    for b in blocks:
        if b.heading not in heads: heads.append(b.heading)
    p1, p2 = min(b.pages[0] for b in blocks), max(b.pages[1] for b in blocks)
    pages = f"Page {p1}" if p1 == p2 else f"Pages {p1}–{p2}"
    h = ", ".join(f'"{x}"' for x in heads)
    return f"— RFC 1630, {h}, " + (f"[{pages}](https://www.rfc-editor.org/rfc/rfc1630#page-{p1})" if link else pages)


def markdown_quote(blocks: list) -> str:
    "A markdown blockquote of consecutive RFC 1630 blocks as printed: prose unwrapped, tables, BNF and display "
    "lines preformatted with the RFC's alignment, then the citation"
    out = []
    i = 0
    while i < len(blocks):
        b = blocks[i]
        if b.kind in ("table", "display"):
            group = [b]
            while i + 1 < len(blocks) and blocks[i + 1].kind in ("table", "display") and \
                    blocks[i + 1].lines[0].indent == b.lines[0].indent: i += 1; group.append(blocks[i])
            base = min(l.indent for g in group for l in g.lines)
            body = "\n\n".join("\n".join(l.text[base:] for l in g.lines) for g in group)
            out.append("```text\n" + body + "\n```")
        else:
            out.append(md_escape(b.text))
        i += 1
    out.append(citation_1630(blocks))
    return "\n".join(("> " + l) if l else ">" for l in "\n\n".join(out).split("\n"))


# ---------------------------------------------------------------------------------------------------------
# the RFCs page by page, as printed (the site's own copy of each RFC: docs/build.py, `rfc_pages`)
def printed_pages_1630(text: str) -> dict:
    "RFC 1630's pages as printed, line for line: page N -> its lines, its header first (pages 2-28) and its "
    "footer `Berners-Lee  [Page N]` last; the blank lines between a footer and the next header left out"
    pages, cur = {}, []
    for raw in text.split("\n"):
        cur.append(raw.rstrip())
        m = _FOOTER.match(raw)
        if m:
            while cur and not cur[0].strip(): cur.pop(0)
            pages[int(m.group(1))] = cur; cur = []
    return pages


_FOOTER_RAW_1738 = re.compile(r"[ \u00a0]*(Berners-Lee, Masinter & McCahill[ \u00a0]+\[Page (\d+)\])")
_HEADER_1738 = "RFC 1738            Uniform Resource Locators (URL)        December 1994"


_COLUMN0_1738 = {1: ("Request for Comments: 1738", "Category: Standards Track", "Status of this Memo", "Abstract")}


def printed_pages_1738(text: str) -> dict:
    "RFC 1738's pages from the whitespace-collapsed seed: page N -> its lines, rebuilt. The seed joined every line "
    "with one space and kept each line's indentation as non-breaking spaces, so a line that starts indented starts "
    "again here; a line that starts in column 0 (a heading, a BNF production, a `;` comment in §5) is found by "
    "its form (the section titles, `name = `, ` ; `); blank lines are not in the seed and are not shown. Words, "
    "spacing inside a line and page ends are the seed's"
    text = text[text.index("Network Working Group"):]
    titles = [(n, t) for n, t in _SECTIONS_1738]
    pages, last = {}, 0
    for m in _FOOTER_RAW_1738.finditer(text):
        body = text[last:m.start()].strip(" ")
        last = m.end()
        n = int(m.group(2))
        lines = []
        if body.replace("\u00a0", " ").startswith(_HEADER_1738.split()[0]) and n > 1:
            hdr = re.match(r"RFC 1738[ \u00a0]+Uniform Resource Locators \(URL\)[ \u00a0]+December 1994 ?", body)
            if hdr: lines.append(hdr.group(0).replace("\u00a0", " ").rstrip()); body = body[hdr.end():]
        # a line that begins indented: the seed's one space, then the indentation (non-breaking spaces)
        body = re.sub(r" (?=\u00a0)", "\n", body)
        # section headings begin a line and are a line of their own
        for num, title in titles:
            pat = (re.escape(num) + r"\.?" if num not in ("APPENDIX", "8", "9") else
                   ("APPENDIX:" if num == "APPENDIX" else ""))
            body = re.sub(r"(?:(?<= )|(?<=^))(" + (pat + "[ \u00a0]+" if pat else "") + re.escape(title) + r")(?:[ \n]|$)",
                          lambda k: "\n" + k.group(1) + "\n", body, count=1, flags=re.M)
        for start in _COLUMN0_1738.get(n, ()):     # the front matter's lines that begin in column 0
            head = start in ("Status of this Memo", "Abstract")
            body = re.sub(r"(?<=\S) (" + re.escape(start) + r")(?:" + (" ?" if head else "") + r"(?=[ \u00a0\n]|$))",
                          lambda k: "\n" + k.group(1) + ("\n" if head else ""), body, count=1)
        if 17 <= n <= 20:   # §5, the BNF: productions and comments that begin in column 0
            body = re.sub(r"(?<=[^\u00a0\n]) (?=[\w+-]+(?:\u00a0+ | )= )", "\n", body)
            body = re.sub(r"(?<=[^\u00a0\n=|]) (?=; )", "\n", body)
        lines += [l.replace("\u00a0", " ").rstrip() for l in body.split("\n") if l.strip()]
        footer = m.group(1).replace("\u00a0", " ")
        lines.append(footer)
        pages[n] = lines
    return pages


@lru_cache(maxsize=None)
def printed_pages(rfc: str) -> dict:
    "`printed_pages_1630` or `printed_pages_1738` of the seed the checks read"
    if rfc == "1630": return printed_pages_1630((SEEDS / "rfc1630.txt").read_text())
    p = next(iter(sorted(SEEDS.glob("001_*.txt"))), SEEDS / "rfc1738.txt")
    return printed_pages_1738(p.read_text())
