"""Attack round 16 on uri1630 (RFC 1738 §6: a password is never shown).

Each `fNN_*` function feeds one input to one public call, ASSERTS that a piece of the password shows
in what uri1630 produced (so it raises AssertionError once the leak is fixed), and RETURNS the text
that leaks it. `python findings.py` runs them all and prints LEAK / fixed for each.
Run with the project's venv (.venv/bin/python). Servers are on 127.0.0.1 only.
"""
import io
import os
import sys
import pickle
import socket
import threading
from urllib.parse import quote, urlencode

import uri1630 as u

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kit import Srv, read_head, P, PIECES, leaks, show, err_texts, cli_output, report, http_server, ftp_server  # noqa: E402
from uri1630.schemes.gopher import parse_menu

_leaks, _show, _err, _cli, _Srv = leaks, show, err_texts, cli_output, Srv


_http, _ftp = http_server, ftp_server


# ---------------------------------------------------------------------------------------------
def f01_cli_parse_json_triple_encoded_at():
    """`uri1630 parse --json` / `parse -` on a login urlencoded three times (`%252540`): cli._login_like
    only looks for "%40"/"%2540" (round 15's H1 fixed errors._at_sign, not the CLI gate), so the
    fast writer prints the search unmasked. `parse` (no --json) masks the same URL."""
    x = f"http://a.b/p?r=%25252F%25252Fus%25253A{P}%252540h.x"
    return _show([_cli("parse", "--json", x), _cli("parse", "-", stdin=x + "\n")])


def f02_cli_parse_password_with_question_mark():
    """`uri1630 parse 'x-foo://us:PW?@h.x/f'`: RFC 1738 lets a password hold '?'; the CLI masks `path`
    (`//us:***@h.x/f`) but prints url_path `//us:PW` (and url_search `@h.x/f`): cli._shown_value
    masks a part only if `_at_sign(part)`, and the part was cut before the '@'. GenericURL's repr
    masks the same value. Also `http://a.b/x///us:PW?@h.x` (url_path)."""
    return _show([_cli("parse", f"x-foo://us:{P}?@h.x/f"),
                  _cli("parse", "--json", f"http://a.b/x///us:{P}?@h.x")])


def f03_encoded_tab_before_encoded_slashless_login():
    """`http://a.b/p?q=x%09ftp%3Aus%3APW%40h.x` (and a gopher search `gopher://a.b/7x%09ftp%3Aus%3APW%40h.x`):
    round 15 made `%XXftp:` a login start (H9) and made the readings decode %09 (H8). The reading
    that decodes %3A/%40 now also decodes %09 to a TAB, and _password_spans then drops the TAB
    (_through_breaks): `xftp:` is not a start any more. The same text with %20 is masked.
    Shown by HttpURL repr/str/markdown, URI repr, every URIError's .text/pickle, Found, CLI parse."""
    x = f"http://a.b/p?q=x%09ftp%3Aus%3A{P}%40h.x"
    g = f"gopher://a.b/7x%09ftp%3Aus%3A{P}%40h.x"
    return _show([repr(u.parse_url(x)), *_err(lambda: u.parse_url(x + " ")), str(u.parse_url(g)),
                  u.parse_url(g)._repr_markdown_()])


def f04_urlencode_plus_before_slashless_login():
    """`urlencode({'q': 'see ftp:us:PW@h.x'})` == `q=see+ftp%3Aus%3APW%40h.x` (urlencode writes a space
    as '+'). `_LOGIN_START`'s lookbehind `(?<![A-Za-z0-9+.\\-])` refuses a '+' before the scheme, so
    this login is shown everywhere (HttpURL repr, errors, CLI, compare), while `quote`'s `%20` form
    of the same text is masked. Same for `see+https%3A%2Fus%3APW%40h`."""
    x = "http://a.b/p?" + urlencode({"q": f"see ftp:us:{P}@h.x"})
    return _show([repr(u.parse_url(x)), *_err(lambda: u.parse_url(x + " ")),
                  _cli("parse", x), repr(u.compare(x, x.replace("Q", "q")))])


def f05_tab_separated_slashless_login():
    """A TAB (or LF/CR) between a word and a slashless login: a gopher menu line whose selector is
    `ftp:us:PW@h.x` (MenuItem's repr masks the selector) with a bad port: the message quotes
    `_cut(line, 80)!r`. _password_spans reads a text holding a TAB only with the TABs removed
    (`1dftp:` is no start), and the `!r` form `\\tftp:` has 't' before 'ftp'. Same hole in
    gopher_exchange's request check (`x\\tftp:us:PW@h\\x00\\r\\n`), ftp_session's command check,
    ServerText's repr (`ServerText('a\\nftp:us:PW@h')`), errors._masked."""
    menu = b"1d\tftp:us:" + P.encode() + b"@h.x\th\tbad\r\n"
    return _show([*_err(lambda: parse_menu(menu)),
                  *_err(lambda: u.gopher_exchange("127.0.0.1", 9, f"x\tftp:us:{P}@h.x\x00\r\n", "7")),
                  *_err(lambda: u.ftp_session("127.0.0.1", 9, [f"SITE x\tftp:us:{P}@h.x\n"])),
                  repr(u.ServerText(f"a\nftp:us:{P}@h"))])


def f06_escape_encoded_four_times_before_scheme():
    """The lookbehind of `_LOGIN_START` knows an escape before the scheme at 3 depths only (`%XX`,
    `%25XX`, `%2525XX`) while the readings decode `%(?:25)*` at any depth: `quote` applied 4 times to
    'see ftp:us:PW@h.x' gives `see%25252520ftp%2525253Aus%2525253APW%25252540h.x` -> URI repr,
    markdown, errors (.text, pickle), CLI show it (3 times: masked, except the CLI: f01)."""
    q = f"see ftp:us:{P}@h.x"
    for _ in range(4):
        q = quote(q, safe="")
    x = "http://a.b/p?q=" + q
    return _show([repr(u.parse(x)), u.parse(x)._repr_markdown_(), *_err(lambda: u.parse_url(x, "1630"))])


def f07_http_chunk_size_cut_before_mask():
    """A loopback HTTP server sends a chunk-size line `//us:PW...@h.x`: http._http_body writes
    `malformed chunk size {size[:20]!r}` -- cut at 20 octets without _cut, the '@' beyond the cut,
    so URIError's message mask finds no login (round 15's H11 fixed _cut, this site has none)."""
    with _http(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n//us:" + P.encode() * 3 + b"@h.x\r\n") as s:
        return _show(_err(lambda: u.retrieve(f"http://127.0.0.1:{s.port}/x", timeout=3)))


def f08_http_content_length_cut_before_mask():
    """Same as f07 for `Content-Length: //us:PW...@h.x`: `malformed Content-Length {cl[:20]!r}`."""
    with _http(b"HTTP/1.1 200 OK\r\nContent-Length: //us:" + P.encode() * 3 + b"@h.x\r\n\r\n") as s:
        return _show(_err(lambda: u.retrieve(f"http://127.0.0.1:{s.port}/x", timeout=3)))


def f09_gopher_plus_error_cut_before_mask():
    """A Gopher+ server's error reply `-1 <180 chars> ftp://us:PW...@h.x`: gopher._gopher_plus_body
    builds `ServerText((h + rest).strip()[:200])` -- cut at 200 octets before any mask."""
    def h(c):
        c.recv(4096)
        c.sendall(b"-1 " + b"e" * 180 + b" ftp://us:" + P.encode() * 4 + b"@h.x\r\n")
    with _Srv(h) as s:
        return _show(_err(lambda: u.retrieve(f"gopher://127.0.0.1:{s.port}/1x%09%09+", timeout=3)))


def f10_ftp_multiline_reply_cut_at_4096():
    """An FTP server's multi-line 530 reply to USER whose login crosses octet 4096: ftp._ftp_reply keeps
    `text[:4096]` (bytes, no _cut), and the message `... {code} {text}` shows the password's prefix."""
    def rep(cmd):
        if cmd.startswith("USER"):
            return (b"530-" + b"a" * 4060 + b"\r\n530-zz ftp://us:" + P.encode() * 3
                    + b"@h.x\r\n530 end\r\n")
        return b"221 bye\r\n"
    with _ftp(rep) as s:
        return _show(_err(lambda: u.retrieve(f"ftp://127.0.0.1:{s.port}/f", timeout=3)))


def f11_ftp_session_pass_tab_in_dialogue():
    """ftp_session(['USER us', 'PASS\\tPW']) (or ' PASS PW'): round 15 (H10) taught _check_commands that
    `PASS<TAB>` is a PASS line (`_PASS_LINE = \\s*PASS\\b`), but the dialogue still reads the verb by
    `cmd.split(' ')` and the secrets by `cmd[:5] == 'PASS '`: the command goes to the trace as sent
    and into `FTP server refused 'PASS\\tPW': 530` (message, args, .command, pickle)."""
    lines = []

    def rep(cmd):
        return b"200 ok\r\n" if cmd.startswith("USER") else b"530 no\r\n"
    with _ftp(rep) as s:
        out = _err(lambda: u.ftp_session("127.0.0.1", s.port, ["USER us", "PASS\t" + P], timeout=3,
                                         trace=lambda d, l: lines.append(repr(l))))
    return _show(out + lines)


def f12_retrieval_options_repr():
    """`RetrievalOptions` (public; what every `register_retrieval` function is handed) is a NamedTuple
    with the default repr: it shows `url=` with the login's password and the `password=` option."""
    got = []

    def fn(url, o):
        got.append(repr(o))
        return b""
    u.register_retrieval("x-r16", fn, replace=True)
    u.retrieve(f"x-r16://us:{P}@h.x/f", password=P[::-1])
    assert P[::-1][:4] in got[0]  # the password= option as well
    return _show(got)



if __name__ == "__main__":
    report(globals())
