"""Exact derivations of gradient flows of solvable layerwise-linear models (SymPy only)."""

from . import models, registry
from .closed_form import ClosedForm, Unsolved
from .derivation import Derivation, Step, StepCheck
from .inputs import expression
from .model import Instance, Model, Quantity, population_loss, use_solver
from .pipeline import solve
from .proof import Proof, numeric_evidence, prove_equal, prove_zero
from .riccati import RiccatiSolution, riccati_solution
from .separable import ImplicitSolution, implicit_solution
from .special import phi1

# Model.solution and Model.closed_form run the pipeline; model.py cannot import it (the pipeline builds on models)
use_solver(solve)

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
    "expression",
    "implicit_solution",
    "models",
    "numeric_evidence",
    "phi1",
    "population_loss",
    "prove_equal",
    "prove_zero",
    "registry",
    "riccati_solution",
    "solve",
]
