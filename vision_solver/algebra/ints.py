"""Integer helpers shared by the algebra: fast reduction mod m, compact dtypes."""

from __future__ import annotations

import numpy as np


def reduce_mod(values: np.ndarray, m: int) -> np.ndarray:
    """``values mod m`` in place (non-negative); a bit mask when m is a power of two."""
    if m & (m - 1) == 0:
        np.bitwise_and(values, m - 1, out=values)
    else:
        np.remainder(values, m, out=values)
    return values


def work_dtype(m: int, terms: int = 9) -> type[np.signedinteger]:
    """Smallest signed integer type that holds a sum of ``terms`` values in -m..m."""
    if terms * m < 2**7:
        return np.int8
    if terms * m < 2**15:
        return np.int16
    if terms * m < 2**31:
        return np.int32
    return np.int64
