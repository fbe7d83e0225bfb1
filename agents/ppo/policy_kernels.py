"""The frozen policy's forward pass and choice as numba kernels, one row at a time.

Every decision a :class:`~agents.ppo.frozen_policy.FrozenPolicy` makes (one observation for
``ppo:`` agents and pool snapshots, or a whole batch for the vector engine) runs through
:func:`choose`. Each row is computed on its own, in the same float32 operations in the same
order whatever the batch (matrix products in numpy would not be: BLAS picks other kernels,
with other summation orders, for one row than for a thousand), so that a batch of rows gives
exactly the actions the rows give one at a time, draw for draw.

The layers travel as tuples of float32 arrays (:func:`pack`): weights ``(inputs, outputs)``,
then biases.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MASKED = np.float32(-1e8)  # what sb3-contrib's MaskableCategorical puts on illegal logits


def pack(weights: list[np.ndarray], biases: list[np.ndarray]) -> tuple[tuple, tuple]:
    """The layers as the kernels take them: tuples of C-contiguous float32 weights
    ``(inputs, outputs)`` and biases."""
    return (tuple(np.ascontiguousarray(w, np.float32) for w in weights),
            tuple(np.ascontiguousarray(b, np.float32) for b in biases))


@njit(cache=True)
def _forward(x, weights, biases, relu, a, b):
    """The logits of one input row ``x`` into ``a`` (length >= the widest layer); ``b`` is
    scratch. Each output is its bias plus the inputs' terms added in input order."""
    a[: x.shape[0]] = x
    layers = len(weights)
    for layer in range(layers):
        w = weights[layer]
        bias = biases[layer]
        fan_in, fan_out = w.shape
        for j in range(fan_out):
            b[j] = bias[j]
        for k in range(fan_in):
            xk = a[k]
            for j in range(fan_out):
                b[j] += xk * w[k, j]
        if layer < layers - 1:
            for j in range(fan_out):
                if relu:
                    b[j] = max(b[j], np.float32(0.0))
                else:
                    b[j] = np.tanh(b[j])
        for j in range(fan_out):
            a[j] = b[j]


@njit(cache=True)
def _width(weights):
    width = 0
    for layer in range(len(weights)):
        width = max(width, weights[layer].shape[0], weights[layer].shape[1])
    return width


@njit(cache=True)
def choose(x, mask, u, sample, weights, biases, relu, out):
    """Row ``i``'s action into ``out[i]``: the legal action with the highest logit (the first
    of equals, as ``argmax``), or with ``sample`` the one the masked softmax gives the draw
    ``u[i]`` (inverse CDF over the float32 probabilities, as ``FrozenPolicy`` always drew).
    ``-1`` for a row with no legal action."""
    width = _width(weights)
    a = np.empty(width, np.float32)
    b = np.empty(width, np.float32)
    actions = mask.shape[1]
    p = np.empty(actions, np.float32)
    for i in range(x.shape[0]):
        legal = 0
        for k in range(actions):
            legal += mask[i, k] != 0
        if legal == 0:
            out[i] = -1
            continue
        _forward(x[i], weights, biases, relu, a, b)
        best = 0
        for k in range(actions):
            if mask[i, k] == 0:
                a[k] = MASKED
            if a[k] > a[best]:
                best = k
        if not sample:
            out[i] = best
            continue
        top = a[best]
        total = np.float32(0.0)
        for k in range(actions):
            total += np.exp(a[k] - top)
            p[k] = total  # the running sum: cumulative probability times the total
        target = u[i] * np.float64(total)
        pick = 0
        while pick < actions and np.float64(p[pick]) <= target:
            pick += 1
        pick = min(pick, actions - 1)
        while pick > 0 and mask[i, pick] == 0:  # rounding put the draw past the last legal action
            pick -= 1
        out[i] = pick if mask[i, pick] != 0 else best


@njit(cache=True)
def logits(x, weights, biases, relu, out):
    """The unmasked logits of every row of ``x`` into ``out`` [rows, actions]."""
    width = _width(weights)
    a = np.empty(width, np.float32)
    b = np.empty(width, np.float32)
    for i in range(x.shape[0]):
        _forward(x[i], weights, biases, relu, a, b)
        for k in range(out.shape[1]):
            out[i, k] = a[k]
