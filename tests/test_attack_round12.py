"""Round 12 attack on issue #28 (RFC 1738 §6: a password in a URL is never shown).

Each test failed on c03c12b on a real break (a fresh attacker's round on round 11's fixes); all pass since 03df744.
"""
import io
import pickle
import time
from dataclasses import dataclass

import pytest

import uri1630
import uri1630.cli as C
import uri1630.render as R
import uri1630.partial as P
from uri1630 import URIError, parse_url, register_scheme
from uri1630.schemes import IPURL, parse_login, _login_text

PW = "hunter2"
# a login urlencoded once (`urlencode({'next': 'ftp://u:hunter2@h'})`): what round 11 masks in values
ONCE = "ftp%3A%2F%2Fu%3Ahunter2%40h"
# the same login urlencoded twice (a `next` inside a `next`: SSO chains)
TWICE = "ftp%253A%252F%252Fu%253Ahunter2%2540h"


def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    C.main(list(argv), stdout=out, stderr=err)
    return out.getvalue() + err.getvalue()


# Finding 1 (high, real-user path): the CLI's `parse` and `parse --json` show the password of a login
# urlencoded in a query. `_shown` returns its dict untouched when the text holds no literal '@', and
# `_json_line` takes the fast writer unless `"@" in uri and _password_spans(uri)`: `%40` is never read.
# `str(parse_url(url))` masks the very same URL (round 11).
@pytest.mark.parametrize("argv", [["parse"], ["parse", "--json"]])
def test_cli_parse_shows_urlencoded_login(argv):
    url = f"http://h/?next={ONCE}"
    assert PW not in str(parse_url(url))  # the value masks it
    shown = _cli(*argv, url)
    assert PW not in shown, shown


# Finding 2 (high): the renderers `level_html` and `resolution_html` show the password of a login
# urlencoded in a query (or written `ftp:%2F%2Fu:pw@h` in a gopher selector). `_html_forms`,
# `_unmasked` (and the slash-run view of `resolution_html`) read logins with `_password_spans`, not
# `_all_password_spans`.
@pytest.mark.parametrize("render", [
    lambda: R.level_html(f"http://h/?next={ONCE}"),
    lambda: R.level_html("gopher://h/1ftp:%2F%2Fu:hunter2@h%09x"),
    lambda: R.resolution_html(f"http://h/a/b?next={ONCE}", "g"),
])
def test_renderers_show_urlencoded_login(render):
    html = render()
    assert PW not in html, html[html.find(PW) - 200: html.find(PW) + 50]


# Finding 3 (medium, DoS): masking in the CLI (`resolve --steps`, `parse`) and the renderers
# (`level_html`, `resolution_html`) is quadratic in the number of logins: every login's password adds
# ~20 forms (`_login_forms` / `_html_forms`) and `_mask_forms` searches the whole output for each, with
# no cap (`_mask_text` caps at 64). 30 KB of `//u:passNx@h/` costs ~18 s in `resolve --steps`.
def _many(n):
    return "x-a:" + "/".join(f"//u:pass{i}x@h" for i in range(n))


def _cpu(f):
    best = float("inf")
    for _ in range(2):
        t = time.process_time(); f(); best = min(best, time.process_time() - t)
    return best


@pytest.mark.parametrize("name,f", [
    ("level_html", lambda url: R.level_html(url)),
    ("resolve --steps", lambda url: _cli("resolve", "--steps", url, "g")),
])
def test_masking_is_quadratic_in_logins(name, f):
    small, large = _many(80), _many(800)
    f(small)  # warm up
    a, b = _cpu(lambda: f(small)), _cpu(lambda: f(large))
    assert b < 30 * max(a, 0.002), (name, a, b, b / max(a, 1e-9))


# Finding 4 (medium): a login urlencoded twice (`%253A%252F%252F ... %2540`) is masked by `str(u)`
# (`_loose_forms` unquotes the rest once), but shown by `u._repr_markdown_()` (its gate is
# `"%40" in text`), by errors (`str(e)`, `e.text`, pickle: `_all_password_spans` decodes one level),
# by the renderers, by `find_urls`' `Found` repr and by the CLI. Three levels: `str`/`repr`/pickle too.
def test_twice_urlencoded_login_shown():
    url = f"http://h/?next={TWICE}"
    u = parse_url(url)
    assert PW not in str(u)  # str masks it: the promise is read this way
    shown = {"markdown": u._repr_markdown_(),
             "parse_html": R.parse_html(url),
             "find_urls": repr(uri1630.find_urls(f"see <URL:{url}> x")),
             "cli parse": _cli("parse", url)}
    with pytest.raises(URIError) as ei:
        parse_url(f"http://h/^?next={TWICE}")
    e = ei.value
    shown.update({"e.text": str(e.text), "pickle(e)": pickle.dumps(e).decode("latin-1")})
    with pytest.raises(URIError) as ei:
        parse_url(f"http://h/?next={TWICE}&x=%zz")
    shown["str(e)"] = str(ei.value)
    leaks = {k: v for k, v in shown.items() if PW in v}
    assert not leaks, leaks


# Finding 5 (lower: a registered parser): a scheme class (an IPURL) whose parser keeps the userinfo as
# written in a field of its own (`auth='u:hunter2'`, no '@'): `repr`, `_repr_markdown_`, the pickle and
# what unpickles show the password the value itself holds as a `Secret`. `parts_html` masks it (it
# replaces the Secret's clear text in every part: `render._secrets`), so the value knows what to hide.
@dataclass(frozen=True, slots=True)
class _DbURL(IPURL):
    database: str
    auth: str  # the userinfo as written


def _parse_db(src):
    lg = parse_login(src)
    auth = src.text[src.start + 2: src.text.rfind("@", src.start, lg.end)]
    return _DbURL(_login_text(src, lg), src.scheme, lg.user, lg.password, lg.host, lg.port,
                  src.text[lg.end + 1: src.end], auth)


def test_registered_part_holding_userinfo():
    register_scheme("x-attack12-db", _parse_db, replace=True)
    u = parse_url(f"x-attack12-db://u:{PW}@h/db")
    assert u.password == PW and PW not in R.parts_html(u)  # parts_html hides it
    shown = {"repr": repr(u), "markdown": u._repr_markdown_(),
             "pickle": pickle.dumps(u).decode("latin-1"), "unpickled": repr(pickle.loads(pickle.dumps(u)))}
    leaks = {k: v for k, v in shown.items() if PW in v}
    assert not leaks, leaks
