"""The `uri1630` command line, run as a real subprocess: exit codes, stdin streaming, no tracebacks."""
import json, os, subprocess, sys, time
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path("/work/shared/corpus")
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


def test_bad_input_is_one_line_not_a_traceback():
    for args in (("canon", "x:%zz"), ("compare", "x:%zz", "y:a"), ("canon", "http://h/\u62e0")):
        r = cli(*args)
        assert r.returncode == 1, args
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_stdin_one_result_per_line():
    r = cli("canon", "-", stdin="HTTP://a/%62\nx:%zz\nc:d\n")
    assert r.returncode == 1 and r.stdout == "http://a/b\n\nc:d\n"
    assert "line" in r.stderr or "URI 2" in r.stderr
    r = cli("check", "-", stdin=f"http://a/b\n{EX3}\n")
    assert r.returncode == 1 and r.stdout.splitlines()[0] == "valid" and r.stdout.splitlines()[1].startswith("invalid\t16\tescape")
    r = cli("parse", "-", stdin="http://a/b?c\nnews:x\n")
    assert [json.loads(l)["scheme"] for l in r.stdout.splitlines()] == ["http", "news"]


def test_stdin_bytes_that_are_not_utf8():
    r = cli("canon", "-", stdin=b"http://a/\xff\nhttp://a/b\n", binary=True)
    assert r.returncode == 1 and b"Traceback" not in r.stderr
    assert r.stdout.split(b"\n")[1] == b"http://a/b"


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
    p = subprocess.run(f"{sys.executable} -m uri1630 canon - | head -1", shell=True, capture_output=True, text=True,
                       input="http://a/b\n" * 200_000, cwd=ROOT)
    assert p.stdout == "http://a/b\n" and "Traceback" not in p.stderr


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


@pytest.mark.skipif(not (CORPUS / "kasztp.txt").exists(), reason="corpus not at hand")
def test_canon_stream_corpus_speed(tmp_path):
    "The whole corpus (~109k lines) through `canon -`: one output line per input line, in under 2 s of CPU"
    data = b"".join((CORPUS / n).read_bytes() for n in ("isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"))
    n_in = data.count(b"\n")
    t0 = os.times()
    r = cli("canon", "-", stdin=data, binary=True)
    t1 = os.times()
    cpu = (t1.children_user + t1.children_system) - (t0.children_user + t0.children_system)
    assert r.stdout.count(b"\n") == n_in
    assert b"Traceback" not in r.stderr
    # CPU time, not wall time: the CI machine is shared; the goal is < 2 s
    assert cpu < float(os.environ.get("URI1630_CANON_BUDGET", "2.0")), cpu


def test_lines_end_at_newline_only():
    "CRLF line ends are stripped; a stray CR inside a line is part of it (and gets encoded), not a line end"
    r = cli("canon", "-", stdin=b"http://a/b\r\nhttp://a/%62\rx\n", binary=True)
    assert r.stdout == b"http://a/b\nhttp://a/b%0Dx\n"
