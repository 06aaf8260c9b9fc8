"""Attack round 17 on uri1630 (RFC 1738 §6: a password is never shown).

Each `fNN_*` function feeds one input to one public call, ASSERTS that a piece of the password shows
in what uri1630 produced (so it raises AssertionError once the leak is fixed), and RETURNS the text
that leaks it. `python findings.py` runs them all and prints LEAK / fixed for each.
Run with the project's venv (.venv/bin/python). Servers are on 127.0.0.1 only.
"""
import io
import os
import sys
import pickle
import time

import uri1630 as u

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kit import Srv, read_head, P, PIECES, leaks, show, err_texts, cli_output, report, http_server, ftp_server  # noqa: E402

_leaks, _show, _err, _cli = leaks, show, err_texts, cli_output


_http, _ftp = http_server, ftp_server


# ---------------------------------------------------------------------------------------------
def f01_retrieval_error_command_http():
    """`retrieve('http://127.0.0.1:PORT/x//us:PW@h.x')` against a server that answers garbage:
    RetrievalError's message and .text are masked, but `.command` is `'GET /x//us:PW@h.x'`:
    RetrievalError.__init__ stores `_visible(command)` only -- neither `_masked` nor `_mask_known`
    (the URL's password IS registered by access._dispatch, so every message masks it; the
    command is the one field that bypasses both). It is in repr(e.command), pickle.dumps(e)."""
    with _http(b"garbage\r\n") as s:
        return _show(_err(lambda: u.retrieve(f"http://127.0.0.1:{s.port}/x//us:{P}@h.x", timeout=3)))


def f02_retrieval_error_command_ftp_cwd():
    """`retrieve('ftp://127.0.0.1:PORT/d%20ftp:%2F%2Fus:PW@h.x/f')`; the server refuses CWD:
    message `FTP server refused 'CWD d ftp://us:***@h.x'` is masked, `.command` is
    `'CWD d ftp://us:PW@h.x'` (decoded segment, unmasked), and in the pickle. Same cause as f01."""
    def rep(cmd):
        return b"230 ok\r\n" if cmd.startswith(("USER", "PASS")) else b"500 no\r\n"
    with _ftp(rep) as s:
        return _show(_err(lambda: u.retrieve(f"ftp://127.0.0.1:{s.port}/d%20ftp:%2F%2Fus:{P}@h.x/f",
                                             timeout=3)))


def f03_retrieval_error_command_gopher():
    """`retrieve('gopher://127.0.0.1:PORT/0x%20ftp://us:PW@h.x')`; the server sends a type-3 error
    line: `gopher_exchange` fails with `command=request.rstrip()` = `'x ftp://us:PW@h.x'`, stored
    unmasked in `.command` (and the pickle). Same with gopher_exchange(...) called directly."""
    def h(c):
        c.recv(4096)
        c.sendall(b"3err\tx\th\t70\r\n.\r\n")
    with Srv(h) as s:
        return _show(_err(lambda: u.retrieve(f"gopher://127.0.0.1:{s.port}/0x%20ftp://us:{P}@h.x",
                                             timeout=3)))


def f04_gopher_type3_display_cut_at_tab():
    """A gopher server's type-3 error line `3see ftp://us:PW<TAB>@h.x<TAB>h<TAB>70`: gopher_exchange
    builds `ServerText(first[1:].split(b'\\t')[0])` -- a cut at the first TAB (a `.split(...)[0]`,
    which tests/test_cuts.py does not see) made before any mask. The library itself reads
    `ftp://us:PW<TAB>@h.x` as a login (a browser drops the TAB: `_through_breaks`), but after the
    cut `see ftp://us:PW` holds no '@', so `gopher server error: see ftp://us:PW` is shown whole
    (str, repr, args, pickle)."""
    def h(c):
        c.recv(4096)
        c.sendall(b"3see ftp://us:" + P.encode() + b"\t@h.x\th\t70\r\n.\r\n")
    with Srv(h) as s:
        return _show(_err(lambda: u.retrieve(f"gopher://127.0.0.1:{s.port}/0x", timeout=3))
                     + [_cli("get", f"gopher://127.0.0.1:{s.port}/0x", "--timeout", "3")])


def f05_session_trace_shows_request_login():
    """`gopher_exchange(host, port, 'x ftp://us:PW@h.x\\r\\n', '1', trace=t)` and
    `ftp_session(host, port, ['USER a', 'PASS b', 'CWD ftp://us:PW@h.x'], trace=t)`: the trace
    gets each sent line as a ServerText whose repr masks the login but whose text (what `print`
    or `str` shows -- the documented way to use a trace) is the raw line: `_shown_trace` applies
    only `_mask_known`, and outside `retrieve` nothing registered the login's password.
    (`retrieve` of the same gopher URL traces `x ftp://us:***@h.x`.)"""
    lines = []

    def h(c):
        c.recv(4096)
        c.sendall(b"iok\tx\th\t70\r\n.\r\n")
    with Srv(h) as s:
        u.gopher_exchange("127.0.0.1", s.port, f"x ftp://us:{P}@h.x\r\n", "1", timeout=3,
                          trace=lambda d, l: lines.append(f"{d} {l}"))

    def rep(cmd):
        return b"230 ok\r\n"
    with _ftp(rep) as s:
        try:
            u.ftp_session("127.0.0.1", s.port, ["USER a", "PASS b", f"CWD ftp://us:{P}@h.x"],
                          timeout=3, trace=lambda d, l: lines.append(f"{d} {l}"))
        except u.URIError:
            pass
    return _show(lines)


def f06_cli_parse_quadratic_form_masking():
    """`uri1630 parse URL` / `parse --json URL` on `http://h.x/a/` + n segments `/u:pNNNNNNx@h/` +
    `?` + 20n 'a's: cli._shown collects the forms of every login's password (~15 per login: no cap)
    and `_shown_value` masks them in every part WITHOUT an '@' via `_mask_forms(v, sorted(forms),
    least=2)` (round 16's new branch; the '@' branch `_mask_text` caps forms at 64): one scan of
    the part per form, O(logins x part length), quadratic. CPU time n vs 4n: ratio ~9-13
    (2000 logins/68 KB: 0.7 s; 8000/272 KB: 9.6 s). Returns the timings; asserts ratio > 5."""
    from uri1630.cli import main

    def url(n):
        return "http://h.x/a/" + "".join(f"/u:p{i:06d}x@h/" for i in range(n)) + "?" + "a" * (20 * n)

    def cpu(n):
        x = url(n)
        t = time.process_time()
        main(["parse", x], io.StringIO(""), io.StringIO(), io.StringIO())
        return time.process_time() - t
    cpu(100)
    a, b = cpu(1000), cpu(4000)
    assert b / a > 5, f"ratio {b / a:.1f}: fixed"
    return f"parse: n=1000 {a:.3f}s, n=4000 {b:.3f}s, ratio {b / a:.1f}"


def f07_http_reason_phrase_control_before_slashless_login():
    """An HTTP server's status line `HTTP/1.0 404 see<FF>ftp:us:PW@h.x`: the reason is made a
    ServerText, whose text writes the FF as `\\x0c`, so the message is `HTTP 404 see\\x0cftp:us:PW@h.x`:
    `_LOGIN_START` refuses a start after a letter ('c' of `\\x0c`). The raw text (FF before `ftp:`)
    IS read as a login (`errors._masked('see\\x0cftp:us:PW@h.x')` masks it) -- every control but
    TAB/LF/CR (VT, FF, NUL, 0x1c-0x1f, DEL, C1) becomes `\\xNN` and hides the login start. Only
    `_without_quoted_breaks` knows `\\t \\n \\r`. Shown by str(e), repr, args, pickle, `uri1630 get`."""
    with _http(b"HTTP/1.0 404 see\x0cftp:us:" + P.encode() + b"@h.x\r\n\r\n") as s:
        return _show(_err(lambda: u.retrieve(f"http://127.0.0.1:{s.port}/f", timeout=3)))


def f08_visible_escape_hides_login_start_reprs():
    """Same hole (a control shown as `\\xNN` before a slashless login) in reprs and messages built
    with no server: `parse_menu(b'1d\\x0bftp:us:PW@h.x\\tsel\\th\\t70\\r\\n')` -> MenuItem repr
    `display=ServerText('d\\x0bftp:us:PW@h.x')` (MenuItem masks the selector only);
    `repr(ServerText('see\\x0bftp:us:PW@h.x'))` (it masks `repr(raw)`, already escaped);
    `str(URIError('bad see\\x1cftp:us:PW@h.x'))` (__init__ applies `_visible` before masking)."""
    from uri1630.schemes.gopher import parse_menu
    m = parse_menu(b"1d\x0bftp:us:" + P.encode() + b"@h.x\tsel\th\t70\r\n.\r\n")
    return _show([repr(m[0]), repr(u.ServerText(f"see\x0bftp:us:{P}@h.x")),
                  str(u.URIError(f"bad see\x1cftp:us:{P}@h.x"))])



if __name__ == "__main__":
    report(globals())
