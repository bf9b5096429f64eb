"""seqtheory.numerics."""
