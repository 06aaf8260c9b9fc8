"""The `uri1630` command line, run as a real subprocess: exit codes, stdin streaming, pipes, closed and full
output, Ctrl-C, no tracebacks."""
import io, json, os, select, shlex, signal, subprocess, sys, tracemalloc
from pathlib import Path
import pytest
from scaling import assert_linear, children_cpu
from shared_corpus import corpus_lines

ROOT = Path(__file__).resolve().parent.parent
EX3 = "news:12345667123%asdghfh@info.cern.ch"


def cli(*args, stdin=None, binary=False):
    "Run `python -m uri1630 ARGS` and return the completed process (text unless `binary`)"
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "uri1630", *args], input=stdin, capture_output=True,
                          text=not binary, cwd=ROOT, env=env, timeout=120)


def test_demo():
    r = cli("demo")
    assert r.returncode == 0 and "Example 1: equivalent(A, B) = True" in r.stdout


@pytest.mark.parametrize("args", [(), ("frobnicate",), ("check",), ("compare", "a:b"), ("canon", "--level", "nonesuch", "a:b"),
                                  ("check", "--grammar", "nonesuch", "a:b"), ("extract", "/nonexistent/file"),
                                  ("canon", "--encoding", "nonesuch", "a:b"), ("resolve", "--reading", "nonesuch", "a:b", "c")])
def test_bad_usage_exits_2_with_usage(args):
    r = cli(*args)
    assert r.returncode == 2, (args, r)
    assert "usage:" in r.stderr or "error:" in r.stderr
    assert "Traceback" not in r.stderr


def test_check_exit_codes_and_caret():
    assert cli("check", "http://info.cern.ch/albert/bertram/marie-claude").returncode == 0
    r = cli("check", "http://a/b", EX3)
    assert r.returncode == 1
    line, caret = r.stdout.splitlines()[:2]
    assert line == EX3 and caret.index("^") == 16 and "escape" in caret


def test_canon_and_compare():
    r = cli("canon", "HTTP://info.cern.ch/albert/bertram/marie%2Dclaude")
    assert (r.returncode, r.stdout) == (0, "http://info.cern.ch/albert/bertram/marie-claude\n")
    assert cli("compare", "http://info.cern.ch/albert/bertram/marie-claude", "http://info.cern.ch/albert/bertram/marie%2Dclaude").returncode == 0
    r = cli("compare", "http://info.cern.ch/albert/bertram/marie-claude", "http://info.cern.ch/albert/bertram%2Fmarie-claude")
    assert r.returncode == 1 and r.stdout.startswith("different")
    r = cli("compare", "http://a/b", "x:%zz")
    assert r.returncode == 2 and r.stdout == "" and r.stderr.startswith("uri1630 compare: error: ")


def test_bad_input_is_one_line_not_a_traceback():
    for args in (("canon", "x:%zz"), ("compare", "x:%zz", "y:a"), ("canon", "http://h/\u62e0"), ("parse", "http://h:999999999999999999999999/"),
                 ("resolve", "g", "h")):
        r = cli(*args)
        assert r.returncode == 2, args
        assert r.stderr.startswith(f"uri1630 {args[0]}: error: "), r.stderr   # one label style for every command
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_stdin_one_result_per_line():
    r = cli("canon", "-", stdin="HTTP://a/%62\nx:%zz\nc:d\n")
    assert r.returncode == 2 and r.stdout == "http://a/b\n\nc:d\n"
    assert r.stderr.startswith("uri1630 canon: error: line 2: ")
    r = cli("check", "-", stdin=f"http://a/b\n{EX3}\n")
    assert r.returncode == 1 and r.stdout.splitlines()[0] == "valid" and r.stdout.splitlines()[1].startswith("invalid\t16\tescape")
    r = cli("parse", "-", stdin="http://a/b?c\nnews:x\n")
    assert [json.loads(l)["scheme"] for l in r.stdout.splitlines()] == ["http", "news"]


def test_stdin_bytes_that_are_not_utf8():
    r = cli("canon", "-", stdin=b"http://a/\xff\nhttp://a/b\n", binary=True)
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    assert r.stdout.split(b"\n")[1] == b"http://a/b"
    assert b"line 1: byte 0xFF at position 9 is not utf-8" in r.stderr and b"--encoding latin-1" in r.stderr
    r = cli("canon", "--encoding", "latin-1", "-", stdin=b"http://a/\xff\n", binary=True)   # the flag the advice names
    assert (r.returncode, r.stdout) == (0, b"http://a/%FF\n")


def test_parse_json_is_flat():
    r = cli("parse", "--json", "http://info.cern.ch/albert/bertram/marie-claude?dobbins#andy")
    d = json.loads(r.stdout)
    assert r.returncode == 0 and d["scheme"] == "http" and d["fragment"] == "andy"
    assert all(not isinstance(v, dict) for v in d.values())


def test_extract_file_and_stdin(tmp_path):
    text = ("Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;\n type=d> but you can probably pick "
            "it up from <URL:ftp://ds.in\n ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.\n"
            " net/instructions/overview.html#WARNING>.")
    want = ["ftp://info.cern.ch/pub/www/doc;type=d", "ftp://ds.internic.net/rfc",
            "http://ds.internic.net/instructions/overview.html#WARNING"]
    assert cli("extract", stdin=text).stdout.splitlines() == want
    f = tmp_path / "mail.txt"; f.write_text(text * 1000)
    r = cli("extract", str(f))
    assert r.returncode == 0 and r.stdout.splitlines() == want * 1000


def test_broken_pipe_is_quiet():
    "The reader goes away (`| head -1`): status 141, nothing on stderr"
    p = subprocess.run(f"{shlex.quote(sys.executable)} -m uri1630 canon - | head -1; echo \"status ${{PIPESTATUS[0]}}\" >&2", shell=True,
                       executable="/bin/bash", capture_output=True, text=True, input="http://a/b\n" * 200_000, cwd=ROOT, timeout=120)
    assert p.stdout == "http://a/b\n"
    assert p.stderr.strip() in ("status 141", "status 1"), p.stderr     # quiet: no traceback, no message


def _partial_exists():
    try: import uri1630.partial  # noqa
    except ImportError: return False
    return True


@pytest.mark.skipif(not _partial_exists(), reason="uri1630.partial not present")
def test_resolve_and_relative():
    r = cli("resolve", "http://info.cern.ch/albert/bertram/marie-claude", "dobbins")
    assert r.returncode == 0 and r.stdout == "http://info.cern.ch/albert/bertram/dobbins\n"
    r = cli("resolve", "http://info.cern.ch/albert/bertram/marie-claude", "-", stdin="dobbins\n/x\n")
    assert r.stdout.splitlines() == ["http://info.cern.ch/albert/bertram/dobbins", "http://info.cern.ch/x"]
    r = cli("relative", "http://info.cern.ch/albert/bertram/marie-claude", "http://info.cern.ch/albert/bertram/dobbins")
    assert r.returncode == 0 and r.stdout == "dobbins\n"


def test_canon_stream_corpus_is_linear():
    "The corpus (or its vendored sample) through `canon -`: one output line per input line; x10 the lines, < x30 the CPU time"
    lines = corpus_lines()
    def work(n):
        data = "".join(lines[i % len(lines)] + "\n" for i in range(n)).encode()
        r = cli("canon", "-", stdin=data, binary=True)
        assert r.stdout.count(b"\n") == n and b"Traceback" not in r.stderr
    assert_linear(work, 2000, clock=children_cpu, repeat=1, max_doublings=2)


def test_lines_end_at_newline_only():
    "CRLF line ends are stripped; a stray CR inside a line is part of it (and gets encoded), not a line end"
    r = cli("canon", "-", stdin=b"http://a/b\r\nhttp://a/%62\rx\n", binary=True)
    assert r.stdout == b"http://a/b\nhttp://a/b%0Dx\n"


def test_version_and_help():
    from uri1630.cli import EXAMPLES, _COMMANDS
    r = cli("--version")
    assert r.returncode == 0 and r.stdout.startswith("uri1630 ") and r.stdout.split()[1][0].isdigit()
    h = cli("--help")
    assert h.returncode == 0
    for name in set(_COMMANDS) - {"canonical"} | {"demo"}:
        assert f"\n    {name} " in h.stdout, name                  # listed ...
        assert any(l.split()[:2] == ["uri1630", name] for l in h.stdout.splitlines()), name   # ... with an example


def test_help_examples_run():
    "Each example of `uri1630 --help` runs (all but `get` and `extract`, which need a file): status 0, or 1 for check's bad URI"
    from uri1630.cli import EXAMPLES
    import shlex
    for name, line in EXAMPLES.items():
        if name in ("get", "extract"): continue
        r = cli(*shlex.split(line.split("#")[0])[1:])
        assert r.returncode == (1 if name == "check" else 0) and "Traceback" not in r.stderr, (line, r)


def test_exit_statuses_distinct():
    "0 yes/ok, 1 no/different, 2 bad input or usage, the same for every command"
    assert cli("compare", "http://a/b", "http://a/%62").returncode == 0
    assert cli("compare", "http://a/b", "http://a/c").returncode == 1
    assert cli("compare", "http://a/b", "x:%zz").returncode == 2
    r = cli("compare", "http://h/\u62e0", "http://h/%E6%8B%A0")     # beyond Latin-1: the advice names the flag
    assert r.returncode == 2 and "use --charset utf-8" in r.stderr and "encoding=" not in r.stderr, r.stderr
    assert cli("compare", "--charset", "utf-8", "http://h/\u62e0", "http://h/%E6%8B%A0").returncode == 0
    assert cli("check", "http://a/b").returncode == 0
    assert cli("check", EX3).returncode == 1
    assert cli("check", "--grammar", "nonesuch", "a:b").returncode == 2
    assert cli("canon", "x:%zz").returncode == 2 and cli("parse", "--json", "http://h:999999999999999999999999/").returncode == 2
    assert cli("get", "mailto:a@b").returncode == 1 and cli("get", "x:%zz").returncode == 2
    assert cli("get", "--timeout", "inf", "file:///x").returncode == 2


def test_check_hints_the_grammar_that_accepts():
    r = cli("check", "ftp://info.cern.ch/pub/www/doc;type=d")         # the README's own example
    assert r.returncode == 1 and "  hint: valid under --grammar rfc1738" in r.stdout.splitlines()
    assert cli("check", "--grammar", "rfc1738", "ftp://info.cern.ch/pub/www/doc;type=d").returncode == 0


def test_parse_json_path_means_one_thing():
    "`path` is the generic path for http and file alike; the scheme's own path is `url_path`"
    h = json.loads(cli("parse", "--json", "http://h/a/b").stdout)
    f = json.loads(cli("parse", "--json", "file://h/a/b").stdout)
    assert h["path"] == f["path"] == "//h/a/b"
    assert (h["url_path"], f["url_path"]) == ("a/b", "/a/b")


def _readline(stream, timeout):
    "One line from `stream` (a pipe), or None if none comes within `timeout` seconds"
    ready, _, _ = select.select([stream], [], [], timeout)
    return stream.readline() if ready else None


def _popen(*args, **kw):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.Popen([sys.executable, "-m", "uri1630", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT, env=env, **kw)


def test_line_buffered_on_a_pipe():
    "`tail -f | uri1630 canonical -`: each result comes out while stdin is still open"
    p = _popen("canonical", "-")
    try:
        for line, want in ((b"HTTP://a/%62\n", b"http://a/b\n"), (b"x:%41\n", b"x:A\n")):
            p.stdin.write(line); p.stdin.flush()
            assert _readline(p.stdout, 60) == want
        p.stdin.close()
        assert p.wait(60) == 0
    finally:
        if p.poll() is None: p.kill(); p.wait()


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
def _sigint_default():
    "In the child: SIGINT as a terminal delivers it (a job started in the background inherits it ignored, and Python keeps it so)"
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_exits_130_quietly():
    "SIGINT while reading stdin: status 130, what was produced is out, no traceback"
    p = _popen("canon", "-", preexec_fn=_sigint_default)
    try:
        p.stdin.write(b"HTTP://a/b\n"); p.stdin.flush()
        assert _readline(p.stdout, 60) == b"http://a/b\n"
        p.send_signal(signal.SIGINT)
        assert p.wait(60) == 130
        assert b"Traceback" not in p.stderr.read()
    finally:
        if p.poll() is None: p.kill(); p.wait()
        for f in (p.stdin, p.stdout, p.stderr):
            try: f.close()
            except BrokenPipeError: pass


def test_closed_stdout():
    "stdout closed (`>&-`): status 1, one line on stderr, no traceback"
    r = subprocess.run(f"{shlex.quote(sys.executable)} -m uri1630 canon HTTP://a/b >&-", shell=True, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 1 and "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1, r


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_dev_full():
    "Writing to a full device: one line on stderr, status 1"
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "uri1630", "canon", "HTTP://a/b"], stdout=full, stderr=subprocess.PIPE, text=True,
                           cwd=ROOT, timeout=60)
    assert r.returncode == 1 and r.stderr.splitlines() == ["uri1630 canon: error: cannot write the output: No space left on device"], r.stderr


def test_closed_stderr_keeps_errors_out_of_stdout():
    "stderr closed (`2>&-`): error text is dropped, never mixed into stdout"
    r = subprocess.run(f"printf 'x:%%zz\\nHTTP://a/b\\n' | {shlex.quote(sys.executable)} -m uri1630 canon - 2>&-", shell=True, capture_output=True,
                       text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 2 and r.stdout == "\nhttp://a/b\n", r


def test_parse_stream_memory_is_constant(monkeypatch):
    "`parse -` processes line by line: 5x the lines does not raise the peak memory (in-process, output discarded)"
    import uri1630.cli as C
    from uri1630.cli import main
    monkeypatch.setattr(C, "BLOCK", 200)      # both sizes fill many blocks: only a leak could tell them apart
    class Null(io.StringIO):
        def write(self, s): return len(s)
    def peak(n):
        src = io.StringIO("http://info.cern.ch/albert/bertram/marie-claude?dobbins\n" * n)
        tracemalloc.start()
        try: assert main(["parse", "-"], src, Null(), io.StringIO()) == 0; return tracemalloc.get_traced_memory()[1]
        finally: tracemalloc.stop()
    small, big = peak(2_000), peak(10_000)
    assert big < 1.5 * small, (small, big)


def test_get_total_timeout_gives_up_on_a_trickle():
    "`get --total-timeout` bounds the whole retrieval (issue #14): a server sending one byte every 0.25 s for 60 s is left at the deadline"
    import time
    import servers as S
    def trickle(c, rec):
        rec.append(S.read_until(c, b"\r\n\r\n"))
        for b in b"HTTP/1.0 200 OK\r\n\r\n" + b"x" * 240: c.sendall(bytes([b])); time.sleep(0.25)
    with S.Misbehaving(trickle) as m:
        t = time.monotonic()
        r = cli("get", "--total-timeout", "1", f"http://{m.host}:{m.port}/")
        took = time.monotonic() - t
    assert r.returncode == 1 and "total" in r.stderr and "Traceback" not in r.stderr, (r.returncode, r.stderr)
    assert took < 30, took                       # the trickle alone would take 60 s
    assert "(default 60)" in " ".join(cli("get", "--help").stdout.split())
    for bad in ("inf", "0", "-1", "nan"):
        r = cli("get", "--total-timeout", bad, "http://127.0.0.1:9/")
        assert r.returncode == 2 and "finite and positive" in r.stderr, (bad, r.returncode, r.stderr)
