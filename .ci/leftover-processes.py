"""The processes still running that carry the mark `URI1630_RUN=<token>` in their environment (every process a
command started inherits it: the notebooks' servers, their watchdogs), this one and its parents left out.

    python .ci/leftover-processes.py TOKEN [--wait SECONDS]

Waits up to SECONDS (default 5: a server's watchdog ends it within about 2 s of its parent's end), then prints
each one left (pid and command line) and exits 1; exits 0 when none is left.
"""
import os, sys, time
from pathlib import Path


def _ancestors() -> set[int]:
    "This process and its parents: they carry the mark too"
    out, pid = set(), os.getpid()
    while pid > 1 and pid not in out:
        out.add(pid)
        try: pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError): break
    return out


def marked(token: str) -> dict[int, str]:
    "pid -> command line of each live process (not a zombie) whose environment holds `URI1630_RUN=token`"
    mark, skip, out = f"URI1630_RUN={token}".encode(), _ancestors(), {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit() or int(d.name) in skip:
            continue
        try:
            if mark not in (d / "environ").read_bytes().split(b"\0"):
                continue
            if (d / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                continue
            out[int(d.name)] = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:200]
        except OSError:
            continue   # gone meanwhile, or not ours to read
    return out


def main(argv: list[str]) -> int:
    token = argv[0]
    wait = float(argv[argv.index("--wait") + 1]) if "--wait" in argv else 5.0
    end = time.monotonic() + wait
    left = marked(token)
    while left and time.monotonic() < end:
        time.sleep(0.25)
        left = marked(token)
    for pid, cmd in sorted(left.items()):
        print(f"  still running: pid {pid}: {cmd}", file=sys.stderr)
    if left:
        print(f"FAIL: {len(left)} process(es) started by the notebooks outlived them", file=sys.stderr)
        return 1
    print("no process started by the notebooks is still running")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
