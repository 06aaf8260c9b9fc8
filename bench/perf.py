"""uri1630's speed, measured as CPython measures itself (pyperf), with the goals and the regression gate that fail CI.

    python bench/perf.py goals                 # rounds of every case; the goals (exit 1 if one is missed)
    python bench/perf.py goals --write         # ... and bench/perf_results.json, the figures of nbs/34_performance
    python bench/perf.py regress               # the last release against this tree, interleaved (exit 1 if slower)
    python bench/perf.py regress --against REV # against another commit
    python bench/perf.py goals --fast          # fewer processes and values: a rough look (not a gate)

Each round is one run of bench/perf_cases.py under pyperf's Runner: worker processes, calibrated loops (the
first round calibrates, later rounds reuse its loop counts), warmups; a goal's two contenders are timed one
right after the other, in a shuffled order of operations each round. A goal's ratio is taken per round (the
median value of one contender over the other's, from the same round); the goal is judged on the median of
those ratios. A missed goal is timed again in as many rounds of its own; then, as noise only adds time, it is
also met when the ratio of each contender's quietest round (its lowest round median) is within the goal: a
busy stretch of the machine moved single rounds of a 3 us case from 0.36x to 1.25x. The regression gate times the release and the working tree alternately, operation by
operation, and calls an operation slower when pyperf's two-sample t-test says the two differ significantly
and the mean is more than 10% above the release's. The raw pyperf suites go to .bench/ (for
`python -m pyperf stats|compare_to .bench/this.json .bench/release.json`).
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time
from pathlib import Path

import pyperf
from pyperf._utils import is_significant

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import perf_cases as cases   # noqa: E402  (the case table; it imports no uri1630)

OUT = ROOT / '.bench'
RESULTS = HERE / 'perf_results.json'

# (operation, our case, reference case, maximum ratio): the goals of issue #30
GOALS = [('parse', 'parse: uri1630.parse', 'parse: uritools.urisplit', 0.6),
         ('validate', 'validate: uri1630.validate', 'validate: urlsplit (uncached)', 0.45),
         ('canonical', 'canonical: uri1630.canonical', 'canonical: quote(unquote(path))', 0.3),
         *[(f'resolve {k}', f'resolve {k}: uri1630.resolve', f'resolve {k}: ada_url.join_url', 0.9)
           for k in cases.REFERENCE_KINDS],
         ('relative', 'relative: uri1630.relative', 'resolve: uri1630.resolve', 1.5),
         ('parse_url', 'parse_url: uri1630.parse_url', 'parse_url: urlsplit (uncached)', 0.8),
         ('cli', 'cli: uri1630 parse -', 'cli: uri1630 canon -', 1.5)]
IMPORT_GOAL_S = 1.5e-3        # `import uri1630`, as `python -X importtime` reports it
FLOOR = 'floor: re.match of the generic grammar'
SLOWER = 0.10                 # the regression gate: significantly slower by more than this share fails
# the operations the regression gate compares (our case of each; all exist in the release 0.3.0)
REGRESS_OPS = ['parse', 'validate', 'canonical', 'parse_url', 'relative',
               *[f'resolve {k}' for k in cases.REFERENCE_KINDS], 'cli', 'import']
OURS = {op: ours for op, ours, _, _ in GOALS} | {'resolve': 'resolve: uri1630.resolve',
                                                    'import': 'import: import uri1630'}


def _pyperf_args(a):
    "pyperf's options for one round: fewer for --fast (a look), more for --rigorous"
    p, v, t = (2, 2, 0.03) if a.fast else (6, 4, 0.1) if a.rigorous else (3, 3, 0.05)
    return ['--processes', str(a.processes or p), '--values', str(a.values or v), '--warmups', '1',
            '--min-time', str(t), '--quiet']


def _round(a, r, trees, ops, loops, out, ours=False):
    "One round: bench/perf_cases.py under pyperf, every case of `ops` on every tree; the suite it wrote"
    cmd = [sys.executable, str(HERE / 'perf_cases.py'), '-o', str(out), '--round', str(r), '--items', str(a.n),
           '--ops', ','.join(ops), *_pyperf_args(a), *(['--ours'] if ours else [])]
    for label, tree in trees: cmd += ['--tree', f'{label}={tree}']
    if loops:
        lf = out.with_suffix('.loops.json'); lf.write_text(json.dumps(loops)); cmd += ['--loops-from', str(lf)]
    env = {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'}    # each worker puts its tree first
    t = time.monotonic()
    subprocess.run(cmd, check=True, env=env, cwd=str(ROOT))
    print(f"  round {r + 1}: {time.monotonic() - t:.0f} s", flush=True)
    return pyperf.BenchmarkSuite.load(str(out))


def measure(a, trees, ops, ours=False):
    "Rounds of every case: {benchmark name: [values of round 1, values of round 2, ...]} and the merged suite"
    OUT.mkdir(exist_ok=True)
    per_round, loops, merged = {}, {}, {}
    for r in range(a.rounds):
        out = OUT / f'{a.what}-round{r}.json'           # goals and regress may run at once
        out.unlink(missing_ok=True)
        suite = _round(a, r, trees, ops, loops, out, ours)
        for b in suite.get_benchmarks():
            name = b.get_name()
            per_round.setdefault(name, []).append(list(b.get_values()))
            loops.setdefault(name, b.get_loops())                  # calibrated in round 1, reused after
            if name in merged: merged[name].add_runs(b)
            else: merged[name] = b
    return per_round, merged


def _median_ratio(rounds_a, rounds_b):
    "The ratios of the median values, round by round: (median of them, [each])"
    each = [statistics.median(x) / statistics.median(y) for x, y in zip(rounds_a, rounds_b)]
    return statistics.median(each), each


def goal_rows(per_round):
    "Each goal: our and the reference's median (ns or ms), the ratio per round, its median, met or not"
    rows = []
    for op, ours, ref, limit in GOALS:
        if ours not in per_round or ref not in per_round: continue
        ratio, each = _median_ratio(per_round[ours], per_round[ref])
        rows.append(dict(op=op, ours=ours, ref=ref, limit=limit, ratio=ratio, ratios=each, ok=ratio <= limit,
                         ours_ns=_ns(per_round[ours]), ref_ns=_ns(per_round[ref])))
    if 'import: import uri1630' in per_round:
        ms = _ns(per_round['import: import uri1630']) / 1e6
        rows.append(dict(op='import', ours='import: import uri1630', ref=None, limit=IMPORT_GOAL_S * 1e3,
                         ratio=ms / (IMPORT_GOAL_S * 1e3), ratios=[statistics.median(v) * 1e3 for v in
                                                                    per_round['import: import uri1630']],
                         ok=ms <= IMPORT_GOAL_S * 1e3, ours_ns=ms * 1e6, ref_ns=None, unit='ms'))
    return rows


def _ns(rounds):
    "The median of every value of every round, in ns"
    return statistics.median(v for r in rounds for v in r) * 1e9


def floor_rows(per_round):
    "How far each operation of ours is from one re.match of the generic grammar over the same URLs"
    if FLOOR not in per_round: return []
    f = _ns(per_round[FLOOR])
    return [dict(op=op, ns=_ns(per_round[c]), floor_ns=f, times=_ns(per_round[c]) / f)
            for op, c in OURS.items() if c in per_round and not op.startswith(('cli', 'import'))]


def print_goals(rows, floor):
    print("\n== goals (ratio: median over rounds of the per-round ratio of median times)")
    for g in rows:
        each = ' '.join(f'{x:.2f}' for x in g['ratios'])
        if g.get('unit') == 'ms':
            print(f"  {g['op']:<16} {g['ours_ns'] / 1e6:7.2f} ms (goal <= {g['limit']:g} ms; rounds {each})"
                  f"  {'MET' if g['ok'] else 'MISSED'}")
            continue
        print(f"  {g['op']:<16} {g['ratio']:5.2f}x  {g['ours']} {g['ours_ns']:,.0f} ns / {g['ref']} "
              f"{g['ref_ns']:,.0f} ns  (goal <= {g['limit']}; rounds {each})  {'MET' if g['ok'] else 'MISSED'}"
              + (f" (each one's quietest round: {g['quiet']:.2f}x)" if 'quiet' in g else ''))
    if floor:
        print(f"\n== from the floor (one re.match of the generic grammar: {floor[0]['floor_ns']:,.0f} ns per URL)")
        for f in floor: print(f"  {f['op']:<16} {f['ns']:8,.0f} ns  {f['times']:5.2f}x the floor")


def cmd_goals(a):
    ops = a.ops.split(',') if a.ops else list(cases.GROUPS)
    per_round, merged = measure(a, [('this', str(ROOT))], ops)
    pyperf.BenchmarkSuite(list(merged.values())).dump(str(OUT / 'this.json'), replace=True)
    rows, floor = goal_rows(per_round), floor_rows(per_round)
    print_goals(rows, floor)
    missed = _failed(rows, _ceilings())
    if missed:   # a busy machine moves one round by 2x: a miss must hold over twice the rounds, the same goal's alone
        print(f"\n== confirming, in {a.rounds} more rounds of their own: {', '.join(missed)}")
        more, _ = measure(a, [('this', str(ROOT))], missed)
        for name, rounds in more.items():
            per_round[name] = per_round.get(name, []) + rounds
        rows = goal_rows(per_round)
        for g in rows:   # noise only adds time: each contender's quietest round is its best estimate on a busy machine
            if g['op'] in missed and not g['ok'] and g.get('unit') != 'ms':
                g['quiet'] = (min(statistics.median(x) for x in per_round[g['ours']]) /
                              min(statistics.median(y) for y in per_round[g['ref']]))
                g['ok'] = g['quiet'] <= g['limit']
        print_goals([g for g in rows if g['op'] in missed], [])
    if a.write:
        stats = {n: dict(median_ns=b.median() * 1e9, mean_ns=b.mean() * 1e9,
                         stdev_ns=(b.stdev() * 1e9 if b.get_nvalue() > 1 else 0.0), values=b.get_nvalue(),
                         runs=b.get_nrun(), loops=b.get_loops(), inner_loops=b.get_inner_loops())
                 for n, b in merged.items()}
        meta = dict(python=sys.version.split()[0], rounds=a.rounds, pyperf=_pyperf_args(a), n=a.n,
                    cpu_count=os.cpu_count(), clock='process_time (CPU seconds per item)')
        RESULTS.write_text(json.dumps(dict(meta=meta, benchmarks=stats, goals=rows, floor=floor), indent=1) + '\n')
        print(f"\nwrote {RESULTS.relative_to(ROOT)}")
    return _judge(rows, _ceilings(), a.report)


CEILINGS = HERE / 'goal_ceilings.json'


def _figure(g):
    "What a goal limits: the ratio, or the milliseconds of `import uri1630`"
    return g['ours_ns'] / 1e6 if g.get('unit') == 'ms' else g['ratio']


def _ceilings(path=CEILINGS):
    "The open goals: operation -> {ceiling, why}; a goal not yet met may not get worse than its ceiling"
    return json.loads(path.read_text())['open'] if path.exists() else {}


def _failed(rows, ceilings):
    "The goals missed: not met, and not open under their ceiling"
    return [g['op'] for g in rows if not g['ok'] and not (g['op'] in ceilings and
                                                          _figure(g) <= ceilings[g['op']]['ceiling'])]


def _judge(rows, ceilings, report=False):
    "Exit status of the goals gate: a goal missed fails, unless it is open and under its ceiling (a ratchet)"
    failed, still_open = [], []
    for g in rows:
        c = ceilings.get(g['op'])
        if g['ok']:
            if c: print(f"  {g['op']}: goal met, its ceiling in {CEILINGS.name} can go", file=sys.stderr)
        elif c and _figure(g) <= c['ceiling']:
            still_open.append(f"{g['op']} {_figure(g):.2f} (goal {g['limit']}, ceiling {c['ceiling']}: {c['why']})")
        else:
            failed.append(g['op'] + (f" above its ceiling {c['ceiling']}" if c else ''))
    for o in still_open: print(f"  OPEN: {o}", file=sys.stderr)
    if failed: print(f"\nFAIL: goal missed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed and not report else 0


def last_release(head='HEAD'):
    "(commit, version) of the last release before `head`: the newest tag, else the commit that set settings.ini's version"
    git = lambda *c: subprocess.run(['git', *c], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    head_sha = git('rev-parse', head)
    for tag in git('tag', '--merged', head, '--sort=-creatordate').split():
        sha = git('rev-list', '-n1', tag)
        if sha != head_sha: return sha, tag
    for sha in git('log', '--format=%H', '-G^version *=', head, '--', 'settings.ini').split():
        if sha == head_sha and not git('status', '--porcelain', '--', 'settings.ini'): continue
        text = git('show', f'{sha}:settings.ini')
        version = next((l.split('=', 1)[1].strip() for l in text.splitlines() if l.startswith('version')), '?')
        return sha, version
    raise SystemExit("regress: no release found (no tag, no commit that set settings.ini's version)")


def _extract(sha, dest):
    "The package `uri1630/` of commit `sha` into `dest` (git archive: no checkout is touched)"
    arc = subprocess.run(['git', 'archive', sha, 'uri1630'], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(['tar', '-x', '-C', str(dest)], input=arc, check=True)


def cmd_regress(a):
    sha, version = (a.against, a.against) if a.against else last_release()
    ops = a.ops.split(',') if a.ops else REGRESS_OPS
    slower = _regress_once(a, sha, version, ops)
    if slower:   # a shared machine's noise can make one run look slower: what is slower must be so again, alone,
        # over twice the rounds (as a missed goal is: one noisy stretch of a VM moved a 5 us case by 50%)
        more = argparse.Namespace(**{**vars(a), 'rounds': 2 * a.rounds})
        print(f"\n== confirming, in a second interleaved run of its own ({more.rounds} rounds): "
              f"{', '.join(op for op, _ in slower)}")
        slower = _regress_once(more, sha, version, [op for op, _ in slower])
    if slower:
        print(f"\nFAIL: slower than release {version} (twice): {'; '.join(m for _, m in slower)}", file=sys.stderr)
    return 1 if slower and not a.report else 0


def _regress_once(a, sha, version, ops):
    "One interleaved run of the release against this tree: the operations slower (>10%, significant), with figures"
    tmp = Path(tempfile.mkdtemp(prefix='uri1630-release-'))
    try:
        _extract(sha, tmp)
        print(f"regress: release {version} ({sha[:9]}) in {tmp}, against this tree")
        per_round, merged = measure(a, [('release', str(tmp)), ('this', str(ROOT))], ops, ours=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for label in ('release', 'this'):
        pyperf.BenchmarkSuite([b for n, b in merged.items() if n.startswith(label + ' |')]).dump(
            str(OUT / f'regress-{label}.json'), replace=True)
    slower = []
    print(f"\n== this tree against release {version}: median (mean ± stdev) per item "
          f"(slower: >{SLOWER:.0%} by the medians, and significant)")
    for op in ops:
        case = OURS.get(op)
        old, new = merged.get(f'release | {case}'), merged.get(f'this | {case}')
        if old is None or new is None: continue
        o, n = old.get_values(), new.get_values()
        sig, t = is_significant(o, n)
        change = statistics.median(n) / statistics.median(o) - 1
        bad = sig and change > SLOWER
        unit, k = ('ms', 1e3) if op == 'import' else ('ns', 1e9)
        fig = lambda v: f"{statistics.median(v) * k:9,.1f} ({statistics.mean(v) * k:,.1f} ± {statistics.stdev(v) * k:,.1f})"
        print(f"  {op:<14} release {fig(o)} {unit}   this {fig(n)} {unit}   {change:+6.1%} "
              f"(t={t:+.1f}{', significant' if sig else ''}){'  SLOWER' if bad else ''}")
        if bad: slower.append((op, f"{op} ({statistics.median(o) * k:,.1f} -> {statistics.median(n) * k:,.1f} {unit})"))
    return slower


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('what', choices=['goals', 'regress'])
    ap.add_argument('--rounds', type=int, default=2, help='interleaved rounds (default 2)')
    ap.add_argument('-n', type=int, default=2000, help='corpus URLs per case (default 2000)')
    ap.add_argument('--ops', help='only these operation groups (comma-separated)')
    ap.add_argument('--processes', type=int); ap.add_argument('--values', type=int)
    ap.add_argument('--fast', action='store_true'); ap.add_argument('--rigorous', action='store_true')
    ap.add_argument('--write', action='store_true', help=f'write {RESULTS.name} (goals)')
    ap.add_argument('--report', action='store_true', help='report only: exit 0 whatever the figures')
    ap.add_argument('--against', help='regress: the commit to compare with (default: the last release)')
    a = ap.parse_args(argv)
    return cmd_goals(a) if a.what == 'goals' else cmd_regress(a)


if __name__ == '__main__':
    sys.exit(main())
