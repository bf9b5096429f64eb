"""Torch's global state during a training run: pinned on entry, restored on exit.

A stored run is keyed by its configuration alone (:mod:`seqtheory.models.store`), so nothing
outside the configuration may change what it trains (issue 33, kind 6: a float32 run after
``torch.set_default_dtype(torch.float64)`` drew its initial parameters in float64 and trained
another model under the same key). Inside :func:`isolated_run_state`:

* the default dtype is float32 (parameters are drawn as a float32 program draws them, then cast
  to the run's precision);
* gradients are enabled and any autocast of the caller is off (a ``bf16`` run enters its own);
* float32 matrix products use full float32 precision (``torch.set_float32_matmul_precision
  ("highest")``: no TF32 on a GPU), and CUDA's reduced-precision reductions of half and
  bfloat16 products are at torch's defaults;
* the global random generators (python ``random``, numpy's, torch's CPU one and, for a run on a
  GPU, that device's) are the run's to seed; their states before the run are restored
  afterwards, so a run neither depends on nor changes the caller's random streams;
* ``threads``, when given, is the number of torch intra-op threads.

Everything is restored on exit, also after an exception. Not changed: the deterministic-
algorithms flag (it selects among kernels that compute the same values) and the flush-denormal
mode (torch has no getter to restore it). The number of threads does not change the values of
these models' CPU kernels (tests/test_run_state.py compares 1 and 2 threads).
"""
from __future__ import annotations

import contextlib
import random
from typing import Iterator

import numpy as np
import torch

__all__ = ["isolated_run_state"]


@contextlib.contextmanager
def isolated_run_state(device: torch.device, threads: int | None = None) -> Iterator[None]:
    """Run the block with torch's global state pinned as the module docstring says, and
    restored afterwards. ``device``: where the run trains (a CUDA device's generator is saved and
    restored too); ``threads``: torch intra-op threads for the block (``None``: unchanged)."""
    saved_dtype = torch.get_default_dtype()
    saved_threads = torch.get_num_threads()
    saved_matmul = torch.get_float32_matmul_precision()
    cuda_matmul = torch.backends.cuda.matmul
    saved_reduced = (cuda_matmul.allow_fp16_reduced_precision_reduction,
                     cuda_matmul.allow_bf16_reduced_precision_reduction)
    saved_py, saved_np = random.getstate(), np.random.get_state()
    dev = torch.device(device)
    devices = [] if dev.type != "cuda" else [
        dev.index if dev.index is not None else torch.cuda.current_device()]
    with torch.random.fork_rng(devices=devices), torch.enable_grad(), \
            torch.autocast("cpu", enabled=False), _no_cuda_autocast():
        try:
            torch.set_default_dtype(torch.float32)
            torch.set_float32_matmul_precision("highest")
            cuda_matmul.allow_fp16_reduced_precision_reduction = True
            cuda_matmul.allow_bf16_reduced_precision_reduction = True
            if threads:
                torch.set_num_threads(threads)
            yield
        finally:
            torch.set_default_dtype(saved_dtype)
            torch.set_num_threads(saved_threads)
            torch.set_float32_matmul_precision(saved_matmul)
            (cuda_matmul.allow_fp16_reduced_precision_reduction,
             cuda_matmul.allow_bf16_reduced_precision_reduction) = saved_reduced
            random.setstate(saved_py)
            np.random.set_state(saved_np)


def _no_cuda_autocast():
    """CUDA autocast off when torch has CUDA (entering it elsewhere only warns)."""
    return torch.autocast("cuda", enabled=False) if torch.cuda.is_available() else contextlib.nullcontext()
