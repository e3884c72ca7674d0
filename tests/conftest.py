"""Hypothesis profiles (after NumPy's and SciPy's conftests): ``ci`` (derandomized, no database) is the
default under CI, ``dev`` otherwise; choose with HYPOTHESIS_PROFILE."""

from __future__ import annotations

import contextlib
import os
import tempfile
import warnings
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.configuration import set_hypothesis_home_dir

set_hypothesis_home_dir(str(Path(tempfile.gettempdir()) / ".hypothesis"))

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, print_blob=True, max_examples=25)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

# When a hypothesis test fails, hypothesis' pytest plugin imports libcst to suggest a patch; some libcst
# versions warn (DeprecationWarning from mypy_extensions) at import, which ``filterwarnings = error`` turns
# into an INTERNALERROR that hides the failure. Import it once here with that warning silenced.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    with contextlib.suppress(Exception):
        import hypothesis.extra._patching  # noqa: F401
