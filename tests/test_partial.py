"""Property tests for "Partial (relative) form": resolve, resolve_steps and relative (uri1630.partial)."""
import pickle
import pytest
from hypothesis import given, strategies as st, settings, example
from uri1630 import URIError
from uri1630.partial import resolve, resolve_steps, relative, slash_runs, _remove_dots, PARTIAL_EXAMPLES, PARTIAL_CONTEXTS
from strategies import any_text
from budget import examples
from strategies_partial import contexts, targets, partials, readings, PUNIT, bad_scheme

MANY = settings(max_examples=examples(3000))    # "thousands of cases" for the round trip and the shortness
SOME = settings(max_examples=examples(1000))


def _hier_end(u):
    return min([i for i in (u.find("?"), u.find("#")) if i >= 0] or [len(u)])


@pytest.mark.parametrize("context", PARTIAL_CONTEXTS)
@pytest.mark.parametrize("partial,expected", PARTIAL_EXAMPLES)
def test_rfc_examples(context, partial, expected):
    """All ten rows of the RFC's table under the default reading; the literal reading differs only on /g."""
    assert resolve(context, partial) == expected
    assert resolve(context, partial, "literal") == ("magic://a/b/c//d/g" if partial == "/g" else expected)
    assert relative(context, expected) == partial


@MANY
@given(contexts, targets, readings)
@example("magic://a/b/c//d/e/f", "magic://a/g", "literal")
@example("x:/a/b", "x:/a/b/", "examples")
@example("http://a/b/c", "http://a", "examples")
def test_relative_round_trip(c, t, reading):
    """resolve(c, relative(c, t)) == t, never longer than t; the absolute URI when the schemes differ."""
    p = relative(c, t, reading)
    assert resolve(c, p, reading) == t
    assert len(p) <= len(t)
    if t.split(":", 1)[0] != c.split(":", 1)[0]:
        assert p == t


@MANY
@given(contexts, partials, readings)
@example("magic://a/a/a/a", "/.//", "examples")
def test_relative_is_at_least_as_short_as_any_partial(c, p, reading):
    """Whatever partial p names t = resolve(c, p), relative(c, t) is no longer than p (and resolves to t).

    For contexts without removable dot elements of their own (`x:/a/./b` is one with): for those, relative
    gives a partial that resolves back, but not always the shortest. Nor is it compared with a partial that
    uses dot elements to make a void segment (`/.//` in `magic://a/a/a/a` names `magic://a//`, where the
    shortest dot-free form is `//a//`): relative writes no `.` elements."""
    h = _hier_end(c)
    if _remove_dots(c[:h], c.find(":") + 1) != c[:h]: return
    t = resolve(c, p, reading)
    p_path = p.split("#")[0].split("?")[0]
    if {".", ".."} & set(p_path.split("/")) and "//" in t.split(":", 1)[-1].lstrip("/"): return
    r = relative(c, t, reading)
    assert resolve(c, r, reading) == t
    assert len(r) <= len(p) or len(r) <= len(t) and len(t) <= len(p)


@SOME
@given(contexts, partials, readings)
def test_resolve_properties(c, p, reading):
    """The result is absolute, has no removable dot elements, and is the last step of resolve_steps."""
    r = resolve(c, p, reading)
    steps = resolve_steps(c, p, reading)
    assert steps[-1].result == r
    assert pickle.loads(pickle.dumps(steps)) == steps and hash(steps)
    if p.split("#")[0].split("?")[0].find(":") < 0 or "/" in p.split(":")[0]:   # a partial (not absolute) form
        assert r.split(":", 1)[0] == c.split(":", 1)[0]
        h = _hier_end(r)
        if p == "" or p.startswith("#"):                                 # the context object, as it is written
            assert r == c.split("#")[0] + p; return
        assert _remove_dots(r[:h], r.find(":") + 1) == r[:h]          # dot removal is idempotent on results
        assert r[h:] == p[_hier_end(p):]                                 # the partial's ?search#fragment kept as given


@SOME
@given(contexts, partials)
def test_readings_agree_without_inner_double_slash(c, p):
    """The two readings differ only where the context has a run of two or more slashes after its first run."""
    runs = slash_runs(c)
    if all(n == 1 for _, n in runs[1:]):
        assert resolve(c, p, "examples") == resolve(c, p, "literal")


def _naive(elems):
    """RFC 1630's removal, word for word: remove one "xxx/.." or "." at a time until none is left."""
    elems = list(elems)
    while True:
        for i, e in enumerate(elems):
            if e == ".": del elems[i]; break
            if e == ".." and i > 0 and elems[i - 1] != "..": del elems[i - 1:i + 1]; break
        else: return elems


@SOME
@given(st.lists(st.sampled_from(["a", "b", "", ".", "..", "..."]), min_size=1, max_size=10))
def test_stack_equals_recursive_removal(elems):
    """The one-pass stack gives what removing pairs from the left until none is left gives."""
    elems = ["r"] + elems                  # a first element, so that the root stays "x://h"
    text = "x://h/" + "/".join(elems)
    out = _naive(elems)
    assert _remove_dots(text, 2) == ("x://h/" + "/".join(out) if out else "x://h")


@settings(max_examples=examples(1000))
@given(any_text, any_text, readings)
def test_never_crashes(c, p, reading):
    """Any text in, a str or a URIError out."""
    for f in (resolve, relative):
        try: assert isinstance(f(c, p, reading), str)
        except URIError: pass


@settings(max_examples=examples(500))
@given(st.lists(st.sampled_from(["a", "b", "c", "", "x:y", "e f"]), min_size=1, max_size=4),
       st.lists(st.sampled_from(["a", "b", "c", "", "x:y", "e f"]), min_size=1, max_size=4),
       st.sampled_from(["http://info.cern.ch/hypertext/WWW/", "magic://a/b/c//d/"]),
       st.sampled_from(["magic://x/", "ftp://moved.example/deep//er/", "file:/moved/"]))
def test_moving_the_group(a, b, old, new):
    """"Allows the group of objects to be moved without changing any references" (for partials that stay inside the group)."""
    a, b = "p/" + "/".join(a), "q/" + "/".join(b)     # a first element that is not void: "//" would change the hierarchy
    p = relative(old + a, old + b)
    if not p.startswith("/") and ".." not in p.split("/") and p != old + b:
        assert resolve(new + a, p) == new + b


def test_types():
    with pytest.raises(TypeError): resolve(None, "g")
    with pytest.raises(TypeError): relative("x:/a", b"x:/b")
    with pytest.raises(ValueError): resolve("x:/a", "g", reading="draft")


@SOME
@given(contexts, st.integers(1, 4), readings)
def test_cut_table_matches_the_rule(c, n, reading):
    """relative's one-pass table of cuts gives what the slash rule gives for each n."""
    from uri1630.partial import _cuts, _slash_cut
    start, h = c.find(":") + 1, _hier_end(c)
    assert _cuts(c[:h], start, reading).get(n) == _slash_cut(c[:h], start, n, reading)


# ---- issue #13: contexts with a site and no path (RFC 1738 §3.1, §3.3), in both readings ----
from strategies_partial import SEARCH, FRAGMENT, ELEMENT, _join

SITES = st.sampled_from(["example.org", "h", "h:8080", "u@h", "u:p@h:21", "H.Example.ORG", ""])
PATHLESS = st.builds(_join, st.sampled_from(["http", "ftp", "gopher", "magic"]), SITES, st.none(), SEARCH, FRAGMENT)
SAME_SITE = st.builds(_join, st.sampled_from(["http", "ftp", "gopher", "magic"]), SITES,
                      st.one_of(st.none(), st.lists(ELEMENT, max_size=4)), SEARCH, FRAGMENT)


@SOME
@given(PATHLESS, st.one_of(SAME_SITE, targets), readings)
@example("http://example.org", "http://example.org/moo", "examples")
@example("http://example.org", "http://example.org/", "literal")
@example("http://h?q", "http://h/?q", "examples")
def test_pathless_context_round_trip(c, t, reading):
    """resolve(c, relative(c, t)) == t for contexts `scheme://site` with no path; the partial never reads as a path into the site."""
    p = relative(c, t, reading)
    assert resolve(c, p, reading) == t
    assert len(p) <= len(t) + 1        # `/` for the root may be one longer than the void partial of a path-less target
    site = c.split("//", 1)[1].split("?")[0].split("#")[0]
    if site and p != t: assert not p.startswith(site + "/")


@settings(max_examples=examples(400))
@given(PATHLESS, partials, readings)
def test_pathless_context_keeps_site(c, p, reading):
    """A partial that is not absolute and does not start with `//` never loses the context's site."""
    try: r = resolve(c, p, reading)
    except URIError: return                       # e.g. a void scheme `:x`
    if p.startswith("//") or (":" in p.split("/")[0].split("?")[0].split("#")[0]): return
    site = c.split("?")[0].split("#")[0]
    if site.endswith("://"): return               # a void site is no site (nbs/07): nothing is written out
    assert r.startswith(site), (c, p, r)
    if r != site and not r.startswith(site + "#") and not r.startswith(site + "?"):
        assert r[len(site)] == "/", (c, p, r)


@settings(max_examples=examples(300))
@given(contexts, st.sampled_from(["", "_", "1", "%2F", "+x"]), st.builds("".join, st.lists(PUNIT, max_size=6)))
def test_void_scheme(c, head, rest):
    """`:...` or `_:...` (a colon before any slash, no letter first) is a syntax error at 0, rule 'scheme'; never returned as absolute."""
    p = head + ":" + rest
    assert bad_scheme(p)
    with pytest.raises(URIError) as e: resolve(c, p)
    assert (e.value.position, e.value.rule) == (0, "scheme")


def _outcome(f, *a):
    "What `f(*a)` gives: its result, or the error's type, message and position"
    try: return f(*a)
    except (URIError, TypeError, ValueError) as e: return type(e), str(e), getattr(e, 'position', None)


# web-like contexts: `scheme://site/path`, with the void sites, inner `//`, dots and searches the common case must leave alone
WEB = st.builds(lambda s, h, p, q: f"{s}://{h}{p}{q}", st.sampled_from(["http", "https", "x", "H"]),
                st.sampled_from(["h", "h.example:80", "", "u@h"]),
                st.builds("".join, st.lists(st.sampled_from(["/", "//", "a", "b.html", ".", "..", "./", "../", "%2F"]), max_size=6)),
                st.sampled_from(["", "?q", "?a/b", "#f", "?q#f", "#a/../b"]))
COMMON = st.one_of(partials, st.builds("".join, st.lists(st.sampled_from(["../", "..", "/", "a", "b/", "?q", "#f", "./"]), max_size=5)))


@settings(max_examples=examples(3000))
@given(st.one_of(contexts, WEB), COMMON, readings)
@example("file:///a/b", "/g", "examples")
@example("http://h//a/b", "/g", "literal")
@example("http://h/a//b/c", "../../../g", "examples")
def test_resolve_common_case_is_the_general_algorithm(c, p, reading):
    """`resolve`'s inlined common case gives what the general `_resolve` (the one `resolve_steps` explains) gives, errors included."""
    from uri1630.partial import _resolve
    assert _outcome(resolve, c, p, reading) == _outcome(_resolve, c, p, reading)


@settings(max_examples=examples(2000))
@given(st.one_of(any_text, st.builds("".join, st.lists(st.sampled_from([":", "/", "?", "#", "a", "1", "", "x:"]), max_size=8))))
def test_split_is_parse(t):
    """`_split`'s offsets (used by resolve and relative) give exactly the parts `parse` gives."""
    from uri1630.syntax import parse, _split, _LETTERS
    c, end, h = _split(t)
    u, n = parse(t), len(t) if h < 0 else h
    assert c < 0 or (t[c] == ':' and not any(ch in '/?#:' for ch in t[:c]))
    absolute = c > 0 and t[0] in _LETTERS
    assert u.scheme == (t[:c] if absolute else None)
    assert u.path == t[c + 1 if absolute else 0:end]
    assert u.search == (t[end + 1:n] if end < n else None)
    assert u.fragment == (None if h < 0 else t[h + 1:])


def test_argument_errors_in_order():
    """resolve checks the types, the reading, the partial's scheme, then the context; relative the context, the target, then the reading."""
    for f in (resolve, relative):
        with pytest.raises(TypeError, match="context"): f(None, None, "draft")
    with pytest.raises(ValueError): resolve("a/b", "1:y", "draft")
    with pytest.raises(URIError, match="ialpha"): resolve("a/b", "1:y")
    with pytest.raises(URIError, match="context"): resolve("a/b", "y")
    with pytest.raises(URIError, match="context"): relative("a/b", None, "draft")
    with pytest.raises(TypeError, match="target"): relative("x:/a", None, "draft")
    with pytest.raises(URIError, match="target"): relative("x:/a", "/b", "draft")
    with pytest.raises(ValueError): relative("x:/a", "x:/b", "draft")
