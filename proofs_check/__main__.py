"""Entry point of ``python -m proofs_check``."""

from __future__ import annotations

import sys

from proofs_check.cli import main

sys.exit(main())
