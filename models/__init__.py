"""seqtheory.models."""
