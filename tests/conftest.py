"""Shared hypothesis settings: a derandomized 'ci' profile (the default), a smaller derandomized 'quick' one and a random 'long' one (HYPOTHESIS_PROFILE=...)."""
import os
from hypothesis import settings, HealthCheck

# "ci" is derandomized: every run tries the same examples, so CI is reproducible (a red run is a regression, not luck);
# "long" explores with fresh random examples each time.
settings.register_profile("ci", max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
# "quick": the same derandomized examples, fewer of them: the core suite on every supported Python (.ci/steps/20-pythons.sh)
settings.register_profile("quick", max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=20000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
