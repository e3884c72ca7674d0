"""Issue 27: a user's ``Model`` is validated at construction: each bad definition is a ``TypeError`` or
``ValueError`` naming the field (never a raw ``KeyError``, ``IndexError`` or ``SympifyError`` from inside), and the
good definition (the README's) is accepted and builds."""

from __future__ import annotations

import re

import pytest
import sympy as sp

from derivations import Model, Quantity, registry
from tests.user_models import whitened_product

a, b = sp.symbols("a b", real=True)


def definition(**changes: object) -> dict:
    """The keyword arguments of a valid model f = sum_i a_i b_i x_i on whitened inputs, with ``changes``."""
    return whitened_product(**changes)


def _two_inputs(moment: object) -> dict:
    return dict(
        input_dim=lambda p: 2,
        network=lambda s, x: s["a"][0] * s["b"][0] * x[0],
        target=lambda s, x: s["S"][0] * x[1],
        moment=moment,
    )


# name -> (changes, error class, pattern the message must match: it names the field)
BAD: dict[str, tuple[dict, type, str]] = {
    "negative second moment": (
        dict(moment=lambda s, i, j: -sp.S.One if i == j else sp.S.Zero),
        ValueError,
        r"moment E\[x_1\^2\] must be >= 0",
    ),
    "negative symbolic moment": (
        dict(moment=lambda s, i, j: -s["mu"]),
        ValueError,
        r"moment E\[x_1\^2\] must be >= 0, got -mu",
    ),
    "NaN moment": (dict(moment=lambda s, i, j: sp.nan), ValueError, r"moment must be finite"),
    "float NaN moment": (dict(moment=lambda s, i, j: float("nan")), ValueError, r"moment must be finite"),
    "infinite moment": (dict(moment=lambda s, i, j: sp.oo), ValueError, r"moment must be finite"),
    "complex moment": (dict(moment=lambda s, i, j: 1 + sp.I), ValueError, r"moment must be real-valued"),
    "moment matrix not PSD": (
        _two_inputs(lambda s, i, j: sp.S.One if i == j else sp.S(2)),
        ValueError,
        r"moment matrix .* positive semidefinite",
    ),
    "moment not symmetric": (_two_inputs(lambda s, i, j: sp.S(i)), ValueError, r"moment must be symmetric"),
    "moment a string": (dict(moment=lambda s, i, j: "1"), TypeError, r"moment must give SymPy expressions"),
    "moment of two arguments": (dict(moment=lambda s, i: 1), ValueError, r"moment raised TypeError"),
    "unknown domain": (
        dict(domains={"S": "negative"}),
        ValueError,
        r"domains\['S'\] must be one of \('real', 'positive'\)",
    ),
    "domain of no parameter": (dict(domains={"zz": "real"}), ValueError, r"domains\['zz'\] names no parameter"),
    "domains a list": (dict(domains=["S"]), TypeError, r"domains must be a mapping"),
    "learning rate of no state": (
        dict(learning_rates={"c": "mu"}),
        ValueError,
        r"learning_rates\['c'\] names no state",
    ),
    "learning rate not a parameter": (
        dict(learning_rates={"a": "eta"}),
        ValueError,
        r"learning_rates\['a'\] must be a shared parameter",
    ),
    "complex network": (
        dict(network=lambda s, x: sp.I * s["a"][0] * s["b"][0] * x[0]),
        ValueError,
        r"network must be real-valued",
    ),
    "complex target": (
        dict(target=lambda s, x: (1 + 2j) * s["S"][0] * x[0]),
        ValueError,
        r"target must be real-valued",
    ),
    "param_check not callable": (dict(param_check=3), TypeError, r"param_check must be callable or None"),
    "network not callable": (dict(network="a*b"), TypeError, r"network must be callable"),
    "network reads an unknown name": (
        dict(network=lambda s, x: s["c"][0] * x[0]),
        ValueError,
        r"network raised KeyError: 'c'",
    ),
    "network reads a missing unit": (
        dict(network=lambda s, x: s["a"][1] * x[0]),
        ValueError,
        r"network raised IndexError",
    ),
    "network returns a string": (dict(network=lambda s, x: "a*b"), TypeError, r"network must give SymPy expressions"),
    "network returns None": (dict(network=lambda s, x: None), TypeError, r"network must give SymPy expressions"),
    "network nonlinear in x": (
        dict(network=lambda s, x: s["a"][0] * x[0] ** 2),
        ValueError,
        r"network is not linear in the inputs",
    ),
    "input_dim a string": (dict(input_dim=lambda p: "2"), ValueError, r"input_dim\(1\) must be a non-negative integer"),
    "input_dim negative": (dict(input_dim=lambda p: -1), ValueError, r"input_dim\(1\) must be a non-negative integer"),
    "input_dim of no argument": (dict(input_dim=lambda: 1), ValueError, r"input_dim raised TypeError"),
    "quantity of unknown kind": (
        dict(quantities={"theta": Quantity("units", a * b)}),
        ValueError,
        r"quantities\['theta'\]\.kind must be one of",
    ),
    "quantity expression a string": (
        dict(quantities={"theta": Quantity("unit", "a*b")}),
        TypeError,
        r"quantities\['theta'\]\.expr must give SymPy",
    ),
    "quantity not a Quantity": (
        dict(quantities={"theta": a * b}),
        TypeError,
        r"quantities\['theta'\] must be a Quantity",
    ),
    "quantities a list": (dict(quantities=[1]), TypeError, r"quantities must be a mapping"),
    "state_names a string": (dict(state_names="ab"), TypeError, r"state_names must be a tuple of names"),
    "state_names empty": (dict(state_names=()), ValueError, r"state_names must name at least one state"),
    "state name not an identifier": (
        dict(state_names=("a", "b c")),
        ValueError,
        r"state_names must be Python identifiers",
    ),
    "name not a string": (dict(name=3), TypeError, r"\bname must be a Python identifier"),
    "regularizer reads an unknown name": (
        dict(regularizer=lambda s: s["nu"]),
        ValueError,
        r"regularizer raised KeyError: 'nu'",
    ),
    "regularizer returns a string": (dict(regularizer=lambda s: "mu"), TypeError, r"regularizer must give SymPy"),
    "regularizer not callable": (dict(regularizer=1.0), TypeError, r"regularizer must be callable or None"),
    "tags not strings": (dict(tags={"flow": 3}), TypeError, r"\btags must map"),
    "matrix_params a list": (dict(matrix_params=[1]), TypeError, r"matrix_params must be a mapping"),
    "matrix_states rows a string": (
        dict(matrix_states={"W": "a"}),
        ValueError,
        r"matrix_states\['W'\] must be distinct state names",
    ),
    "notes a string": (dict(notes="hi"), TypeError, r"\bnotes must be a tuple of strings"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_definition_is_refused_at_construction_naming_the_field(case) -> None:
    changes, error, pattern = BAD[case]
    with pytest.raises(error, match=pattern) as caught:
        Model(**definition(**changes))
    assert type(caught.value) in (ValueError, TypeError)  # not a KeyError etc. that happens to be a subclass


def test_the_good_definition_and_every_registered_model_are_accepted() -> None:
    """The checks can fail only on bad definitions: the base definition builds and its loss is the expected one."""
    model = Model(**definition())
    S1, S2 = sp.symbols("S_1 S_2", real=True)
    a1, a2, b1, b2 = sp.symbols("a_1 a_2 b_1 b_2", real=True)
    assert sp.expand(model.instance(2).loss - ((a1 * b1 - S1) ** 2 + (a2 * b2 - S2) ** 2) / 2) == 0
    psd = Model(**definition(**_two_inputs(lambda s, i, j: sp.S(2) if i == j else sp.S.One)))
    assert psd.instance(1).inputs == sp.symbols("x_1 x_2", real=True)
    for name in registry.names():
        Model(**{f: getattr(registry.get(name), f) for f in Model.__dataclass_fields__})


def test_a_failure_at_another_width_names_the_field_too() -> None:
    """The probes are at widths 1 and 2; at width 3 a network reading unit 6 still names the field."""

    def network(s: dict, x: tuple) -> sp.Expr:
        return s["a"][0] * s["b"][0] * x[0] if len(s["a"]) < 3 else s["a"][5] * x[0]

    model = Model(**definition(network=network))
    assert model.instance(2).p == 2
    with pytest.raises(ValueError, match=re.escape("user_model: the model's network raised IndexError")):
        model.instance(3)
