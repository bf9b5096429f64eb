#!/usr/bin/env bash
# The paper profile's trained claims on one CUDA GPU, packed as an evidence bundle.
#
#   OUT=out bash sweeps/paper_profile.sh            # on the GPU machine, from the repository root
#   OUT=/tmp/o PROFILE=quick DEVICE=cpu bash sweeps/paper_profile.sh   # the same steps on a CPU
#
# What it does: installs this checkout (no dependency downloads: the machine must already have
# torch with CUDA and the scientific stack), trains and checks every trained claim with
# `seqtheory verify --profile paper --device cuda` within BUDGET_S seconds (default 540), then
# packs the finished runs into $OUT/evidence/paper (results, metric curves, final weights and the
# provenance: commit, GPU, versions). An interrupted or timed-out verify still packs what
# finished; `seqtheory verify --profile paper --evidence DIR` later reports the missing runs.
# Copy $OUT/evidence/paper into the repository (e.g. evidence/paper-h200) to commit it.
set -uo pipefail
OUT=${OUT:-out}
BUDGET_S=${BUDGET_S:-540}
PROFILE=${PROFILE:-paper}
DEVICE=${DEVICE:-cuda}
mkdir -p "$OUT"
python -c "import seqtheory" 2>/dev/null || python -m pip install -q --no-deps --no-build-isolation -e .
python - "$DEVICE" <<'PY' || exit 3
import importlib.util, sys, torch
missing = [m for m in ("numpy", "scipy", "sympy", "mpmath", "flint", "matplotlib", "rich")
           if importlib.util.find_spec(m) is None]
print("torch", torch.__version__, "cuda", torch.cuda.is_available(),
      torch.cuda.get_device_name(0) if torch.cuda.is_available() else "-", "missing:", missing)
sys.exit(1 if missing or (sys.argv[1] == "cuda" and not torch.cuda.is_available()) else 0)
PY
TRAINED=$(python -c "
from seqtheory.proofs_checks.registry import all_claims, load_all
load_all(); print(' '.join(c.id for c in all_claims() if c.uses_training))")
START=$(date +%s)
timeout --signal=INT --kill-after=60 "$BUDGET_S" seqtheory verify --profile "$PROFILE" --device "$DEVICE" --no-progress \
    --results "$OUT/results" --out "$OUT/report" --replace --only $TRAINED
echo "verify exit status $? after $(( $(date +%s) - START )) s"
seqtheory evidence pack --results "$OUT/results" --out "$OUT/evidence/$PROFILE" --profile "$PROFILE"
STATUS=$?
[ -d "$OUT/evidence/$PROFILE" ] && du -sh "$OUT/evidence/$PROFILE"
exit $STATUS
