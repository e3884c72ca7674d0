"""Issue 26: every public callable of ``derivations``, ``numerics``, ``proofs_check`` (their ``__all__``) has a
docstring with an ``Arguments`` section naming every parameter, a ``Returns`` section unless it returns ``None``, and
a ``Raises`` section when its code raises ``ValueError``/``TypeError``.

``KNOWN_INCOMPLETE`` lists the names not yet brought up to that standard; it may only shrink: a listed name that
is now complete fails the test too, so the list cannot go stale.
"""

from __future__ import annotations

import importlib

import pytest

from tests.docstring_sections import Problem, check_function, check_public

PACKAGES = ("derivations", "numerics", "proofs_check")

KNOWN_INCOMPLETE: frozenset[str] = frozenset(
    {
        "derivations.ClosedForm.explicit",
        "derivations.ClosedForm.in_initial_values",
        "derivations.Derivation.by_key",
        "derivations.Derivation.by_tag",
        "derivations.Derivation.check",
        "derivations.Derivation.extend",
        "derivations.Derivation.verified",
        "derivations.Instance.ntk",
        "derivations.Instance.quantity",
        "derivations.Instance.time_derivative",
        "derivations.Instance.unit_expr",
        "derivations.Instance.unit_renaming",
        "derivations.Instance.verify_conserved",
        "derivations.Model.init_symbol",
        "derivations.Model.instance_size",
        "derivations.Model.symbol",
        "derivations.Model.unit_time_derivative",
        "derivations.Model.verify_unit_conserved",
        "derivations.RiccatiSolution.rate_split",
        "derivations.Step.check",
        "derivations.implicit_solution",
        "derivations.numeric_evidence",
        "derivations.phi1.definition",
        "derivations.phi1.fdiff",
        "derivations.population_loss",
        "derivations.prove_equal",
        "derivations.prove_zero",
        "numerics.ClosedForm.prepare",
        "numerics.ClosedForm.run",
        "numerics.DOP853.run",
        "numerics.GradientDescent.run",
        "numerics.MPMath.run",
        "numerics.Taylor.run",
        "numerics.agf",
        "numerics.reduced_trajectory",
        "numerics.riccati_mpmath",
        "numerics.riccati_numpy",
        "numerics.trajectory",
        "proofs_check.Claim.latex",
        "proofs_check.Outcome.to_json",
        "proofs_check.Outcome.with_routes",
        "proofs_check.Paper.claim",
        "proofs_check.Paper.claims",
        "proofs_check.Paper.decide",
        "proofs_check.Paper.definition",
        "proofs_check.Paper.experiment",
        "proofs_check.Paper.known_symbols",
        "proofs_check.Paper.model_objects",
        "proofs_check.Paper.substitute",
        "proofs_check.Paper.symbol",
        "proofs_check.Paper.symbol_names",
        "proofs_check.Paper.variant",
        "proofs_check.PaperInfo.to_json",
        "proofs_check.Record.to_json",
        "proofs_check.Registry.add",
        "proofs_check.Registry.claims",
        "proofs_check.Registry.paper",
        "proofs_check.Registry.papers",
        "proofs_check.Structure.has_equation",
        "proofs_check.Structure.problems",
        "proofs_check.format_details",
        "proofs_check.format_table",
        "proofs_check.load_file",
        "proofs_check.load_papers",
        "proofs_check.main",
        "proofs_check.run_claims",
        "proofs_check.summary_line",
        "proofs_check.to_json",
    }
)


def _problems() -> dict[str, list[Problem]]:
    found: dict[str, list[Problem]] = {}
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            for problem in check_public(f"{package}.{name}", getattr(module, name)):
                found.setdefault(problem.where, []).append(problem)
    return found


def test_public_docstrings_have_their_sections() -> None:
    problems = _problems()
    new = {where: p for where, p in problems.items() if where not in KNOWN_INCOMPLETE}
    assert not new, "\n".join(f"{p.where}: {p.what}" for ps in new.values() for p in ps)
    stale = sorted(KNOWN_INCOMPLETE - problems.keys())
    assert not stale, f"complete now, remove from KNOWN_INCOMPLETE: {stale}"


def _complete(x: int, *rest: int, scale: float = 1.0) -> int:
    """A sample.

    Arguments:
        x, rest: the numbers (>= 0).
        scale: a factor.

    Returns:
        their sum.

    Raises:
        ValueError: a negative number.
    """
    if x < 0:
        raise ValueError("x must be >= 0")
    return int(scale * (x + sum(rest)))


def _undocumented_parameter(x: int, y: int) -> int:
    """A sample.

    Arguments:
        x: a number.

    Returns:
        x + y.
    """
    return x + y


def _no_returns(x: int) -> int:
    """A sample.

    Arguments:
        x: a number.
    """
    return x


def _no_raises(x: int) -> int:
    """A sample.

    Arguments:
        x: a number.

    Returns:
        x.
    """
    if x < 0:
        raise ValueError("x must be >= 0")
    return x


def _returns_none(x: int) -> None:
    """A sample.

    Arguments:
        x: a number.
    """


def test_a_complete_sample_passes() -> None:
    assert check_function(_complete, "s") == []
    assert check_function(_returns_none, "s") == []


@pytest.mark.parametrize(
    ("function", "what"),
    [
        (_undocumented_parameter, "Arguments do not name ['y']"),
        (_no_returns, "no Returns section"),
        (_no_raises, "no Raises section (the code raises ValueError/TypeError)"),
    ],
)
def test_a_missing_section_or_parameter_is_reported(function: object, what: str) -> None:
    assert [p.what for p in check_function(function, "s")] == [what]  # type: ignore[arg-type]
