"""The tensor arguments of the scans (the step-by-step references and the chunked forms of
:mod:`seqtheory.models.layers_diagonal` and :mod:`seqtheory.models.layers_delta`): one dtype
for all of them, by torch's type promotion, in the references and the chunked forms alike.

Mixed precisions are promoted as torch's binary operations promote them
(``torch.promote_types``): a float32 and a float64 argument give a float64 scan, a complex64 one
beside float64 ones a complex128 one; the result has the promoted dtype. Arguments that the
recurrence keeps real (gates, parities, phases; every argument of GLA and the delta rule) must
be real; complex ones (the inputs, read-outs and start states of a scan with phases) keep their
complexity at the promoted precision. A non-tensor, an integer or bool tensor, or a complex
tensor where a real one is meant is a ``TypeError`` naming the argument.
"""
from __future__ import annotations

import torch

__all__ = ["promote_scan_inputs", "real_dtype_of"]


def real_dtype_of(dtype: torch.dtype) -> torch.dtype:
    """The real dtype of a floating or complex ``dtype`` (``complex64`` → ``float32``)."""
    return torch.empty((), dtype=dtype).real.dtype if dtype.is_complex else dtype


def promote_scan_inputs(real: dict, may_be_complex: dict | None = None) -> tuple[dict, torch.dtype]:
    """``(converted, dtype)``: the tensors of ``real`` (name → tensor or None; must be real) and
    of ``may_be_complex`` (name → tensor or None) converted to their common precision, the real
    ``dtype`` of that precision; ``None`` entries stay ``None``. ``TypeError`` naming the first
    argument that is not a tensor, not floating or complex, or complex in ``real``."""
    may_be_complex = may_be_complex or {}
    dtypes = []
    for group, complex_ok in ((real, False), (may_be_complex, True)):
        for name, t in group.items():
            if t is None:
                continue
            if not isinstance(t, torch.Tensor):
                raise TypeError(f"{name} must be a torch.Tensor, got {type(t).__name__}")
            if t.is_complex() and not complex_ok:
                raise TypeError(f"{name} must be a real tensor, got {t.dtype}")
            if not (t.is_floating_point() or t.is_complex()):
                raise TypeError(f"{name} must be a floating tensor, got {t.dtype}")
            dtypes.append(real_dtype_of(t.dtype))
    dtype = dtypes[0]
    for d in dtypes[1:]:
        dtype = torch.promote_types(dtype, d)
    cdtype = torch.promote_types(dtype, torch.complex64)
    out = {n: None if t is None else t.to(dtype) for n, t in real.items()}
    out.update({n: None if t is None else t.to(cdtype if t.is_complex() else dtype)
                for n, t in may_be_complex.items()})
    return out, dtype
