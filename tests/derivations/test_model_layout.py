"""Model names and declared matrix layouts: names that cannot collide at any size (``linear_network(11, 11)``,
where the old concatenated indices made ``Sxy[0, 10]`` and ``Sxy[10, 0]`` both ``Sxy_111``), every moment entry
reaching the derived flow, and models with repeated names, names that would become one SymPy symbol, or broken
layouts refused at construction."""

from __future__ import annotations

from dataclasses import replace

import pytest
import sympy as sp

from derivations.model import Quantity
from derivations.models.layerwise_lr_matrix import layerwise_lr_matrix
from derivations.models.linear_network import linear_network, moment_entries, state_rows
from derivations.models.two_layer_scalar import MODEL as SCALAR

D = C = 11


def _old_name(prefix: str, i: int, j: int) -> str:
    """The naming before the separator (a wrong variant kept to show what the checks below catch)."""
    return f"{prefix}_{i + 1}{j + 1}"


def test_eleven_by_eleven_moments_have_distinct_names() -> None:
    model = linear_network(D, C)
    sxy = [name for row in model.matrix_params["Sxy"] for name in row]
    assert len(sxy) == len(set(sxy)) == D * C
    assert model.matrix_params["Sxy"][0][10] == "Sxy_1_11" and model.matrix_params["Sxy"][10][0] == "Sxy_11_1"
    # symmetric blocks: one parameter per unordered pair, (k, l) and (l, k) alike
    for name, n in (("Sxx", D), ("Syy", C)):
        entries = model.matrix_params[name]
        assert all(entries[i][j] == entries[j][i] for i in range(n) for j in range(n))
        assert len({e for row in entries for e in row}) == n * (n + 1) // 2
    assert len(set(model.shared_param_names)) == len(model.shared_param_names) == D * C + D * (D + 1)
    assert model.matrix_states == {"W1": state_rows(D, C)["W1"], "W2T": state_rows(D, C)["W2T"]}
    assert dict(model.matrix_params) == moment_entries(D, C)
    # the old naming collides at this size: the count above is what tells them apart
    assert len({_old_name("Sxy", k, m) for k in range(D) for m in range(C)}) < D * C


@pytest.mark.slow
def test_every_moment_entry_reaches_the_derived_flow() -> None:
    """Spec §1: W1' = M W2ᵀ with M = Sxy − Sxx W1 W2, so d(W1_kj)'/d(Sxy_km) = (W2ᵀ)_mj for every k, m: each of
    the 121 entries enters the field of its own row, none is merged with another."""
    model = linear_network(D, C)
    inst = model.instance(1)
    field = inst.vector_field
    for k in range(D):
        velocity = field[inst.state[model.matrix_states["W1"][k]][0]]
        for m in range(C):
            entry = inst.sym[model.matrix_params["Sxy"][k][m]]
            assert sp.diff(velocity, entry) == inst.state[model.matrix_states["W2T"][m]][0], (k, m)


def test_a_model_with_repeated_names_is_refused() -> None:
    model = linear_network(2, 1)
    with pytest.raises(ValueError, match=r"\['Sxx_1_1'\] repeat"):
        replace(model, shared_param_names=(*model.shared_param_names, "Sxx_1_1"))
    with pytest.raises(ValueError, match=r"\['W1_1'\] repeat"):
        replace(model, unit_param_names=("W1_1",))
    # the old naming at d = c = 11 declares Sxy_111 twice: refused rather than silently merged
    big = linear_network(D, C)
    old = tuple(_old_name("Sxy", k, m) for k in range(D) for m in range(C))
    with pytest.raises(ValueError, match=r"Sxy_111"):
        replace(big, shared_param_names=old, matrix_params={})


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        ({"matrix_states": {"Sxy_1_1": ("W1_1",)}}, r"matrix name 'Sxy_1_1' is also a state or parameter"),
        ({"matrix_states": {"W1": ("W1_1", "W1_1")}}, r"matrix_states\['W1'\] must be distinct state names"),
        ({"matrix_states": {"W1": ("W1_1", "Sxx_1_1")}}, r"matrix_states\['W1'\] must be distinct state names"),
        ({"matrix_params": {"Sxy": (("Sxy_1_1",), ("W1_1",))}}, r"entry 'W1_1' is not a shared parameter"),
        ({"matrix_params": {"Sxx": (("Sxx_1_1", "Sxx_1_2"), ("Sxx_1_2",))}}, r"rows of one length"),
        ({"matrix_params": {"S": (("Sxx_1_1", "Sxx_1_1"),)}}, r"only the transposed pair"),
        ({"matrix_params": {"A": (("Sxx_1_1",),), "B": (("Sxx_1_1",),)}}, r"entry of both 'A' and 'B'"),
        ({"matrix_states": {"M": ("W1_1",)}, "matrix_params": {"M": (("Sxx_1_1",),)}}, r"declared twice"),
    ],
)
def test_a_broken_matrix_layout_is_refused(change, pattern) -> None:
    with pytest.raises(ValueError, match=pattern):
        replace(linear_network(2, 1), **change)


def test_layerwise_lr_matrix_declares_its_first_layer_and_direction() -> None:
    model = layerwise_lr_matrix(3)
    # rows W_1 … W_3 over the units: the transpose of the paper's W, whose rows w_i are the units
    assert model.matrix_states == {"WT": ("W_1", "W_2", "W_3")}
    assert model.matrix_params == {"n": (("n_1",), ("n_2",), ("n_3",))}


def _scalar_network(**change):
    """``two_layer_scalar`` renamed: a model whose declared names are all distinct, so only the symbol check
    below can refuse it."""
    return replace(SCALAR, name="renamed", **change)


def test_a_parameter_named_like_an_instance_symbol_would_merge_with_it() -> None:
    """Why the check exists: ``Instance`` calls unit 1 of the state ``a`` ``a_1``, so a shared parameter ``a_1``
    is the same SymPy symbol there and the derived field is silently wrong. Built past the check (``object.
    __new__`` skips ``__post_init__``), the instance's loss has lost the parameter as a variable of its own."""
    clash = object.__new__(type(SCALAR))
    for name, value in vars(replace(SCALAR, name="merged")).items():
        object.__setattr__(clash, name, value)
    object.__setattr__(clash, "shared_param_names", ("S", "a_1"))
    object.__setattr__(clash, "domains", {"S": "real", "a_1": "real"})
    object.__setattr__(
        clash, "network", lambda s, x: sum(ai * bi for ai, bi in zip(s["a"], s["b"], strict=True)) * x[0] / s["a_1"]
    )
    loss = clash.instance(2).loss
    # six variables (the states a_1, a_2, b_1, b_2 and the parameters S, a_1), five symbols: two became one
    assert sorted(s.name for s in loss.free_symbols) == ["S", "a_1", "a_2", "b_1", "b_2"]
    with pytest.raises(ValueError, match=r"'a_1' is also unit 1 of 'a'"):
        replace(clash)


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        ({"shared_param_names": ("S", "a_1"), "domains": {"S": "real", "a_1": "real"}}, r"'a_1' is also unit 1 of 'a'"),
        ({"shared_param_names": ("S", "b_12"), "domains": {"S": "real"}}, r"'b_12' is also unit 12 of 'b'"),
        ({"shared_param_names": ("S", "a_0"), "domains": {"S": "real"}}, r"'a_0' is also the initial value of 'a'"),
        ({"unit_param_names": ("b_0",)}, r"'b_0' is also the initial value of 'b'"),
        ({"shared_param_names": ("S", "x_2"), "domains": {"S": "real"}}, r"'x_2' is also an input"),
        ({"state_names": ("x", "b")}, r"'x' names its units like the inputs x_1"),
        ({"quantities": {"a": Quantity("sum", sp.Symbol("b", real=True))}}, r"'a' is also a quantity"),
    ],
)
def test_names_that_become_one_symbol_are_refused(change, pattern) -> None:
    with pytest.raises(
        ValueError, match=r"renamed: the model's symbols must have distinct names, but " + ".*" + pattern
    ):
        _scalar_network(**change)


@pytest.mark.parametrize(
    "change",
    [
        # near misses that no symbol of the model takes: no separator, a leading zero, a non-integer index, an
        # input's base as a shared parameter, lam_0 beside a unit parameter lam (it has no initial value), Z_1
        # beside a shared parameter Z (shared parameters have no units)
        # (Z stays declared: the network reads it, and a definition whose network reads an undeclared name is
        # refused at construction, issue 27)
        {"shared_param_names": ("S", "Z", "a1")},
        {"shared_param_names": ("S", "Z", "a_01")},
        {"shared_param_names": ("S", "Z", "a_k")},
        {"shared_param_names": ("S", "Z", "x")},
        {"unit_param_names": ("lam",), "shared_param_names": ("S", "Z", "lam_0")},
        {"shared_param_names": ("S", "Z", "Z_1")},
    ],
)
def test_names_that_stay_distinct_symbols_are_accepted(change) -> None:
    assert _scalar_network(**change).name == "renamed"
