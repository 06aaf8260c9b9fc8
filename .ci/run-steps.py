"""Run the CI steps (.ci/steps/*.sh) side by side, two at a time on a 2-core machine: python .ci/run-steps.py [STEP...]

A step says how it runs in a comment header in its first lines:
  # ci: alone   it runs with no other step beside it (the speed gates: timings must not share the cores);
                the alone steps run first, one after the other, before the others start
  # ci: after X.sh   it starts only when step X has ended (62-a11y reads the site 60-docs builds)
  # ci: heavy   it is started before the light ones (the longest first: the last run's times, kept in
                the cache, order the steps; without them, heavy steps come first, then the rest by name)
Every other step runs in the pool of $CI_JOBS (default: the number of cores, at most 2) at once. Each step's
output goes to its own log, printed whole when the step ends, with its exit status and time; every step runs
even when one fails, and the runner fails at the end if any did (naming them).
What outlives a fresh clone on the same machine stays outside the clone: the step times here
($URI1630_CI_CACHE, default ~/.cache/uri1630-ci), pip's wheels (its default cache, PIP_CACHE_DIR), npm's
tarballs (~/.npm) and the docs' Pyodide (URI1630_DOCS_CACHE, default ~/.cache/uri1630-docs).
"""
import json, os, re, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STEPS = ROOT / '.ci' / 'steps'
CACHE = Path(os.environ.get('URI1630_CI_CACHE') or Path.home() / '.cache' / 'uri1630-ci')
TIMES = CACHE / 'step-times.json'


def header(step):
    "The `# ci:` words of a step's first 15 lines: {'alone', 'heavy', 'after', ...}"
    words = set()
    for line in step.read_text().splitlines()[:15]:
        m = re.match(r'#\s*ci:\s*(.*)', line)
        if m: words |= set(m[1].replace(',', ' ').split())
    return words


def after(step):
    "The steps this one waits for: the names after `after` in its `# ci:` header"
    for line in step.read_text().splitlines()[:15]:
        m = re.match(r'#\s*ci:.*\bafter\s+([\w.\- ]+)', line)
        if m: return set(m[1].split())
    return set()


def order(steps, times):
    "Alone steps (by name), then the rest: longest last time first; without a time, heavy before light"
    alone = sorted(s for s in steps if 'alone' in header(s))
    rest = [s for s in steps if s not in alone]
    rest.sort(key=lambda s: (-times.get(s.name, 1e6 if 'heavy' in header(s) else 0), s.name))
    return alone, rest


def start(step, env, logs):
    log = open(logs / f'{step.name}.log', 'w+')
    p = subprocess.Popen(['bash', str(step)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL)
    return p, log, time.monotonic()


def finish(step, p, log, t0, results):
    "Print the step's whole log, its status and time"
    dt = time.monotonic() - t0
    log.seek(0)
    print(f"== step .ci/steps/{step.name}", flush=True)
    sys.stdout.write(log.read())
    log.close()
    print(f"== step .ci/steps/{step.name} {'ok' if p.returncode == 0 else f'FAILED (exit {p.returncode})'}"
          f" in {dt:.0f} s", flush=True)
    results[step.name] = (p.returncode, dt)


def main(argv):
    names = argv[1:]
    steps = [STEPS / n for n in names] if names else sorted(STEPS.glob('*.sh'))
    jobs = int(os.environ.get('CI_JOBS') or min(2, os.cpu_count() or 1))
    CACHE.mkdir(parents=True, exist_ok=True)
    try: times = json.loads(TIMES.read_text())
    except (OSError, ValueError): times = {}
    env, results, t_all = dict(os.environ), {}, time.monotonic()
    alone, rest = order(steps, times)
    print(f"== steps: {len(steps)} ({len(alone)} alone first, then {jobs} at a time: "
          f"{', '.join(s.name for s in rest)})", flush=True)
    with tempfile.TemporaryDirectory(prefix='uri1630-ci-') as tmp:
        logs = Path(tmp)
        for s in alone:
            p, log, t0 = start(s, env, logs); p.wait(); finish(s, p, log, t0, results)
        running, queue = [], list(rest)
        while queue or running:
            while len(running) < jobs:
                names = {q.name for q, *_ in running} | {q.name for q in queue}
                ready = [q for q in queue if not after(q) & names]   # what it waits for has ended
                if not ready: break
                s = ready[0]; queue.remove(s); running.append((s, *start(s, env, logs)))
            time.sleep(0.5)
            for r in [r for r in running if r[1].poll() is not None]:
                running.remove(r); finish(*r, results)
    times.update({n: round(dt) for n, (rc, dt) in results.items() if rc == 0})
    TIMES.write_text(json.dumps(times, indent=1))
    print(f"== steps took {time.monotonic() - t_all:.0f} s (each: "
          + ', '.join(f"{n} {dt:.0f} s" for n, (rc, dt) in results.items()) + ")")
    failed = [n for n, (rc, _) in results.items() if rc != 0]
    if failed: print(f"FAIL: steps failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
