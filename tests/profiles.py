"""Hypothesis profiles, chosen by the environment variable MELDS_HYPOTHESIS_PROFILE:

* ``ci`` (the default): derandomized, so a run is repeatable; a quarter of each property's own
  example count, so that the default suite stays within its five minutes on two cores;
* ``full``: derandomized, each property's whole example count (with ``pytest -m slow``, the long run);
* ``dev``: a fifth of the examples, random, for a quick edit-test loop;
* ``thorough``: ten times the examples, random, for a night's run.

A property states its example count with :func:`examples`, which the profile scales.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, settings

SCALE = {"ci": 0.25, "full": 1.0, "dev": 0.2, "thorough": 10.0}
PROFILE = os.environ.get("MELDS_HYPOTHESIS_PROFILE", "ci")
if PROFILE not in SCALE:
    raise SystemExit(f"MELDS_HYPOTHESIS_PROFILE={PROFILE!r}: choose one of {', '.join(SCALE)}")

_common: dict[str, Any] = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("ci", derandomize=True, database=None, print_blob=True, **_common)
settings.register_profile("full", derandomize=True, database=None, print_blob=True, **_common)
settings.register_profile("dev", **_common)
settings.register_profile("thorough", **_common)
settings.load_profile(PROFILE)


def examples(n: int) -> int:
    """A property's example count under the running profile."""
    return max(1, round(n * SCALE[PROFILE]))
