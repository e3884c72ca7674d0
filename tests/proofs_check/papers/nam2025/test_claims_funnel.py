"""Nam et al. 2025 App. F.3, Fig. 10: funnel and anti-funnel networks are lazy at one λ limit and rich with delay
at the other. The claim's status, input checks, and wrong variants refuted: the lazy limits swapped, and a lazy
threshold no run meets."""

from __future__ import annotations

import pytest

from proofs_check.claims import Status
from proofs_check.papers.nam2025 import claims_funnel as cf
from proofs_check.papers.nam2025.funnel import funnel_run


def test_statuses(check_statuses):
    check_statuses("nam2025", ("nam2025.appF3.",), set(), {"appF3.funnel_limits"})


def test_swapped_limits_are_refuted():
    outcome = cf.funnel_check({"funnel": -1, "anti-funnel": 1})
    assert outcome.status is Status.REFUTED
    assert set(outcome.counterexample) == {
        "funnel, λ = -20",
        "funnel, λ = 20",
        "anti-funnel, λ = 20",
        "anti-funnel, λ = -20",
    }


def test_a_balanced_start_is_not_lazy():
    """At λ = 0 the funnel's kernel moves (> 1e-2): laziness comes from |λ|, not from the architecture alone."""
    assert funnel_run("funnel", [0.0], time=20.0).kernel[0] > 1e-2


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"architecture": "square"}, "architecture"),
        ({"lambdas": []}, "lambdas"),
        ({"rho0": 0.0}, "rho0"),
        ({"target": -1.0}, "target"),
        ({"dt": 0.0}, "dt"),
    ],
)
def test_bad_arguments_are_refused(kwargs, name):
    arguments = {"architecture": "funnel", "lambdas": [0.0], "time": 1.0, **kwargs}
    with pytest.raises(ValueError, match=name):
        funnel_run(**arguments)
