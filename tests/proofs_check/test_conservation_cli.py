"""``python -m proofs_check --conservation``: the table is printed and stored in the JSON report."""

from __future__ import annotations

import json

import pytest

from proofs_check.cli import main


@pytest.mark.slow
def test_conservation_table_in_output_and_json(tmp_path, capsys) -> None:
    out = tmp_path / "report.json"
    assert main(["--paper", "marcotte2023", "--conservation", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "laws found" in text and "a_1**2 - b_1**2" in text
    rows = {row["model"]: row for row in json.loads(out.read_text())["conservation"]}
    assert rows["two_layer_scalar"]["counted"] == 3 and rows["two_layer_scalar"]["D"] == 4
    assert rows["linear_model"]["counted"] == 0
