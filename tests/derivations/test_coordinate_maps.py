"""Coordinate maps: verified push-forwards, a wrong map refused, and pulled-back closed forms that solve the
source model's own derived flow."""

from __future__ import annotations

import sympy as sp

from derivations import models
from derivations.coordinate_map import CoordinateMap
from derivations.models.layerwise_lr_linear import to_two_layer_scalar
from derivations.models.uv_model import to_layerwise_lr_linear
from derivations.proof import prove_zero


def test_the_registered_maps_are_conjugacies() -> None:
    for cmap in (
        to_two_layer_scalar(models.get("layerwise_lr_linear")),
        to_layerwise_lr_linear(models.get("uv_model")),
    ):
        checks = cmap.derivation().check()
        assert checks and all(c.proof.holds and c.proof.exact for c in checks)


def test_a_wrong_time_scale_or_parameter_map_is_refused() -> None:
    lw = models.get("layerwise_lr_linear")
    good = to_two_layer_scalar(lw)
    gamma, a = lw.symbol("gamma"), lw.symbol("a")
    wrong_time = CoordinateMap(good.source, good.target, good.state, good.params, good.sums, gamma * a)
    assert not all(c.proof.holds for c in wrong_time.derivation().check())
    wrong_target = dict(good.params, S=lw.symbol("b") / (gamma * a))
    wrong = CoordinateMap(good.source, good.target, good.state, wrong_target, good.sums, good.time_scale)
    assert not all(c.proof.holds for c in wrong.derivation().check())


def test_layerwise_closed_form_solves_its_own_flow_at_width_2() -> None:
    """Substitute u_i(t), w_i(t) (with the clock as a function obeying its Riccati equation) into the
    explicit width-2 vector field derived from the loss."""
    model = models.get("layerwise_lr_linear")
    cf = model.closed_form
    ((clock, sol),) = cf.riccati.items()
    t = cf.t
    inst = model.instance(2)
    G = sp.Symbol("G", positive=True)
    per_unit = []
    for i in range(2):
        init = {model.init_symbol("u"): sp.Symbol(f"u0_{i}"), model.init_symbol("w"): sp.Symbol(f"w0_{i}")}
        per_unit.append({n: e.xreplace(init).xreplace({clock: G}) for n, e in cf.in_initial_values().items()})
    sums = {
        s: sum(
            e.xreplace({model.init_symbol("u"): sp.Symbol(f"u0_{i}"), model.init_symbol("w"): sp.Symbol(f"w0_{i}")})
            for i in range(2)
        )
        for s, e in cf.sums.items()
    }
    gdot = (sol.c2 * G**2 + sol.c1 * G + sol.c0).xreplace(sums)
    values = {inst.state[n][i]: per_unit[i][n] for n in model.state_names for i in range(2)}
    for n in model.state_names:
        for i in range(2):
            lhs = sp.diff(per_unit[i][n], G) * gdot
            rhs = inst.vector_field[inst.state[n][i]].xreplace(values)
            assert prove_zero(lhs - rhs).holds, (n, i)
    assert t not in set().union(*(e.free_symbols for e in cf.in_initial_values().values()))
