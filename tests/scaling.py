"""The one guard against super-linear time: compare CPU time at two sizes in the same run, with a wide margin.

No absolute wall-clock bound anywhere: a busy machine slows both sizes alike, a fast one speeds both up.
Used by the tests and (through `sys.path`) by the notebooks' linear-time cells."""
from __future__ import annotations
import os, time
from typing import Callable


def children_cpu() -> float:
    "CPU seconds used so far by this process's finished children (for work done in a subprocess)"
    t = os.times(); return t.children_user + t.children_system


def cpu(work: Callable[[int], object], n: int, repeat: int = 3, clock: Callable[[], float] = time.process_time) -> float:
    "The least CPU time (seconds, by `clock`: this process's by default) of `repeat` calls of `work(n)`"
    best = float("inf")
    for _ in range(repeat):
        t0 = clock(); work(n); best = min(best, clock() - t0)
    return best


def assert_linear(work: Callable[[int], object], n: int, factor: int = 10, ratio: float = 30.0,
                  floor: float = 0.02, repeat: int = 3, max_doublings: int = 8,
                  clock: Callable[[], float] = time.process_time) -> tuple[float, float]:
    """`work(factor*n)` takes less than `ratio` times the CPU time of `work(n)` (x10 input, < x30 time: a quadratic
    gives x100). One warm-up call first; `n` is doubled (at most `max_doublings` times) until `work(n)` takes at least
    `floor` seconds, so that timer resolution and noise do not decide. Returns (small, big) in seconds."""
    work(n)                                     # warm-up: caches, lazy compilation, first allocations
    small = cpu(work, n, repeat, clock)
    for _ in range(max_doublings):
        if small >= floor: break
        n *= 2; small = cpu(work, n, repeat, clock)
    big = cpu(work, factor * n, max(1, repeat - 1), clock)
    assert big < ratio * max(small, floor), f"x{factor} input took x{big / max(small, 1e-9):.1f} CPU time (n={n}: {small:.4f}s -> {big:.4f}s)"
    return small, big
