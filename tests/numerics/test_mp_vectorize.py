"""The mpmath evaluation path (``numerics.compiled.mp_vectorize``) at any number of arguments (issue 13, item 3).

``np.frompyfunc`` caps a ufunc at 64 operands; ``linear_network(5, 5)``'s quantities take 70 (10 states, 25 sums,
35 moment entries), so ``trajectory(..., method="mpmath")`` raised at 5 x 5.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from derivations.models.linear_network import linear_network
from numerics import trajectory
from numerics.compiled import mp_vectorize
from numerics.linear_network import moment_params, weights_to_init


def _weighted_sum(**values: object) -> object:
    return mpmath.fsum(int(name[1:]) * value for name, value in values.items())


@pytest.mark.parametrize("count", [1, 64, 65, 200])
def test_many_arguments_broadcast(count: int) -> None:
    """f(x1, ..., xN) = sum_k k x_k with arguments of shapes (3, 1), (1, 4) and scalars, exactly in mpmath."""
    rng = np.random.default_rng(count)
    shapes = [(3, 1), (1, 4), ()]
    values = {f"x{k}": rng.integers(-9, 10, size=shapes[k % 3]) for k in range(1, count + 1)}
    result = mp_vectorize(_weighted_sum)(**{n: np.vectorize(mpmath.mpf, otypes=[object])(v) for n, v in values.items()})
    shape = (3, 4) if count > 1 else (1, 4)
    expected = sum(int(n[1:]) * np.broadcast_to(v, shape) for n, v in values.items())
    assert result.shape == np.shape(expected)
    assert np.all(result == expected)


def test_scalar_and_empty_calls() -> None:
    assert mp_vectorize(_weighted_sum)(x2=mpmath.mpf(3)) == 6
    assert isinstance(mp_vectorize(_weighted_sum)(x2=mpmath.mpf(3)), mpmath.mpf)
    assert mp_vectorize(lambda: mpmath.mpf(5))() == 5


@pytest.mark.slow
@pytest.mark.parametrize(("d", "c"), [(5, 5), (6, 5)])
def test_linear_network_mpmath_matches_scipy(d: int, c: int) -> None:
    """The 30-digit integration of the derived flow at 5 x 5 and 6 x 5 (70 and 83 operands) against scipy's."""
    rng = np.random.default_rng(d * c)
    W1, W2 = rng.normal(size=(d, 3)) * 0.3, rng.normal(size=(3, c)) * 0.3
    params = moment_params(np.eye(d), rng.normal(size=(d, c)))
    init = weights_to_init(W1, W2)
    exact = trajectory(linear_network(d, c), [0.0, 0.05], params, init, method="mpmath", dps=20)
    floats = trajectory(linear_network(d, c), [0.0, 0.05], params, init, method="scipy")
    for name, values in floats.items():
        assert np.allclose(np.vectorize(float)(exact[name]), values, rtol=1e-8, atol=1e-10), name
