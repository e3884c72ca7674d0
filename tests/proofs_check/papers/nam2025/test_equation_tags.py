"""Nam et al.'s equation numbers on the derivations of its models (``Paper.derivation``): App. H tags every step
of the width-p scalar network's derivation, §2 the linear and diagonal models' flows and solutions."""

from __future__ import annotations

from derivations import models
from proofs_check.papers.nam2025.claims import PAPER


def test_latex_of_two_layer_scalar_carries_the_paper_tags() -> None:
    derivation = PAPER.derivation("two_layer_scalar")
    latex = derivation.latex()
    assert latex.startswith("\\begin{align}") and latex.rstrip().endswith("\\end{align}")
    for tag in ("74", "76", "96", "77", "78", "86–87"):
        assert f"\\tag{{{tag}}}" in latex, tag
    assert latex.count("\\tag{") + latex.count("\\notag") >= len(derivation.steps)


def test_latex_tags_of_the_other_models() -> None:
    linear = PAPER.derivation("linear_model").latex()
    assert "\\tag{7}" in linear and "\\tag{10}" in linear
    latex = PAPER.derivation(models.get("diagonal_linear_network")).latex()
    assert "\\begin{align}" in latex and "\\tag{6}" in latex and "\\tag{8}" in latex


def test_the_paper_tags_a_copy_by_step_key() -> None:
    solved = models.get("two_layer_scalar").closed_form.derivation
    tagged = PAPER.derivation("two_layer_scalar")
    assert [s.relation for s in tagged.steps] == [s.relation for s in solved.steps]
    assert not any(s.tag for s in solved.steps), "the library's derivation stays untagged"
    assert {s.tag for s in tagged.by_key("clock_ode")} == {"86–87"}
    assert PAPER.derivation("two_layer_scalar").by_tag("74")[-1].key == "solution"
