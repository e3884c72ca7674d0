"""Time of ``derivations.solve`` per registered model, cold: each model in a fresh Python process (import
included, reported apart), so that no SymPy cache or earlier derivation is shared.

Usage: ``python benchmarks/solve_models.py [NAME ...]``; prints a markdown table (the catalogue's reduction
and method used, seconds and outcome).
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from datetime import date

CHILD = """
import json, time
t0 = time.perf_counter()
from derivations import models, solve, ClosedForm
t1 = time.perf_counter()
result = solve(models.get({name!r}))
t2 = time.perf_counter()
steps = len(result.derivation.steps)
if isinstance(result, ClosedForm):
    on_set = result.condition or result.general is not None  # a condition on the start, or the aligned set
    kind = "closed form" + (" (invariant set)" if on_set else "")
    used = result.reduction + (" + " + result.method if result.method else "")
else:
    kind, used = "unsolved: " + result.step, ""
print(json.dumps({{"import": t1 - t0, "solve": t2 - t1, "outcome": kind, "reduction": used, "steps": steps}}))
"""


def run(name: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD.format(name=name)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(names: list[str]) -> None:
    from derivations import models

    names = names or models.names()
    print(
        f"`solve` per model, cold (fresh process each), {date.today()}, {platform.platform()}, Python "
        f"{platform.python_version()}\n"
    )
    print("| model | reduction | import s | solve s | steps | outcome |\n|---|---|---|---|---|---|")
    total = 0.0
    for name in names:
        row = run(name)
        total += row["solve"]
        print(
            f"| {name} | {row['reduction']} | {row['import']:.2f} | {row['solve']:.2f} | {row['steps']} | "
            f"{row['outcome']} |"
        )
    print(f"\ntotal solve time {total:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
