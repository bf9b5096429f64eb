"""seqtheory.theory."""
