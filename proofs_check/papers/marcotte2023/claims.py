"""Conservation laws after Marcotte, Gribonval & Peyré 2023 (NeurIPS; arXiv 2307.00144), tooling-notes §2: the
completeness of the polynomial laws of every built-in model, and the r(r+1)/2 count for two-layer linear networks
(checks in ``proofs_check.papers.marcotte2023.checks``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from derivations import models
from proofs_check.checkers import deferred
from proofs_check.claims import Outcome
from proofs_check.paper import Paper
from proofs_check.papers.marcotte2023.checks import (
    DEGREE,
    LINEAR_CASES,
    NON_POLYNOMIAL_WHERE,
    WIDTH,
    completeness,
    linear_count,
)
from proofs_check.papers.marcotte2023.structure import STRUCTURE

PAPER = Paper(
    "marcotte2023",
    "Abide by the law and follow the flow: conservation laws for gradient flows",
    ("Sibylle Marcotte", "Rémi Gribonval", "Gabriel Peyré"),
    "NeurIPS",
    2023,
    url="https://arxiv.org/abs/2307.00144",
    structure=STRUCTURE,
)
WHERE = "number of independent laws D − dim Lie(W)(θ); polynomial laws"


def _completeness(name: str) -> Callable[[], Outcome]:
    return completeness(models.get(name))


# a regularized loss is not l(phi(theta)): laws for every loss do not apply to it (skipped_models says so)
for _name in (n for n in models.BUILTIN if models.get(n).regularizer is None):
    _plus = (
        f", with the non-polynomial law(s) {NON_POLYNOMIAL_WHERE[_name].split(',')[0]} (proved conserved and "
        "independent)"
        if _name in NON_POLYNOMIAL_WHERE
        else ""
    )
    PAPER.claim(
        f"completeness.{_name}",
        f"The conservation laws of {_name} are complete at width p = {WIDTH}: the independent polynomial laws of "
        f"degree ≤ {DEGREE} for every loss{_plus} are as many as D − dim Lie(W)(θ)",
        where=WHERE,
        derived=True,
        assume=(f"width p = {WIDTH}", "laws for every loss ℓ(φ(θ)); fields P∇φⱼ with P the learning rates"),
        check=deferred(partial(_completeness, _name)),
    )
for _d, _r, _c in LINEAR_CASES:
    PAPER.claim(
        f"linear.d{_d}_r{_r}_c{_c}",
        f"φ = U₁U₂ with (d, r, c) = ({_d}, {_r}, {_c}) has r(r+1)/2 = {_r * (_r + 1) // 2} independent conservation "
        "laws, the entries of U₁ᵀU₁ − U₂U₂ᵀ",
        where="two-layer linear networks: the laws U₁ᵀU₁ − U₂U₂ᵀ are complete",
        assume=("generic θ", "every loss ℓ(U₁U₂)"),
        check=linear_count(_d, _r, _c),
    )
