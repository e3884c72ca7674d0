"""numerics.linear_network.oriented_weights: weight pairs checked and returned in the paper orientation."""

import numpy as np
import pytest

from numerics.linear_network import oriented_weights


def test_code_orientation_is_transposed_and_paper_kept():
    W1 = np.arange(6.0).reshape(3, 2)  # paper: d = 3, p = 2
    W2 = np.arange(8.0).reshape(2, 4)  # paper: p = 2, c = 4
    P1, P2 = oriented_weights(W1, W2)
    assert np.array_equal(P1, W1) and np.array_equal(P2, W2)
    C1, C2 = oriented_weights(W1.T, W2.T, "code")
    assert np.array_equal(C1, W1) and np.array_equal(C2, W2)


def test_bad_pairs_name_the_argument():
    with pytest.raises(ValueError, match="W1 and W2"):
        oriented_weights(np.ones((3, 2)), np.ones((3, 4)))
    with pytest.raises(ValueError, match="orientation"):
        oriented_weights(np.ones((3, 2)), np.ones((2, 4)), "transposed")
    with pytest.raises(ValueError, match="W2"):
        oriented_weights(np.ones((3, 2)), np.ones(2))
