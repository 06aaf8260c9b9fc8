"""Run every notebook of nbs/ to the end, as JupyterLab's "Run All" does: every cell (those flagged `slow` or
`notest` and the export cell too), in a kernel named by the notebook's own kernelspec, from the notebook's folder.

    python .ci/notebooks-run-all.py [NBS_DIR] [--workers N]

Run with the Python of a venv that holds only the README's notebook install; the kernel is that venv's ipykernel.
Exit 1 if a notebook has no Python 3 kernelspec or a cell raised. CI no longer runs it (#28): `.ci/steps/65-notebooks.sh`
runs `nbdev_test` (flagged cells too) in such a venv, so the notebooks run once; this stays for a look in real kernels.
"""
import json, sys, time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def run(path: str):
    "Execute one notebook in memory (nothing is written back); (name, seconds, error or None)"
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    p = Path(path); t0 = time.time()
    nb = nbformat.read(p, as_version=4)
    ks = nb.metadata.get("kernelspec", {})
    if ks.get("name") != "python3" or ks.get("language") != "python":
        return p.name, 0.0, f"no Python 3 kernelspec in its metadata ({ks}): JupyterLab would ask for a kernel"
    try:
        NotebookClient(nb, timeout=600, kernel_name=ks["name"], resources={"metadata": {"path": str(p.parent)}}).execute()
    except CellExecutionError as e:
        return p.name, time.time() - t0, str(e)[-3000:]
    except Exception as e:   # a kernel that died, a timeout
        return p.name, time.time() - t0, f"{type(e).__name__}: {e}"[-3000:]
    return p.name, time.time() - t0, None


def main(argv):
    nbs = Path(next((a for a in argv if not a.startswith("--") and not a.isdigit()), "nbs"))
    workers = int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 2
    paths = sorted(str(p) for p in nbs.glob("*.ipynb") if not p.name.startswith(("_", ".")))
    # the longest first, so the pool is not left waiting on one slow notebook at the end
    paths.sort(key=lambda p: -Path(p).stat().st_size)
    t0, failed = time.time(), []
    with ProcessPoolExecutor(workers) as ex:
        for name, dt, err in ex.map(run, paths):
            print(f"  {'ok  ' if err is None else 'FAIL'} {name} ({dt:.1f} s)", flush=True)
            if err: failed.append(name); print(err, file=sys.stderr, flush=True)
    print(f"== {len(paths)} notebooks run to the end in {time.time() - t0:.0f} s, {len(failed)} failed {failed}", flush=True)
    return 1 if failed or not paths else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
