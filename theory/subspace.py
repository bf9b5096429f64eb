"""The abstract subspace of ``F^N`` shared by the exact (:mod:`seqtheory.theory.linalg`) and the
float (:mod:`seqtheory.theory.float_subspace`) subspaces: one API (``dim``, ``basis``,
``contains``, ``coordinates``, ``extend``, ``sum``, ``intersection``).

Conventions: vectors are rows; ``coordinates`` are with respect to ``basis`` (in that order).
Errors: ``ValueError`` for vectors of the wrong length or incompatible subspaces.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .field_input import as_2d, to_field_rows

__all__ = ["Subspace"]


class Subspace:
    """A subspace of ``F^N`` (abstract). See the module docstring for the three fields."""

    field: Any
    ambient_dim: int

    @property
    def dim(self) -> int:
        raise NotImplementedError

    # -- API shared by all fields
    def __len__(self) -> int:
        return self.dim

    def __repr__(self) -> str:
        return f"{type(self).__name__}(dim={self.dim}, ambient_dim={self.ambient_dim}, field={self.field})"

    def _check_compatible(self, other: "Subspace") -> None:
        if type(other) is not type(self) or other.ambient_dim != self.ambient_dim \
                or other.field != self.field:
            raise ValueError(f"incompatible subspaces: {self!r} and {other!r}")

    def contains(self, v: Sequence[Any]) -> bool:
        """Whether the vector ``v`` (length ``ambient_dim``) lies in the subspace."""
        return self.contains_rows(self._convert([v], "v"))

    def contains_all(self, vectors: Any) -> bool:
        """Whether every row of ``vectors`` lies in the subspace."""
        return self.contains_rows(self._convert(vectors))

    def is_subspace_of(self, other: "Subspace") -> bool:
        self._check_compatible(other)
        return other.contains_rows(self.rows)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Subspace):
            return NotImplemented
        self._check_compatible(other)
        return self.dim == other.dim and self.is_subspace_of(other)

    __hash__ = None  # type: ignore[assignment]

    def sum(self, other: "Subspace") -> "Subspace":
        """The sum ``self + other``."""
        self._check_compatible(other)
        return self.extend_rows(other.rows)[0]

    def extend(self, vectors: Any) -> "Subspace":
        """The span of ``self`` and the rows of ``vectors``."""
        return self.extend_rows(self._convert(vectors))[0]

    def _convert(self, vectors: Any, name: str = "vectors"):
        """The rows of ``vectors`` in this subspace's field; errors name ``name``."""
        rows = as_2d(vectors, name)
        if rows and len(rows[0]) != self.ambient_dim:
            raise ValueError(f"{name} has length {len(rows[0])}, ambient dimension is {self.ambient_dim}")
        if self.field == "QQ":
            return to_field_rows(rows, "QQ", name)[0] if rows \
                else np.zeros((0, self.ambient_dim), np.int64)
        if self.field == "RR":
            return to_field_rows(rows, "RR", name) if rows else np.zeros((0, self.ambient_dim))
        return to_field_rows(rows, self.field, name)
