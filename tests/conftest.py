"""Hypothesis profiles (after NumPy's and SciPy's conftests): ``ci`` (derandomized, no database) is the
default under CI, ``dev`` otherwise; choose with HYPOTHESIS_PROFILE."""

from __future__ import annotations

import contextlib
import os
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.configuration import set_hypothesis_home_dir

# pytest-xdist's workers run with COLUMNS=80: the tables the tests read are laid out for no terminal (120 columns,
# proofs_check.report.table_width), as in CI's log; tests of the terminal width set COLUMNS themselves
os.environ.pop("COLUMNS", None)

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
# the mutation test (tests/test_mutation.py) runs the covering tests of each mutant under this profile: ``ci`` without
# shrinking, since a failing example kills the mutant as it is, and shrinking one whose reference is a slow
# high-precision integration can take minutes
settings.register_profile(
    "mutation",
    parent=settings.get_profile("ci"),
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

# When a hypothesis test fails, hypothesis' pytest plugin imports libcst to suggest a patch; some libcst
# versions warn (DeprecationWarning from mypy_extensions) at import, which ``filterwarnings = error`` turns
# into an INTERNALERROR that hides the failure. Import it once here with that warning silenced.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    with contextlib.suppress(Exception):
        import hypothesis.extra._patching  # noqa: F401


@pytest.fixture(scope="session")
def users_network():
    """A builder of a user's own matrix network ``f = W2 W1 x`` (code orientation) defined through the Model API:
    unit j carries row j of W1 (states ``u_1 … u_d``) and column j of W2 (``v_1 … v_c``), whitened input
    (``E[x x^T] = I``) and a linear teacher ``y = T x`` (shared parameters ``T_m_k``); the units couple through
    the sums ``Q_m_k`` of ``v_m u_k``. ``users_network(d, c, moments)`` takes another input second-moment
    function ``moments(i, j)`` (default the identity)."""
    import sympy as sp

    from derivations import Model, Quantity

    def build(d: int, c: int, moments=None) -> Model:
        u = [sp.Symbol(f"u_{k + 1}", real=True) for k in range(d)]
        v = [sp.Symbol(f"v_{m + 1}", real=True) for m in range(c)]

        def network(s, x):
            hidden = [sum(s[f"u_{k + 1}"][j] * x[k] for k in range(d)) for j in range(len(s["u_1"]))]
            return tuple(sum(s[f"v_{m + 1}"][j] * h for j, h in enumerate(hidden)) for m in range(c))

        def target(s, x):
            return tuple(sum(s[f"T_{m + 1}_{k + 1}"] * x[k] for k in range(d)) for m in range(c))

        return Model(
            name=f"users_W2W1_{d}x{c}" + ("" if moments is None else "_correlated"),
            title=f"a user's matrix network W2 W1 x (d = {d}, c = {c})",
            reference="a user's model",
            state_names=(*map(str, u), *map(str, v)),
            unit_param_names=(),
            shared_param_names=tuple(f"T_{m + 1}_{k + 1}" for m in range(c) for k in range(d)),
            network=network,
            target=target,
            moment=lambda s, i, j: (sp.S.One if i == j else sp.S.Zero) if moments is None else moments(i, j),
            input_dim=lambda p: d,
            quantities={
                f"Q_{m + 1}_{k + 1}": Quantity("sum", v[m] * u[k], f"(W2 W1)_{m + 1},{k + 1}")
                for m in range(c)
                for k in range(d)
            },
        )

    return build
