"""Run every vendored peer test case through the nearest uri1630 operation and classify it.

Every case ends in exactly one of:
- "agree": uri1630 gives the peer's expected answer;
- "differs": it does not, for a reason keyed by a kind in `KINDS`, each with the RFC 1630 / RFC 1738
  sentence that decides it (the predicate of a kind must match the case, or the case is unexplained);
- "not comparable": the case tests something RFC 1630 and RFC 1738 have no notion of (`NOT_COMPARABLE`),
  decided from the input alone, before uri1630 is run.
A case that fits none of these is "unexplained": tests/test_peers.py fails on it.
Used by tests/test_peers.py and by nbs/33_then_and_now.ipynb (the table "Where uri1630 differs from the Web").
"""
import json, re
from pathlib import Path
from typing import Callable, NamedTuple, Optional

from uri1630 import resolve, parse, parse_url, validate, equivalent, compare, canonical, URIError, SCHEMES

HERE = Path(__file__).resolve().parent
PEERS = ("cpython", "rfc3986", "uritools", "hyperlink", "w3lib")


def load(peer: str) -> dict:
    "The vendored table of `peer` (see extract.py)"
    return json.loads((HERE / f"{peer}.json").read_text(encoding="utf-8"))


# ---- the nearest uri1630 operation for each kind of peer test ----
def _split(u):
    p = parse(u)
    return (p.scheme, p.path, p.search, p.fragment)


def _invalid_rule(u):
    "`None` if `u` is valid (RFC 1738 for its schemes, else RFC 1630's generic BNF, partial forms allowed), else the rule it breaks"
    s = parse(u).scheme
    try:
        if s is not None and s.lower() in SCHEMES: parse_url(u)
        else: validate(u, "generic", partial=True)
    except URIError as e: return e.rule
    return None


def _valid(u): return _invalid_rule(u) is None


def run(case: dict):
    "uri1630's answer to `case` (an error is the text 'URIError')"
    op, a = case["op"], case["args"]
    try:
        if op == "join": return resolve(a[0], a[1])
        if op == "split": return _split(a[0])
        if op == "valid": return _valid(a[0])
        if op == "equivalent": return equivalent(a[0], a[1])
        if op == "remove_dots":
            p = a[0]
            return resolve("http://h/", p)
        if op == "canonical": return canonical(a[0])
        if op == "scheme": return parse(a[0]).scheme
    except URIError:
        return "URIError"
    raise ValueError(op)


def expected(case: dict):
    "The peer's expected answer, in the form `run` gives"
    op, e = case["op"], case["expected"]
    if op == "split":
        scheme, auth, path, q, f = e
        return (scheme, ("//" + auth if auth is not None else "") + path, q, f)
    if op == "remove_dots":
        return "http:" + e if e.startswith("//") else "http://h" + e if e.startswith("/") else "http://h/" + e
    return e


# ---- classification ----
class Kind(NamedTuple):
    "A kind of difference, the sentence that decides it, and the predicate that recognises it"
    sentence: str            # the RFC 1630 / 1738 sentence (or the notebook decision) that decides it
    where: str               # heading and page
    test: Callable           # (case, ours) -> bool: the case is of this kind


def _ref(case): return case["args"][1] if case["op"] == "join" else case["args"][0]
def _path(r): return re.split(r"[?#]", r, maxsplit=1)[0]
def _segs(r): return _path(r).split("/")
def _scheme(u):
    s = parse(u).scheme
    return s.lower() if s else s
def _is_abs(u): return parse(u).scheme is not None


LAST_PART = ('The last part of the path of the context URI (anything following the rightmost slash) is removed, '
             'and the given partial URI appended in its place')
DOTS = 'Within the result, all occurrences of "xxx/../" or "/." are recursively removed, where xxx, ".." and "." are complete path elements.'
P10 = 'RFC 1630, "Partial (relative) form", p. 10'

SLASHES = ('If the partial URI starts with a non-zero number of consecutive slashes, then everything from the context URI '
           'up to (but not including) the first occurrence of exactly the same number of consecutive slashes which has no '
           'greater number of consecutive slashes anywhere to the right of it is taken to be the same and so prepended to '
           'the partial URL to form the full URL.')
_VOID_SITE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:///[^?#]*//")

KINDS = {
    "void-site-slashes": Kind(SLASHES + ' (RFC 1630 counts runs of slashes in the whole context, and has no authority: in '
                              'http:///a//b/c, whose site is void, "/g" goes back to the last single slash (http:///a//b/g), '
                              '"//g" to the first run of exactly two (http:///a//g), and "b", the element after that run, is where '
                              '".." stops; RFC 3986 cuts at the empty authority: http:///g, http://g, http:///)', P10,
                              lambda c, o: c["op"] == "join" and _VOID_SITE.match(c["args"][0]) is not None),
    "search-alone": Kind(LAST_PART + ' (the partial "?y" takes the place of the last part: uri1630 keeps '
                         'RFC 1630\'s answer http://a/b/c/?y; RFC 1808 and later keep the path)', P10,
                         lambda c, o: c["op"] == "join" and _ref(c).startswith("?")),
    "final-dots": Kind(DOTS + ' (a final "/." is removed with its slash, and a final ".." likewise, as in the author\'s '
                       'libwww 2.10: http://a/b/c/d + ".." is http://a/b; RFC 1808 and later keep the slash)', P10,
                       lambda c, o: c["op"] in ("join", "remove_dots") and _segs(_ref(c))[-1] in (".", "..")
                       and isinstance(o, str) and o + "/" == expected(c)),
    "above-root": Kind(DOTS + ' (a ".." with no element before it to remove is kept: RFC 1630 has no rule that drops it; '
                       'RFC 3986 drops it)', P10,
                       lambda c, o: c["op"] in ("join", "remove_dots") and isinstance(o, str) and re.search(r"/\.\.(/|$)", o) is not None
                       and ".." in _segs(_ref(c))),
    "scheme-means-absolute": Kind('A partial form can be distinguished from an absolute form in that the latter must have a colon '
                                  'and that colon must occur before any slash characters. ("http:g" has a scheme: it is '
                                  'absolute, and used as given, whatever the context\'s scheme)', 'RFC 1630, "Partial (relative) form", p. 10',
                                  lambda c, o: c["op"] == "join" and _is_abs(_ref(c)) and o == _ref(c)
                                  and _scheme(_ref(c)) == _scheme(c["args"][0]) and expected(c) != _ref(c)),
    "context-fragment": Kind('The hash ("#", ASCII 23 hex) character is reserved as a delimiter to separate the URI of an object '
                             'from a fragment identifier. (The context\'s fragment-id is not part of its URI: a void partial '
                             'names the context object without it; nbs/07 decision)', 'RFC 1630, "HASH FOR FRAGMENT IDENTIFIERS", p. 7',
                             lambda c, o: c["op"] == "join" and _ref(c) == "" and "#" in c["args"][0]),
    "relative-context": Kind('In the World-Wide Web applications, the context URI is that of the document or object containing '
                             'a reference. (Within "a object whose URI is well defined": a context without a scheme is refused)',
                             P10, lambda c, o: c["op"] == "join" and not _is_abs(c["args"][0]) and o == "URIError"),
    # validation
    "hostname": Kind('The fully qualified domain name of a network host, or its IP address as a set of four decimal digit groups '
                     'separated by ".". [...] a sequence of domain labels separated by ".", each domain label starting and ending '
                     'with an alphanumerical character and possibly also containing "-" characters. The rightmost domain label will '
                     'never start with a digit', 'RFC 1738, "3.1. Common Internet Scheme Syntax", p. 6',
                     lambda c, o: c["op"] == "valid" and o is False and _invalid_rule(c["args"][0]) in ("host", "hostname", "hostnumber")),
    "http-login": Kind('An HTTP URL takes the form: http://<host>:<port>/<path>?<searchpart> (no <user>:<password>@; '
                       'the BNF: httpurl = "http://" hostport [ "/" hpath [ "?" search ]])', 'RFC 1738, "3.3. HTTP", p. 9, and §5',
                       lambda c, o: c["op"] == "valid" and o is False and _invalid_rule(c["args"][0]) == "hostport"),
    "http-search-slash": Kind('Within the <path> and <searchpart> components, "/", ";", "?" are reserved. '
                              '(search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]: a "/" in a search must be encoded)',
                              'RFC 1738, "3.3. HTTP", p. 9, and §5', lambda c, o: c["op"] == "valid" and o is False
                              and _invalid_rule(c["args"][0]) == "search" and "/" in (parse(c["args"][0]).search or "")),
    "reserved-in-search": Kind('search  xalphas [ + search ]; reserved  = | ; | / | # | ? | : | space (outside RFC 1738\'s '
                               'schemes, only RFC 1630\'s generic BNF applies, and "=", "/" and ":" are reserved characters, '
                               'not xalphas)', 'RFC 1630, "BNF of Generic URI Syntax", pp. 22-23',
                               lambda c, o: c["op"] == "valid" and o is False and _invalid_rule(c["args"][0]) == "xalpha"
                               and re.search(r"[=/:]", parse(c["args"][0]).search or "") is not None),
    "opaque-site": Kind('The path is interpreted in a manner dependent on the protocol being used. (A scheme that RFC 1738 does '
                        'not define, such as https, is checked against RFC 1630\'s generic BNF only, which has no host or port)',
                        'RFC 1630, "URI syntax", p. 6', lambda c, o: c["op"] == "valid" and o is True and c["expected"] is False
                        and (_scheme(c["args"][0]) or "") not in SCHEMES),
    # the host, the port and the scheme name as written
    "localhost-kept": Kind('As a special case, <host> can be the string "localhost" or the empty string; this is interpreted '
                           'as `the machine from which the URL is being interpreted\'. (Both name the same machine, and '
                           'equivalent compares them as one; resolve and canonical keep the host as written: '
                           'file://localhost/etc/motd stays so, where WHATWG parsers write file:///etc/motd)', 'RFC 1738, "3.10 FILES", p. 15',
                           lambda c, o: c["op"] in ("join", "canonical") and isinstance(o, str) and "localhost" in o.lower()
                           and "localhost" not in str(expected(c)).lower()),
    "port-as-written": Kind('Another port number may optionally be supplied, in decimal, separated from the host by a colon. '
                            '(canonical is an encoding level, not a site rule: it keeps the port as written, leading zeros '
                            'and the default port included, so http://h:080/ stays so; equivalent compares ports as numbers '
                            'and knows the defaults; WHATWG parsers rewrite the port, and drop a default one)',
                            'RFC 1738, "3.1. Common Internet Scheme Syntax", p. 6',
                            lambda c, o: c["op"] == "canonical" and isinstance(o, str) and _port(o) != _port(str(expected(c)))),
    "scheme-length": Kind('Scheme names consist of a sequence of characters. (RFC 1738 sets no length limit, and uri1630 '
                          'none: curl reads at most 40 characters as a scheme name, and a longer one is no scheme for it)',
                          'RFC 1738, "2.1. The main parts of URLs", p. 2',
                          lambda c, o: c["op"] == "scheme" and isinstance(o, str) and len(o) > 40 and expected(c) is None),
    # equivalence
    "search-rewritten": Kind('The query string represents some operation applied to the object, but this specification gives no '
                             'common syntax or semantics for it. (uri1630 compares searches as written, up to encoding: it does '
                             'not sort, drop or re-encode parameters)', 'RFC 1630, "QUERY STRINGS", p. 7',
                             lambda c, o: c["op"] == "equivalent" and o is False and _differ_only_in(c, "search")),
    "fragment-kept": Kind('The hash ("#", ASCII 23 hex) character is reserved as a delimiter to separate the URI of an object from '
                          'a fragment identifier. (A reference with a fragment-id names a part of the object: equivalent compares '
                          'it; canonicalizers drop it)', 'RFC 1630, "HASH FOR FRAGMENT IDENTIFIERS", p. 7',
                          lambda c, o: c["op"] == "equivalent" and o is False and _differ_only_in(c, "fragment")),
    "dots-in-absolute": Kind(DOTS + ' ("Within the result" of resolving a partial form: an absolute URI is used as given, '
                             'its "xxx/../" is not removed; an encoded %2E%2E is data)', P10,
                             lambda c, o: c["op"] == "equivalent" and o is False and _differ_only_in(c, "path")
                             and any(re.search(r"/(\.|\.\.|%2[Ee]%2[Ee])(/|\?|#|$)", a) for a in c["args"])),
    "empty-port": Kind('Another port number may optionally be supplied, in decimal, separated from the host by a colon. If the '
                       'port is omitted, the colon is as well.', 'RFC 1738, "3.1. Common Internet Scheme Syntax", p. 6',
                       lambda c, o: c["op"] == "equivalent" and o is False and re.search(r"//[^/?#]*:(/|$)", c["args"][0]) is not None),
    "surrounding-space": Kind('URLs are written only with the graphic printable characters of the US-ASCII coded character set. '
                              '(Whitespace around a URL in text is dropped when extracting it, by uri1630.context, not by equivalent)',
                              'RFC 1738, "2.2. URL Character Encoding Issues", p. 2', lambda c, o: c["op"] == "equivalent" and o is False
                              and any(a != a.strip() for a in c["args"])),
    "partial-form": Kind('It must be emphasized that when a reference is passed in anything other than a well controlled context, '
                         'the full form must always be used. (A partial form such as "?b=1" names nothing until it is resolved: '
                         'it is not rewritten into another partial)', 'RFC 1630, "Partial (relative) form", p. 10',
                         lambda c, o: c["op"] == "equivalent" and o is False and not _is_abs(c["args"][0])),
}


def _port(u):
    "The port of `u` as written (`None` if none is written)"
    m = re.match(r"[^:/?#]+://[^/?#]*?:(\d*)(?:[/?#]|$)", u)
    return m.group(1) if m else None


def _differ_only_in(case, part):
    "`True` if `compare` finds the two URIs of an equivalence case differ in `part` and nowhere else"
    r = compare(*case["args"][:2])
    return bool(r.reasons) and {x.part for x in r.reasons if x.kind not in ("case", "encoding", "void-fragment",
                                 "host-case", "default-port", "void-path", "localhost")} == {part}

NOT_COMPARABLE = {
    "option": ("a peer option with no RFC 1630 counterpart (w3lib's keep_fragments, keep_blank_values, query_separator)",
               lambda c: bool(c.get("options")) and c["op"] == "equivalent"),
    "ipv6": ("an IPv6 literal host ([...]): RFC 1738's host is a domain name or four decimal groups; "
             "IP literals in brackets came with RFC 2732 (1999)", lambda c: "[" in " ".join(c["args"])),
    "non-ascii": ("characters outside US-ASCII (IRIs, IDNA, charsets): RFC 1738 URLs are written only with graphic "
                  "US-ASCII characters; IDNA and IRIs came in 2003-2005", lambda c: not all(ord(ch) < 128 for ch in " ".join(c["args"]))),
}


def classify(case: dict) -> tuple:
    "`(verdict, kind-or-reason, ours)`: verdict is 'agree', 'differs', 'not comparable' or 'unexplained'"
    for name, (reason, test) in NOT_COMPARABLE.items():
        if test(case): return "not comparable", name, None
    ours = run(case)
    if ours == expected(case): return "agree", None, ours
    for name, k in KINDS.items():
        if k.test(case, ours): return "differs", name, ours
    return "unexplained", None, ours


# ---- live peers: cases generated here, answered by running the peer now (nothing typed by hand) ----
LIVE = ("urllib", "ada-url", "curl")
VOID_SITE_CONTEXTS = ("http:///a//b/c", "file:///a//b/c")
LOCALHOST_URLS = ("file://localhost/etc/motd", "file://localhost/a/b/c")
PORT_URLS = ("http://h:080/a", "http://h:80/a", "ftp://h:21/a", "gopher://h:0070/1", "http://h:8080/a")


def _curl_scheme(url, curl):
    "The scheme name curl reads in `url` (from its refusal of an unknown protocol), or `None` if it reads none"
    import subprocess
    r = subprocess.run([curl, "-q", "-sS", "--noproxy", "*", "--max-time", "5", url], capture_output=True, text=True, timeout=30)
    m = re.search(r'Protocol "([^"]*)" not supported', r.stderr)
    return m.group(1) if m else None


def urljoin_now(context, partial):
    "Python's urljoin, run now"
    from urllib.parse import urljoin
    return urljoin(context, partial)


def load_live(peer: str) -> Optional[dict]:
    "The cases of a live peer, each answered by running the peer now; `None` if the peer is not installed"
    import platform, shutil, subprocess
    if peer == "urllib":
        cases = [dict(op="join", args=[c, p], expected=urljoin_now(c, p)) for c in VOID_SITE_CONTEXTS for p in ("/g", "//g", "../..")]
        meta = dict(version=f"Python {platform.python_version()}, urllib.parse.urljoin", licence="PSF-2.0")
    elif peer == "ada-url":
        try:
            import ada_url
            from importlib.metadata import version
        except ImportError: return None
        cases = [dict(op="canonical", args=[u], expected=ada_url.URL(u).href) for u in LOCALHOST_URLS + PORT_URLS]
        cases += [dict(op="join", args=[LOCALHOST_URLS[1], p], expected=ada_url.URL(p, LOCALHOST_URLS[1]).href) for p in ("d", "../d")]
        meta = dict(version=f"ada-url {version('ada-url')} (WHATWG URL)", licence="Apache-2.0 or MIT")
    elif peer == "curl":
        curl = shutil.which("curl")
        if curl is None: return None
        cases = [dict(op="scheme", args=[f"{'x' * n}://h/"], expected=_curl_scheme(f"{'x' * n}://h/", curl)) for n in (8, 40, 41, 64)]
        meta = dict(version=subprocess.run([curl, "--version"], capture_output=True, text=True).stdout.split("\n")[0].split(" (")[0],
                    licence="curl")
    else: raise ValueError(peer)
    for i, c in enumerate(cases): c["id"] = f"{peer}-{i}"
    return dict(meta, cases=cases)


def live_results() -> dict:
    "`{peer: [(case, verdict, kind, ours), ...]}` for every live peer that is installed"
    out = {}
    for p in LIVE:
        d = load_live(p)
        if d is not None: out[p] = [(c, *classify(c)) for c in d["cases"]]
    return out


def results() -> dict:
    "`{peer: [(case, verdict, kind, ours), ...]}` for every vendored case"
    out = {}
    for p in PEERS:
        d = load(p)
        out[p] = [(c, *classify(c)) for c in d["cases"]]
    return out
