"""Property tests of the URL grammars (uri1630.url_grammar): strings generated from the *printed* BNF of
RFC 1630 ("BNF for specific URL schemes") and RFC 1738 §5 validate; mutated ones fail at the right place.

The strategies below are written from the RFC text, independently of the implementation's deterministic
rewrites (e.g. RFC 1630's `article  xalphas @ host` is generated with `@` inside `xalphas`), so a rewrite
that changed the language would be caught here."""
import re, time
import pytest
from uri1630.errors import _starred_logins
from hypothesis import given, settings, strategies as st
from uri1630.errors import URISyntaxError
from uri1630.grammar import validate, is_valid, ALPHA, DIGIT, SAFE, SAFE_URL, EXTRA, ALPHANUM2, HEX
import uri1630.url_grammar as ug

def j(*parts): return st.tuples(*parts).map(''.join)
def opt(s): return st.one_of(st.just(''), s)
def rep(s, lo=0, hi=5, sep=''): return st.lists(s, min_size=lo, max_size=hi).map(sep.join)
def ch(chars): return st.sampled_from(sorted(set(chars)))
LIT = st.just

escape = j(LIT('%'), ch(HEX), ch(HEX))
digit, alpha = ch(DIGIT), ch(ALPHA)
digits = rep(digit, 1, 4)

MINE_1630, MINE_1738 = {}, {}     # the strategies of the schemes uri1630.scheme_{mailto,news,mid} parse

# ---------------------------------------------------------------- RFC 1630, pp. 24-27
def rfc1630(printed=False):
    "A strategy for RFC 1630 `url`s (as printed, or with uri1630's five documented repairs), with optional `url:`"
    xalpha = st.one_of(ch(ALPHA + DIGIT + SAFE_URL + EXTRA), escape)
    xpalpha = st.one_of(xalpha, LIT('+'))
    xalphas, xpalphas = rep(xalpha, 1), rep(xpalpha, 1)
    ialpha = j(alpha, rep(xalpha))
    hostname = rep(ialpha, 1, 3, '.')                         # ialpha [ . hostname ]
    hostnumber = rep(digits, 4, 4, '.')
    host = st.one_of(hostname, hostnumber)
    hostport = j(host, opt(j(LIT(':'), digits)))
    alphanum2 = ch(ALPHANUM2)
    user = rep(alphanum2, 1)
    login = j(opt(j(user, opt(j(LIT(':'), user)), LIT('@'))), hostport)
    segment = xpalphas
    if printed:   # path  void | segment [ / path ]
        path = opt(j(rep(segment, 1, 4, '/'), opt(LIT('/'))))
    else:         # repair 2: segments may be void
        path = rep(opt(segment), 1, 4, '/')
    search = rep(xalphas, 1, 3, '+')
    formcode = ch('NTC')
    ftptype = st.one_of(j(LIT('A'), formcode), j(LIT('E'), formcode), LIT('I'), j(LIT('L'), digits))
    ftp = j(LIT('ftp://'), login, LIT('/'), path, opt(ftptype if printed else j(LIT(';type='), ftptype)))
    http = j(LIT('http://'), hostport, opt(j(LIT('/'), path)), opt(j(LIT('?'), search)))
    group = rep(ialpha, 1, 3, '.')
    article = j(xalphas, LIT('@'), host)
    news = j(LIT('news:'), st.one_of(LIT('*'), group, article))
    nntp = j(LIT('nntp:'), group, LIT('/'), digits)
    addr = j(xalphas, LIT('@'), hostname)
    mid, cid, mailto = j(LIT('mid:'), addr), j(LIT('cid:'), addr), j(LIT('mailto:'), addr)
    wpath = rep(j(digits, LIT('='), path, LIT(';')), 1, 3)
    wais = st.one_of(j(LIT('wais://'), hostport, LIT('/'), xalphas, opt(j(LIT('?'), search))),
                     j(LIT('wais://'), hostport, LIT('/'), xalphas, LIT('/'), xalphas, LIT('/'), wpath))
    attributes = rep(rep(ch(ALPHA + DIGIT), 1), 1, 2)
    prospero = j(LIT('prospero://'), hostport, LIT('/'), path, opt(j(LIT('%00'), digits, opt(attributes))))
    telnet = j(LIT('telnet://'), login)
    gtail = j(xalpha, opt(path))
    gopher = j(LIT('gopher://'), hostport, opt(j(LIT('/'), gtail if printed else opt(gtail))))
    schemes = [http, ftp, news, nntp, prospero, telnet, gopher, wais, mailto, mid, cid]
    if not printed: schemes.append(j(LIT('file://'), opt(host), LIT('/'), path))
    url = st.one_of(*schemes)
    tail = LIT('') if printed else opt(j(LIT('#'), opt(xalphas)))
    MINE_1630.update(mailto=mailto, news=news, mid=mid, cid=cid)
    return j(opt(LIT('url:')), url, tail)

# ---------------------------------------------------------------- RFC 1738 §5
def rfc1738():
    "A strategy for RFC 1738 `url`s (predefined schemes and `otherurl`)"
    unreserved = ch(ALPHA + DIGIT + "$-_.+" + "!*'(),")
    uchar = st.one_of(unreserved, escape)
    def uchars(more, lo=0): return rep(st.one_of(uchar, ch(more)), lo)
    xchar = st.one_of(unreserved, ch(";/?:@&="), escape)
    alphadigit = ch(ALPHA + DIGIT)
    mid_ = rep(st.one_of(alphadigit, LIT('-')), 0, 4)
    domainlabel = st.one_of(alphadigit, j(alphadigit, mid_, alphadigit))
    toplabel = st.one_of(alpha, j(alpha, mid_, alphadigit))
    hostname = j(rep(j(domainlabel, LIT('.')), 0, 3), toplabel)
    hostnumber = rep(digits, 4, 4, '.')
    host = st.one_of(hostname, hostnumber)
    hostport = j(host, opt(j(LIT(':'), digits)))
    user = uchars(";?&=")
    login = j(opt(j(user, opt(j(LIT(':'), user)), LIT('@'))), hostport)
    fsegment = uchars("?:@&=")
    fpath = rep(fsegment, 1, 4, '/')
    ftp = j(LIT('ftp://'), login, opt(j(LIT('/'), fpath, opt(j(LIT(';type='), ch('AIDaid'))))))
    file = j(LIT('file://'), opt(st.one_of(host, LIT('localhost'))), LIT('/'), fpath)
    search = uchars(";:@&=")
    http = j(LIT('http://'), hostport, opt(j(LIT('/'), rep(uchars(";:@&="), 1, 4, '/'), opt(j(LIT('?'), search)))))
    gopher = j(LIT('gopher://'), hostport, opt(j(LIT('/'), opt(j(xchar, rep(xchar), opt(j(LIT('%09'), search, opt(j(LIT('%09'), rep(xchar))))))))))
    mailto = j(LIT('mailto:'), rep(xchar, 1))
    group = j(alpha, rep(ch(ALPHA + DIGIT + "-.+_")))
    article = j(uchars(";/?:&=", 1), LIT('@'), host)
    news = j(LIT('news:'), st.one_of(LIT('*'), group, article))
    nntp = j(LIT('nntp://'), hostport, LIT('/'), group, opt(j(LIT('/'), digits)))
    telnet = j(LIT('telnet://'), login, opt(LIT('/')))
    wais = st.one_of(j(LIT('wais://'), hostport, LIT('/'), rep(uchar)),
                     j(LIT('wais://'), hostport, LIT('/'), rep(uchar), LIT('?'), search),
                     j(LIT('wais://'), hostport, LIT('/'), rep(uchar), LIT('/'), rep(uchar), LIT('/'), rep(uchar)))
    fieldspec = j(LIT(';'), uchars("?:@&"), LIT('='), uchars("?:@&"))
    prospero = j(LIT('prospero://'), hostport, LIT('/'), rep(uchars("?:@&="), 1, 4, '/'), rep(fieldspec, 0, 2))
    scheme = rep(ch(ALPHA[:26] + DIGIT + "+-."), 1, 6)
    predefined = {"http", "ftp", "news", "nntp", "telnet", "gopher", "wais", "mailto", "file", "prospero"}
    other = j(scheme.filter(lambda s: s not in predefined), LIT(':'), rep(xchar))
    MINE_1738.update(mailto=mailto, news=news)
    return st.one_of(http, ftp, news, nntp, telnet, gopher, wais, mailto, file, prospero, other)

GRAMMARS = {"rfc1630": rfc1630(), "rfc1630-as-printed": rfc1630(printed=True), "rfc1738": rfc1738()}
# characters that no production of any of these grammars allows anywhere
NOWHERE = {"rfc1630": " <>{}|\\^~[]`\t\x7f\xe9", "rfc1630-as-printed": " <>{}|\\^~[]`#\t\x7f\xe9",
           "rfc1738": " <>{}|\\^~[]`#\"\t\x7f\xe9"}

def error(text, grammar):
    try: validate(text, grammar)
    except URISyntaxError as e: return e
    return None

@pytest.mark.parametrize("grammar", list(GRAMMARS))
def test_generated_urls_validate(grammar):
    @given(GRAMMARS[grammar])
    def check(u):
        e = error(u, grammar)
        assert e is None, f"{u!r}: {e}"
    check()

def test_as_printed_urls_are_valid_under_the_repairs():
    "Each repair only adds: everything the printed grammar derives, the repaired one derives too"
    @given(GRAMMARS["rfc1630-as-printed"])
    def check(u): assert is_valid(u, "rfc1630"), u
    check()

@pytest.mark.parametrize("grammar", list(GRAMMARS))
def test_a_character_no_production_allows_is_reported_where_it_is(grammar):
    @given(GRAMMARS[grammar], st.integers(0, 10**6), st.sampled_from(NOWHERE[grammar]), st.booleans())
    def check(u, k, c, insert):
        m = k % (len(u) + (1 if insert else 0))
        bad = u[:m] + c + u[m + (0 if insert else 1):]
        e = error(bad, grammar)
        assert e is not None, bad
        # a character inside an escape makes the escape malformed: that is reported at its '%'
        at_escape = e.rule == 'escape' and bad[e.position] == '%' and m - 2 <= e.position < m
        assert e.position == m or at_escape, (bad, m, e)
        assert e.rule and e.text == _starred_logins(bad)   # the text read, each login's password starred (RFC 1738 §6)
    check()

@pytest.mark.parametrize("grammar", list(GRAMMARS))
def test_any_mutation_is_reported_at_or_after_it(grammar):
    """The text before a mutation is the start of a valid URL, so it cannot be the error: the error is at the
    mutation or after it (when the mutated text could still have become valid, e.g. `http://a.1b` → `http://a.1b.org/`)"""
    alphabet = sorted(set(ALPHA[:3] + DIGIT[:3] + SAFE_URL + EXTRA + "%/?:;=@#*+"))
    @given(GRAMMARS[grammar], st.integers(0, 10**6), st.sampled_from(alphabet), st.sampled_from(["replace", "insert", "delete"]))
    def check(u, k, c, how):
        m = k % (len(u) + (how == "insert"))
        bad = {"replace": u[:m] + c + u[m+1:], "insert": u[:m] + c + u[m:], "delete": u[:m] + u[m+1:]}[how]
        e = error(bad, grammar)
        if e is None: return
        at_escape = e.rule == 'escape' and bad[e.position] == '%' and m - 2 <= e.position   # reported at its '%'
        assert (m <= e.position or at_escape) and e.position <= len(bad), (bad, m, e.position, e.rule)
    check()

@pytest.mark.parametrize("grammar", ["rfc1630", "rfc1630-as-printed", "rfc1738", "rfc1738-as-printed"])
def test_recogniser_and_matcher_agree(grammar):
    "The compiled regex and the diagnosing matcher are read off the same productions: same verdict on any text"
    g = ug._URL_GRAMMARS[grammar]
    gen = GRAMMARS.get(grammar, GRAMMARS["rfc1738"])
    @given(gen, st.integers(0, 10**6), st.text(alphabet="a1.@/:%#?;=~ *-", max_size=3))
    def check(u, k, junk):
        m = k % (len(u) + 1)
        for s in (u, u[:m] + junk + u[m:], u[:m]):
            regex = g.recogniser.fullmatch(s) is not None
            state = ug._State(s)
            assert regex == (g.start.match(state, 0) == len(s)), s
    check()

@pytest.mark.parametrize("grammar", ["rfc1630", "rfc1738"])
def test_errors_pickle_and_name_a_known_rule(grammar):
    import pickle
    @given(st.text(alphabet="hnfmtpwgcd:/a1.@%#?;=~ *-_", max_size=30))
    def check(s):
        e = error(s, grammar)
        if e is None: return
        e2 = pickle.loads(pickle.dumps(e))
        assert (e2.position, e2.rule) == (e.position, e.rule)
        assert 0 <= e.position <= len(s)
        assert e.rule in ug._URL_GRAMMARS[grammar].rules or e.rule in ('url', 'escape') or e.rule.isidentifier() or '-' in e.rule
    check()

ADVERSARIAL = [("rfc1630", "news:", "1@", "!~"), ("rfc1630", "mailto:", "a@", "~"), ("rfc1630", "mid:", "@1", "~"),
               ("rfc1630", "ftp://", "a", "~"), ("rfc1630", "ftp://", "a:1@", "~"), ("rfc1630", "http://h/", "a/", "~"),
               ("rfc1630", "news:", "1@1.1.1.", "1~"), ("rfc1630", "wais://h/d/t/", "1=a/;", "1"),
               ("rfc1738", "http://", "a-", "-."), ("rfc1738", "http://", "a.", "~"), ("rfc1738", "news:", "a;", "@"),
               ("rfc1738", "ftp://", "a:", "@"), ("rfc1738", "gopher://h/", "%09", "~"), ("rfc1738", "http://", "1.", "a~"),
               ("rfc1738-as-printed", "http://", "a.", "~"), ("rfc1630-as-printed", "ftp://h/", "a/", "/")]

@pytest.mark.parametrize("grammar,head,unit,tail", ADVERSARIAL)
def test_linear_work(grammar, head, unit, tail):
    "Adversarial inputs: the diagnosing matcher examines 8x the characters for 8x the input (deterministic count)"
    g = ug._URL_GRAMMARS[grammar]
    def steps(n):
        st = ug._State(head + unit * n + tail); g.start.match(st, 0); return st.steps
    small, big = steps(1000), steps(8000)
    assert big <= 8.1 * small, (small, big)

@pytest.mark.parametrize("grammar,head,unit,tail", ADVERSARIAL)
def test_linear_time(grammar, head, unit, tail):
    "Adversarial inputs, timed (CPU time): 10x the length, < 30x the time (a quadratic takes 100x)"
    from scaling import assert_linear
    assert_linear(lambda n: is_valid(head + unit * n + tail, grammar), 2000)

# ---------------------------------------------------------------- the scheme objects built on the grammars
import pickle
from uri1630.schemes import parse_url
from uri1630.schemes.mailto import MailtoURL
from uri1630.schemes.news import NewsURL
from uri1630.schemes.mid import MidURL, CidURL
from uri1630.encoding import unescape

MINE = {"mailto": MailtoURL, "news": NewsURL, "mid": MidURL, "cid": CidURL}

def _scheme(u):
    body = u[4:] if u.startswith("url:") else u
    return body.split(":", 1)[0], body

MINE_STRATEGIES = {"rfc1630": st.one_of(*MINE_1630.values()), "rfc1738": st.one_of(*MINE_1738.values())}

@pytest.mark.parametrize("grammar,rfc", [("rfc1630", "1630"), ("rfc1738", "1738")])
def test_scheme_objects_of_generated_urls(grammar, rfc):
    "Every generated mailto:/news:/mid:/cid: URL parses to its class; parts decode; objects hash, compare, pickle"
    @given(MINE_STRATEGIES[grammar], st.booleans())
    def check(body, prefixed):
        scheme = body.split(":", 1)[0]
        o = parse_url("url:" + body if prefixed else body, rfc)
        assert type(o) is MINE[scheme] and str(o) == body
        rest = unescape(body.split(":", 1)[1])
        if scheme == "news":
            assert (o.message_id if '@' in body else o.group) == rest
        else:
            assert getattr(o, {"mailto": "address", "mid": "message_id", "cid": "content_id"}[scheme]) == rest
        assert pickle.loads(pickle.dumps(o)) == o and hash(o) == hash(parse_url(body, rfc))
    check()

@pytest.mark.parametrize("grammar,rfc", [("rfc1630", "1630"), ("rfc1738", "1738")])
def test_scheme_object_errors_are_the_grammar_errors(grammar, rfc):
    """A mutated mailto:/news:/mid:/cid: URL fails in parse_url exactly where the grammar says (the rule may differ:
    the whole grammar may also have wanted a '#')"""
    @given(MINE_STRATEGIES[grammar], st.integers(0, 10**6), st.sampled_from(" ~%@.a1/;*"))
    def check(body, k, c):
        scheme = body.split(":", 1)[0]
        m = len(scheme) + 1 + k % (len(body) - len(scheme))
        bad = body[:m] + c + body[m:]
        e = error(bad, grammar)
        try: parse_url(bad, rfc)
        except URISyntaxError as p:
            assert e is not None and p.position == e.position, (bad, p, e)
        else: assert e is None, (bad, e)
    check()
