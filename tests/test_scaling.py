"""The super-linear guard itself (tests/scaling.py): it passes linear work and fails quadratic work."""
import pytest
from scaling import assert_linear


def _linear(n):
    return sum(i & 7 for i in range(n))

def _quadratic(n):
    s = 0
    for i in range(n):
        for j in range(n // 50): s += j
    return s


def test_linear_work_passes():
    small, big = assert_linear(_linear, 20_000)
    assert small >= 0.02 and big > small           # the floor was reached by doubling n: the timer's noise does not decide

def test_quadratic_work_fails():
    with pytest.raises(AssertionError, match="x10 input took x"):
        assert_linear(_quadratic, 300, repeat=1, floor=0.005)
