"""Attack round 13 (a fresh attacker, after the speed prefilters of rounds 11-12): RFC 1738 §6 masking.

Each finding was a password shown in clear (or a crash, or quadratic time) on a documented surface; each test
runs the attacker's own demonstration and fails if it shows it again. What the round found and left is in the
closing note of the round (F8, F10-F13: an FTP echo split after 6 characters, `explain_level`'s per-character
changes, a CLI byte name, a punycode codec's message, a 3-character prefix of a cut Location)."""

import io
import pickle

import pytest

import uri1630
import uri1630.cli as C
import uri1630.render as R
from uri1630 import URIError

PW = "Zebra9Secret"


def cli(*argv, stdin=None):
    out, err = io.StringIO(), io.StringIO()
    C.main(
        list(argv), stdin=io.StringIO(stdin) if stdin is not None else None, stdout=out, stderr=err
    )
    return out.getvalue() + err.getvalue()


def shown_exc(e):
    return "\n".join(
        [str(e), repr(e), str(getattr(e, "message", "")), str(getattr(e, "text", "")), repr(e.args)]
    )


def leak_in(text, secret=PW):
    i = text.find(secret)
    return (i >= 0), (text[max(0, i - 120) : i + 40] if i >= 0 else "")


# ---- F1: parse()'s repr and markdown show a urlencoded login (gate `"@" in s` in syntax._shown_parts)
def f1():
    u = f"http://h/?next=ftp%3A%2F%2Fuser%3A{PW}%40host"
    assert PW not in repr(uri1630.parse_url(u))  # the scheme value masks it
    v = uri1630.parse(u)
    return leak_in(repr(v) + "\n" + v._repr_markdown_())


# ---- F2: tab / LF / CR inside an escape of an encoded login: no masking anywhere
def f2():
    evid = []
    for u in (
        f"http://h/?next=ftp%3A%2F%2Fuser%3A{PW}%4\t0host",
        f"http://h/?next=ftp%3A%2F%2Fuser%3A{PW}%\t40host",
        f"http://h/?next=ftp%3\tA%2F%2Fuser%3\tA{PW}%40host",
    ):
        outs = []
        try:
            uri1630.parse_url(u)
        except URIError as e:
            outs.append(("parse_url error", shown_exc(e)))
        try:
            uri1630.canonical(u)
        except URIError as e:
            outs.append(("canonical error", shown_exc(e)))
        outs.append(("cli parse", cli("parse", u)))
        outs.append(("cli resolve --steps", cli("resolve", "--steps", u, "g")))
        outs.append(("level_html", R.level_html(u)))
        outs.append(("resolution_html", R.resolution_html(u, "g")))
        outs.append(("parse_html", R.parse_html(u)))
        for n, s in outs:
            if PW in s:
                evid.append(f"{u!r} {n}: ...{s[max(0, s.find(PW) - 60) : s.find(PW) + 20]!r}")
    # control: without the tab every one of these masks
    u0 = f"http://h/?next=ftp%3A%2F%2Fuser%3A{PW}%40host"
    assert PW not in cli("parse", u0) + cli("resolve", "--steps", u0, "g") + R.level_html(u0)
    return bool(evid), "\n".join(evid[:6])


# ---- F3: gopher selector `1ftp:/u:pw@h`: the item type before `ftp:` defeats _LOGIN_START's lookbehind
def f3():
    u = f"gopher://h/1ftp:/u:{PW}@h2"
    v = uri1630.parse_url(u)
    outs = {
        "repr": repr(v),
        "str": str(v),
        "format": format(v),
        "markdown": v._repr_markdown_(),
        "pickle": pickle.dumps(v).decode("latin-1"),
        "cli parse": cli("parse", u),
        "cli parse -": cli("parse", "-", stdin=u + "\n"),
        "level_html": R.level_html(u),
        "cli resolve --steps": cli("resolve", "--steps", u, "g"),
    }
    bad = {k: s for k, s in outs.items() if PW in s}
    return bool(bad), "\n".join(
        f"{k}: {s[max(0, s.find(PW) - 60) : s.find(PW) + 16]!r}" for k, s in bad.items()
    )


# ---- F4: CLI parse shows tuple parts (ftp cwd, prospero field_items) decoded, with the login in clear
def f4():
    evid = []
    for u in (
        f"ftp://h/ftp%3A%2F%2Fu%3A{PW}%40h2/file",
        f"prospero://h/x;type=ftp%3A%2F%2Fu%3A{PW}%40h2",
    ):
        assert PW not in repr(uri1630.parse_url(u))
        for argv, stdin in (
            (("parse", u), None),
            (("parse", "--json", u), None),
            (("parse", "-"), u + "\n"),
        ):
            s = cli(*argv, stdin=stdin)
            if PW in s:
                line = next(x for x in s.splitlines() if PW in x)
                evid.append(
                    f"{' '.join(argv[:2])} {u!r}: {line[line.find(PW) - 70 : line.find(PW) + 20]!r}"
                )
    return bool(evid), "\n".join(evid)


# ---- F5: a lone surrogate in a password: UnicodeEncodeError (not URIError) carrying the password
def f5():
    u = "http://user:Zebra9\ud800Secret@host/x"
    evid = []
    for n, f in (
        ("resolve_steps", lambda: uri1630.resolve_steps("http://h/a", u)),
        ("level_html", lambda: R.level_html(u)),
        ("parse_html", lambda: R.parse_html(u)),
        ("resolution_html", lambda: R.resolution_html(u, "g")),
        ("error_html", lambda: R.error_html(URIError("x", u, 14), u)),
    ):
        evid += _foreign(n, f)
    return bool(evid), "\n".join(evid)


def _foreign(name, f):
    "What `f()` raised outside the URIError family (a URIError is an answer), as evidence"
    try:
        f()
    except URIError:
        return []
    except Exception as e:
        return [f"{name}: {type(e).__name__} args={e.args!r}"]
    return []


# ---- F6: resolution_html: RecursionError (~1000 encoded logins in one query) and quadratic _cut
def f6():
    ctx = "x-a:/?" + "&".join(f"n=x-b%3A%2F%2Fu%3Apass{i}x%40h" for i in range(1200))  # 40 KB
    evid = _foreign(f"{len(ctx)} chars", lambda: R.resolution_html(ctx, "g"))
    # (its time is linear now: `_cut` reads each span once; nbs/24b tests the pieces)
    return bool(evid), "\n".join(evid)


# ---- F9: split_url()'s Source repr masked text and url, not the fragment
def f9():
    return leak_in(repr(uri1630.split_url(f"http://h/p/#//u:{PW}@h2")))


# ---- a scripted loopback server
from attacks.kit import Srv, read_head  # noqa: E402


def http_redirect(loc):
    def h(c):
        read_head(c)
        c.sendall(
            b"HTTP/1.0 302 Found\r\nLocation: "
            + loc.encode("latin-1")
            + b"\r\nContent-Length: 0\r\n\r\n"
        )

    return h


# ---- F7: a redirect's Location holding a urlencoded login, cut at 200 characters: the prefix shown
def f7():
    loc = (
        "http://other/" + "x" * 150 + "?next=ftp%3A%2F%2Fuser%3A" + "Zebra9SecretMangoKiwi" + "%40h"
    )
    s = Srv(http_redirect(loc))
    try:
        uri1630.retrieve(f"http://127.0.0.1:{s.port}/", timeout=3, total_timeout=5)
        return True, "no error"
    except URIError as e:
        t = shown_exc(e)
        return ("Zebra9" in t), str(e)[-80:]
    finally:
        s.close()


# each finding, by its demonstration: (failed, evidence)
FINDINGS = {
    "F1": (f1, "parse(u) repr/_repr_markdown_ show a urlencoded login's password"),
    "F2": (
        f2,
        "a TAB/LF/CR inside %40 / %3A of a urlencoded login defeats every mask (errors, CLI, HTML)",
    ),
    "F3": (
        f3,
        "gopher://h/1ftp:/u:PW@h2 (selector after the type char) shown in str/format/markdown/CLI/HTML (its repr masks it)",
    ),
    "F4": (
        f4,
        "CLI parse/--json/- show ftp cwd and prospero field_items decoded: the embedded login in clear",
    ),
    "F5": (
        f5,
        "a surrogate in a password: renderers and resolve_steps raise UnicodeEncodeError holding the password",
    ),
    "F6": (
        f6,
        "resolution_html: RecursionError on ~1000 encoded logins in a query; quadratic in slash runs x logins",
    ),
    "F7": (
        f7,
        "retrieve: redirect Location with an urlencoded login, cut at 200 chars in the message: password prefix shown",
    ),
    "F9": (
        f9,
        "repr(split_url(u)) showed a login in the fragment field (text and url were masked)",
    ),
}


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_finding_holds(name):
    "The attacker's demonstration of the finding no longer shows it"
    case, what = FINDINGS[name]
    bad, evidence = case()
    assert not bad, f"{name} ({what}): {evidence}"
