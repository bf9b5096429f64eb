"""Claim modules, one per claim family; each registers its claims on import (discovered by
:func:`seqtheory.proofs_checks.registry.load_all`)."""
