"""Conservation laws after Marcotte, Gribonval & Peyré 2023 (NeurIPS): completeness for every registered model
and the r(r+1)/2 count for two-layer linear networks (claims built by ``proofs_check.conservation_claims``)."""

from __future__ import annotations

from proofs_check.claims import register
from proofs_check.conservation_claims import claims

for _claim in claims():
    register(_claim)
