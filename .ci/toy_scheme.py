"""The claim "a scheme is one notebook" as a gate (#28): add a toy scheme to a copy of the repository by following
Contributing's "Adding a scheme" checklist word for word, and pass only if nothing but the new notebook and the
files generated from it was written.

    python .ci/toy_scheme.py [--keep]

1. copy the tracked files (as they are in the working tree) to a temporary directory, commit them there;
2. take the checklist, the first ```sh block after "**Adding a scheme.**" in nbs/index.ipynb (the source of
   README.md), and run it with bash -e, but its last step (`bash .ci/test`, everything CI runs: this gate is one
   of its steps); its example is the toy: `finger:`, from nbs/_template_scheme.ipynb;
3. fail if `git status` shows anything but the new notebook, its module and the generated files (`GENERATED`),
   or if a process the checklist started is still running (.ci/leftover-processes.py).

The copy's `.venv` is a link to this checkout's (.ci/test made it); `--keep` leaves the copy for a look.
"""
import json, os, re, shutil, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# written by the checklist's commands, not by hand: nbdev's index of every module (nbdev_export), and README.md
# (.ci/readme.py runs nbs/index.ipynb, whose outputs show what the package holds: the new scheme among it)
GENERATED = {"uri1630/_modidx.py", "README.md"}


def checklist(index: Path) -> list[str]:
    "The lines of the checklist: the first ```sh block after **Adding a scheme.** in the notebook `index`"
    text = "".join("".join(c["source"]) for c in json.loads(index.read_text(encoding="utf-8"))["cells"]
                   if c["cell_type"] == "markdown")
    at = text.find("**Adding a scheme.**")
    m = re.search(r"```sh\n(.*?)```", text[at:], re.S) if at >= 0 else None
    if m is None: sys.exit("FAIL: nbs/index.ipynb, Contributing: no ```sh checklist after **Adding a scheme.**")
    return m.group(1).splitlines()


def main(argv: list[str]) -> int:
    t0 = time.monotonic()
    lines = checklist(ROOT / "nbs" / "index.ipynb")
    run = [l for l in lines if l.strip() != "bash .ci/test"]
    assert len(run) == len(lines) - 1, "the checklist's last step is `bash .ci/test`"
    work = Path(tempfile.mkdtemp(prefix="uri1630-toy-"))
    try:
        files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        for f in files.decode().split("\0"):
            if f and (ROOT / f).is_file():
                (work / f).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / f, work / f)
        venv = Path(os.environ.get("URI1630_VENV", ROOT / ".venv")).resolve()
        (work / ".venv").symlink_to(venv)
        git = ["git", "-c", "user.email=ci@localhost", "-c", "user.name=ci"]
        for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "the repository as it is"]):
            subprocess.run(git + cmd, cwd=work, check=True)
        token = f"toy{os.getpid()}"
        env = {**os.environ, "URI1630_RUN": token, "PYTHONPATH": str(work)}
        script = "set -euo pipefail\nset -x\n" + "\n".join(run) + "\n"
        print(f"-- the checklist ({len(run)} lines) in a copy of the repository")
        r = subprocess.run(["bash", "-c", script], cwd=work, env=env)
        if r.returncode != 0:
            print(f"FAIL: nbs/index.ipynb, Contributing, 'Adding a scheme': the checklist failed (exit {r.returncode})",
                  file=sys.stderr)
            return 1
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=work,
                                capture_output=True, text=True, check=True).stdout.splitlines()
        new = [l[3:] for l in status if l[:2] in ("??", "A ")]   # untracked, or added by the checklist's `git add`
        notebooks = [f for f in new if re.fullmatch(r"nbs/\d+_\w+\.ipynb", f)]
        modules = [f"uri1630/schemes/{Path(n).stem.split('_', 1)[1]}.py" for n in notebooks]
        allowed = set(notebooks) | set(modules) | GENERATED
        other = [l for l in status if l[3:] not in allowed]
        print("-- git status after the checklist:\n" + "\n".join(f"   {l}" for l in status))
        if len(notebooks) != 1 or not set(modules) <= set(new) or other:
            print(f"FAIL: the checklist wrote more than the new notebook and its generated files: {other or status}",
                  file=sys.stderr)
            return 1
        rc = subprocess.run([sys.executable, str(ROOT / ".ci" / "leftover-processes.py"), token]).returncode
        print(f"-- a scheme added as Contributing says ({notebooks[0]}), nothing else written by hand, "
              f"in {time.monotonic() - t0:.0f} s")
        return rc
    finally:
        if "--keep" in argv: print(f"the copy: {work}")
        else: shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
