"""Models and papers of an installed package, found through the entry-point groups, and ``register``."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from derivations import models
from derivations import registry as model_registry
from proofs_check.claims import Status
from proofs_check.papers import load_papers
from proofs_check.runner import run_claims

PLUGIN = """
import sympy as sp
from derivations.model import Model, Quantity
from proofs_check import Paper

a, b, S = sp.symbols("a b S", real=True)
CHAIN = Model(
    name="plugin_chain", title="A plugin's model", reference="Plugin 2026",
    state_names=("a", "b"), unit_param_names=(), shared_param_names=("S",),
    network=lambda s, x: sum(p * q for p, q in zip(s["a"], s["b"])) * x[0],
    target=lambda s, x: s["S"] * x[0], moment=lambda s, i, j: sp.S.One, input_dim=lambda p: 1,
    quantities={"theta": Quantity("sum", a * b)},
)
PAPER = Paper("plugin2026", "A plugin's paper", ("P. Lugin",), "arXiv", 2026, models=(CHAIN,))
flow = PAPER.symbol("a_dot", r"\\dot a", lambda: CHAIN.unit_field[a])
PAPER.claim("flow", sp.Eq(flow, b * (S - sp.Symbol("theta", real=True))), where="§1")
"""


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A distribution ``plugin-0.1`` on sys.path declaring one model and one paper."""
    (tmp_path / "lw_plugin.py").write_text(PLUGIN)
    info = tmp_path / "lw_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lw-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[layerwise_linear_flows.models]\nplugin_chain = lw_plugin:CHAIN\n\n"
        "[layerwise_linear_flows.papers]\nplugin2026 = lw_plugin:PAPER\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(model_registry, "_installed_loaded", False)
    monkeypatch.setattr(model_registry, "_REGISTRY", dict(model_registry._REGISTRY))
    yield tmp_path
    sys.modules.pop("lw_plugin", None)


def test_installed_model_and_paper_are_found(plugin: Path) -> None:
    assert "plugin_chain" in models.names()
    registry = load_papers(["plugin2026"])
    (record,) = run_claims(registry.claims())
    assert record.outcome.status is Status.PROVED
    assert "plugin2026" in load_papers().papers()


def test_register(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_registry, "_REGISTRY", dict(model_registry._REGISTRY))
    base = models.get("linear_model")
    twin = dataclasses.replace(base, name="linear_twin")
    assert models.register(twin) is twin and models.get("linear_twin") is twin
    assert models.register(twin) is twin
    with pytest.raises(ValueError, match="already registered as 'linear_twin'"):
        models.register(dataclasses.replace(base, name="linear_twin"))
    with pytest.raises(TypeError, match="Model"):
        models.register("linear_model")  # type: ignore[arg-type]


def test_builtin_papers_load_through_their_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """The package's own papers come from the entry-point group, as an outside paper does: each built-in key has an
    entry point naming its folder, and a built-in paper whose entry point is missing is refused, naming the fix."""
    from proofs_check import papers

    installed = papers._installed()
    assert {name: installed[name].value for name in papers.BUILTIN_PAPERS} == {
        name: f"proofs_check.papers.{name}" for name in papers.BUILTIN_PAPERS
    }
    loaded = load_papers(["saxe2014"]).papers()
    assert loaded == ["saxe2014"]
    # without its entry point, the built-in paper is not loaded (there is no second path)
    monkeypatch.setattr(papers, "_installed", lambda: {k: v for k, v in installed.items() if k != "saxe2014"})
    with pytest.raises(ValueError, match=r"'saxe2014' have no entry point .*pip install -e \."):
        load_papers(["saxe2014"])
