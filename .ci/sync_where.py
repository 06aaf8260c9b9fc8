"""Where the package and the notebooks disagree: for each line `nbdev_export` changed in uri1630/ (the working tree
against git's index), the notebook and the cell it comes from (the `# %% ../nbs/NAME.ipynb #CELLID` marker
above it in the module). Used by .ci/test's gate "the exported package is in sync with the notebooks".

    python .ci/sync_where.py
"""
import re, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARK = re.compile(r"^# %% (\S+\.ipynb) #(\w+)")


def main() -> int:
    diff = subprocess.run(["git", "diff", "-U0", "--", "uri1630"], cwd=ROOT, capture_output=True, text=True).stdout
    out, module = [], None
    for line in diff.splitlines():
        if line.startswith("+++ b/"):
            module = ROOT / line[6:]
        elif line.startswith("@@") and module is not None and module.exists():
            start = int(re.search(r"\+(\d+)", line).group(1))
            lines = module.read_text(encoding="utf-8").splitlines()[:max(start, 1)]
            mark = next((m for l in reversed(lines) if (m := MARK.match(l))), None)
            where = f"nbs/{Path(mark.group(1)).name}, cell id {mark.group(2)}" if mark else "its notebook's first cells"
            out.append(f"{module.relative_to(ROOT)}:{start}: from {where}")
    for o in dict.fromkeys(out): print(o, file=sys.stderr)
    for f in subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "--", "uri1630"], cwd=ROOT,
                            capture_output=True, text=True).stdout.split():
        print(f"{f}: new, not committed (exported from a notebook not yet committed?)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
