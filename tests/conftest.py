"""Shared hypothesis settings: a 'ci' profile (the default) and a 'long' one (HYPOTHESIS_PROFILE=long)."""
import os
from hypothesis import settings, HealthCheck

settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=20000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
