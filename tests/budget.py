"""How many hypothesis examples a test with its own count runs under the active profile (HYPOTHESIS_PROFILE, see conftest.py)."""
import os

# "ci" (the default): the count the test names; "quick" (the core suite on every Python, .ci/steps/20-pythons.sh): a
# twentieth of it, at least 25; "long": five times it
SHARE = {"quick": 0.05, "ci": 1.0, "long": 5.0}


def examples(n: int) -> int:
    "`n` examples scaled to the active profile"
    return max(25, int(n * SHARE.get(os.environ.get("HYPOTHESIS_PROFILE", "ci"), 1.0)))
