"""The tools of the speed gates (#30): the release the regression gate compares with, and the CI step runner's order."""
import importlib.util, subprocess, sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# the runner and the benchmark ship with a clone, not with the sdist (its tests run from an unpacked sdist too)
needs_runner = pytest.mark.skipif(not (ROOT / '.ci' / 'run-steps.py').exists(),
                                  reason='.ci/run-steps.py is not here (an unpacked sdist ships no .ci/)')
needs_bench = pytest.mark.skipif(not (ROOT / 'bench' / 'perf.py').exists(),
                                 reason='bench/perf.py is not here (an unpacked sdist ships no bench/)')


def _git(*args):
    return subprocess.run(['git', *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()


@pytest.mark.skipif(not (ROOT / '.git').exists() or _git('rev-parse', '--is-shallow-repository') != 'false',
                    reason='needs the git history')
def test_last_release_is_the_commit_that_set_the_version():
    pytest.importorskip('pyperf')
    perf = _load('bench/perf.py', 'uri1630_perf')
    sha, version = perf.last_release()
    assert sha != _git('rev-parse', 'HEAD') or _git('status', '--porcelain', '--', 'settings.ini')
    if _git('tag'):
        return                                   # a tag names it; nothing more to check here
    line = f'version = {version}'
    assert line in _git('show', f'{sha}:settings.ini').splitlines()
    assert line not in _git('show', f'{sha}^:settings.ini').splitlines()   # that commit set it


@needs_runner
def test_runner_orders_alone_first_then_longest(tmp_path):
    rs = _load('.ci/run-steps.py', 'uri1630_run_steps')
    steps = {}
    for name, head in [('10-a.sh', ''), ('20-b.sh', '# ci: heavy'), ('30-c.sh', '# ci: alone'),
                       ('40-d.sh', ''), ('50-e.sh', '# ci: alone, heavy')]:
        p = tmp_path / name
        p.write_text(f'#!/usr/bin/env bash\n{head}\necho {name}\n')
        steps[name] = p
    assert rs.header(steps['50-e.sh']) == {'alone', 'heavy'} and rs.header(steps['10-a.sh']) == set()
    alone, rest = rs.order(list(steps.values()), {})
    assert [s.name for s in alone] == ['30-c.sh', '50-e.sh']
    assert [s.name for s in rest] == ['20-b.sh', '10-a.sh', '40-d.sh']       # heavy first, then by name
    alone, rest = rs.order(list(steps.values()), {'40-d.sh': 300, '10-a.sh': 5})
    # a heavy step with no time yet first, then the longest last time
    assert [s.name for s in rest] == ['20-b.sh', '40-d.sh', '10-a.sh']


@needs_runner
def test_runner_runs_every_step_and_fails_naming_the_failed(tmp_path, monkeypatch):
    rs = _load('.ci/run-steps.py', 'uri1630_run_steps2')
    d = tmp_path / 'steps'; d.mkdir()
    (d / '10-ok.sh').write_text('echo fine\n')
    (d / '20-bad.sh').write_text('echo broken; exit 3\n')
    (d / '30-ok.sh').write_text('# ci: alone\necho alone\n')
    monkeypatch.setattr(rs, 'STEPS', d)
    monkeypatch.setattr(rs, 'TIMES', tmp_path / 'times.json')
    monkeypatch.setattr(rs, 'CACHE', tmp_path)
    monkeypatch.setenv('CI_JOBS', '2')
    assert rs.main(['run-steps']) == 1
    times = (tmp_path / 'times.json').read_text()
    assert '10-ok.sh' in times and '30-ok.sh' in times and '20-bad.sh' not in times   # only passed steps timed


@needs_bench
def test_goals_gate_judges_open_goals_by_their_ceiling():
    "A met goal passes; a missed one fails, unless it is open and no worse than its ceiling (a ratchet)"
    pytest.importorskip('pyperf')
    perf = _load('bench/perf.py', 'uri1630_perf_judge')
    row = lambda op, ratio, limit: dict(op=op, ratio=ratio, limit=limit, ok=ratio <= limit)
    imp = dict(op='import', ratio=1.2, limit=1.5, ok=False, ours_ns=1.8e6, unit='ms')
    open_ = {'parse_url': dict(ceiling=1.2, why='#30'), 'import': dict(ceiling=2.0, why='#30')}
    assert perf._judge([row('validate', 0.4, 0.45)], open_) == 0
    assert perf._judge([row('validate', 0.5, 0.45)], open_) == 1          # not open: a miss fails
    assert perf._judge([row('parse_url', 1.1, 0.8), imp], open_) == 0     # open, under the ceiling
    assert perf._judge([row('parse_url', 1.3, 0.8)], open_) == 1          # open, above the ceiling
    assert perf._judge([dict(imp, ours_ns=2.1e6)], open_) == 1            # import: the ceiling in ms
    assert perf._judge([row('parse_url', 1.3, 0.8)], open_, report=True) == 0
    # the committed ceilings name only goals the gate measures, each with a reason
    names = {g[0] for g in perf.GOALS} | {'import'}
    assert set(perf._ceilings()) <= names and all(c['why'] for c in perf._ceilings().values())


@needs_runner
def test_runner_starts_a_step_only_after_the_step_it_waits_for(tmp_path, monkeypatch):
    "`# ci: after X.sh`: the a11y check reads the site the docs step builds, so it may not start beside it"
    rs = _load('.ci/run-steps.py', 'uri1630_run_steps_after')
    steps = tmp_path / 'steps'; steps.mkdir()
    log = tmp_path / 'order.txt'
    for name, head, work in [('60-docs.sh', '# ci: heavy', 'sleep 1'), ('62-a11y.sh', '# ci: after 60-docs.sh', ''),
                             ('70-other.sh', '', '')]:
        (steps / name).write_text(f'{head}\necho start {name} >> {log}\n{work}\necho end {name} >> {log}\n')
    monkeypatch.setattr(rs, 'STEPS', steps); monkeypatch.setenv('URI1630_CI_CACHE', str(tmp_path / 'cache'))
    monkeypatch.setattr(rs, 'CACHE', tmp_path / 'cache'); monkeypatch.setattr(rs, 'TIMES', tmp_path / 'cache' / 't.json')
    monkeypatch.setenv('CI_JOBS', '2')
    assert rs.main(['run-steps.py']) == 0
    lines = log.read_text().split('\n')
    assert lines.index('start 62-a11y.sh') > lines.index('end 60-docs.sh')
    assert lines.index('start 70-other.sh') < lines.index('end 60-docs.sh')   # the pool stays busy meanwhile
