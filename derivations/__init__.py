"""Exact derivations of gradient flows of solvable layerwise-linear models (SymPy only)."""

from . import models
from .closed_form import ClosedForm
from .derivation import Derivation, Step, StepCheck
from .model import Instance, Model, Quantity, population_loss
from .proof import Proof, numeric_evidence, prove_equal, prove_zero
from .riccati import RiccatiSolution, riccati_solution
from .special import phi1

__all__ = [
    "ClosedForm",
    "Derivation",
    "Instance",
    "Model",
    "Proof",
    "Quantity",
    "RiccatiSolution",
    "Step",
    "StepCheck",
    "models",
    "numeric_evidence",
    "phi1",
    "population_loss",
    "prove_equal",
    "prove_zero",
    "riccati_solution",
]
