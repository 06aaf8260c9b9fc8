"""Issue 20, invariant 8 for the encoding levels: `to_level` (every level) and `canonical` build, from a URL of any
registered scheme, a URL that `parse_url` reads back to the same fields, or they refuse with a `URIError`.

The fields are compared in the form a level cannot change: escapes of characters that are not reserved decoded (the
reserved ";/?:@=&", '#', '%' and a search's '+' keep their state at every level). The `decoded` level is "not valid for
transport" (RFC 1630's Latin-1 string "handled intact"): its result is checked through `canonical`, which must give the
URL back. The URLs come from the RFC 1738 and RFC 1630 grammars of tests/test_url_grammars.py, with escapes of
characters RFC 1738 says must stay encoded (unsafe, reserved, 8-bit) and of ordinary ones mixed in."""
import re, sys
from pathlib import Path
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck, assume, example

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_url_grammars import rfc1738, rfc1630
from uri1630 import URIError, parse_url, to_level, canonical, equivalent, compare
from uri1630.encoding import LEVELS
from uri1630.schemes import GenericURL

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
KEPT = set(";/?:@=&#%")
ESC = re.compile('%([0-9A-Fa-f]{2})')

def form(v):
    "A field with the escapes of characters that are not reserved decoded (hex in upper case otherwise)"
    if isinstance(v, str): return ESC.sub(lambda m: m.group().upper() if chr(int(m.group(1), 16)) in KEPT else chr(int(m.group(1), 16)), v)
    if isinstance(v, tuple): return tuple(form(x) for x in v)
    return v

def fields(u):
    "Every field of a scheme object but its text, in `form`"
    return (type(u),) + tuple(form(getattr(u, f)) for f, d in u.__dataclass_fields__.items() if f != 'text' and d.init)

def registered(text):
    try: u = parse_url(text)
    except URIError: return None
    return None if isinstance(u, GenericURL) else u

def check(text, must_parse=False):
    "The invariant for one URL: every level, and canonical, parse back to its fields or are refused"
    u = registered(text)
    if must_parse: assert u is not None, text
    if not must_parse: assume(u is not None)
    want = fields(u)
    builders = [(name, lambda t, n=name: to_level(t, n)) for name in LEVELS] + [('canonical()', canonical)]
    for name, build in builders:
        try: out = build(text)
        except URIError as e:
            assert e.position is not None and 0 <= e.position <= len(text), (text, name, e)
            continue
        if name == 'decoded': out = canonical(out)       # not for transport: canonical gives the URL back
        try: got = fields(parse_url(out))
        except URIError as e: raise AssertionError(f"{name}: {text!r} -> {out!r} is refused by parse_url: {e}") from None
        assert got == want, (name, text, out, got, want)
    assert equivalent(text, canonical(text))

# the attacker's cases (findings 3, 4 and 5) and their neighbours
ATTACKER = ["news:a@h", "news:12345667123@info.cern.ch", "http://h/%22", "wais://h/sd%26?a", "mailto:a%22b@h", "file:///a%22b",
            "telnet://%22u:p@h/", "ftp://u:p?@h/x", "ftp://u?:p@h/x", "telnet://u:p?@h/", "ftp://u%40v:p%3A@h/x%3Fy;type=a",
            "http://h/a%3Cb%3E?c%22d#e%7B", "gopher://h/1a%09b%09+", "news:a%2Eb%22c@h", "mailto:%41%40b@h", "nntp://h/comp.x-y/12",
            "news:comp.lang.c", "news:*", "prospero://h/a;f=v%22", "wais://h/db/t/p%26q", "file://localhost/a%2Fb/%2E%2E/c",
            "urn:a%22b:c?d%2Be", "mid:a%2Eb@h/c%22", "cid:a@h", "rlogin://u:p?@h", "tn3270://h:23/", "http://h/Z%FCrich/caf%E9",
            "url:http://h/%22", "<URL:ftp://u:p?@h/%22>", "HTTP://H:80/%41?%42"]

@pytest.mark.parametrize("text", ATTACKER)
def test_attacker_cases_parse_back(text):
    check(text, must_parse=True)

@pytest.mark.parametrize("level", list(LEVELS))
def test_findings_3_4_5(level):
    "The attacker's three findings, stated directly"
    for t in ("news:a@h", "news:12345667123@info.cern.ch"):
        assert parse_url(canonical(to_level(t, level))).message_id == parse_url(t).message_id
    for t in ("http://h/%22", "wais://h/sd%26?a", "mailto:a%22b@h", "file:///a%22b", "telnet://%22u:p@h/"):
        assert canonical(t) == t and to_level(t, level) == t    # '"' and a reserved '&' must stay encoded
    for t in ("ftp://u:p?@h/x", "ftp://u?:p@h/x", "telnet://u:p?@h/"):
        a, b = parse_url(t), parse_url(to_level(t, level))
        assert (a.user, a.password, a.host, a.port) == (b.user, b.password, b.host, b.port)

def test_generic_uris_keep_rfc1630_levels():
    "A scheme without a registered parser keeps RFC 1630's generic behaviour; equivalence by encoding is unchanged"
    assert to_level("x-h://info.cern.ch/a-b", "alphanumeric") == "x-h://info%2Ecern%2Ech/a%2Db"
    assert canonical("x:a%22b") == 'x:a"b'
    assert equivalent("http://h/%41", "http://h/A") and compare("http://h/%41", "http://h/A").equivalent
    assert canonical("http://h/Zürich/café") == "http://h/Z%FCrich/caf%E9"

# escapes mixed into a generated URL: of characters that must stay encoded, and of ordinary ones
MUST = '"<>{}|\\^~[]` ' + "\x7f\xe9\xfc" + ";/?:@=&#%+"
ORDINARY = "aZ09-._$!*'(),"

@st.composite
def mutated(draw, base):
    text = draw(base)
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(text)))
        c = draw(st.sampled_from(MUST + ORDINARY))
        text = text[:i] + f"%{ord(c):02X}" + text[i:]
    return text

def other_schemes():
    "The registered schemes the grammar strategies do not write: urn, rlogin, tn3270 (telnet's grammar), mid, cid"
    x = st.text(alphabet="abc-._%2241:/@?;=&+", min_size=1, max_size=12)
    return st.one_of(st.builds(lambda s, t: s + t, st.sampled_from(["urn:", "mid:", "cid:"]), x),
                     st.builds(lambda s, u: s + u[len("telnet"):], st.sampled_from(["rlogin", "tn3270"]),
                               rfc1738().filter(lambda t: t.startswith("telnet:"))))

@SETTINGS
@given(text=st.one_of(mutated(rfc1738()), mutated(rfc1630()), mutated(other_schemes())))
@example(text="ftp://u:p?@h/x")
@example(text="news:a@h")
@example(text="http://h/%22")
def test_levels_parse_back_over_every_registered_scheme(text):
    check(text)
