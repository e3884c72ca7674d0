"""Exact derivations of gradient flows of solvable layerwise-linear models (SymPy only)."""

from . import models
from .closed_form import ClosedForm, Unsolved
from .derivation import Derivation, Step, StepCheck
from .model import Instance, Model, Quantity, population_loss
from .pipeline import solve
from .proof import Proof, numeric_evidence, prove_equal, prove_zero
from .riccati import RiccatiSolution, riccati_solution
from .separable import ImplicitSolution, implicit_solution
from .special import phi1

__all__ = [
    "ClosedForm",
    "Derivation",
    "ImplicitSolution",
    "Instance",
    "Model",
    "Proof",
    "Quantity",
    "RiccatiSolution",
    "Step",
    "StepCheck",
    "Unsolved",
    "implicit_solution",
    "models",
    "numeric_evidence",
    "phi1",
    "population_loss",
    "prove_equal",
    "prove_zero",
    "riccati_solution",
    "solve",
]
