#!/usr/bin/env bash
# The next shard of the paper profile's trained runs on one CUDA GPU, packed as a shard bundle.
#
#   OUT=out bash sweeps/paper_profile.sh            # on the GPU machine, from the repository root
#   OUT=/tmp/o PROFILE=quick DEVICE=cpu SHARD_BUDGET_S=30 bash sweeps/paper_profile.sh   # on a CPU
#
# What it does: installs this checkout (no dependency downloads: the machine must already have
# torch with CUDA and the scientific stack); cuts the profile's planned runs that the bundles
# under $EVIDENCE (default evidence/, committed) lack into shards estimated at most
# SHARD_BUDGET_S seconds each (default 360; `seqtheory evidence shards --profile paper
# --evidence evidence` lists them, decisive cells first); trains shard SHARD (default auto: the
# next one; or its number) within BUDGET_S seconds (default 540); then packs only the runs the
# evidence lacks into $OUT/evidence/$PROFILE-shard-NN-YYYYMMDD (results, metric curves, final
# weights and the provenance: this shard's commit, GPU, versions, date). An interrupted or
# timed-out training still packs what finished; the next shard trains the rest. Copy the bundle
# into $EVIDENCE and commit it; `seqtheory verify --profile paper --evidence evidence` reads the
# union of the bundles there and reports the claims whose runs are still missing as inconclusive.
set -uo pipefail
OUT=${OUT:-out}
BUDGET_S=${BUDGET_S:-540}
PROFILE=${PROFILE:-paper}
DEVICE=${DEVICE:-cuda}
EVIDENCE=${EVIDENCE:-evidence}
SHARD=${SHARD:-auto}
SHARD_BUDGET_S=${SHARD_BUDGET_S:-360}
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
EVIDENCE_ARGS=()
if compgen -G "$EVIDENCE/*/provenance.json" >/dev/null || [ -f "$EVIDENCE/provenance.json" ]; then
    EVIDENCE_ARGS=(--evidence "$EVIDENCE")
fi
START=$(date +%s)
timeout --signal=INT --kill-after=60 "$BUDGET_S" seqtheory evidence train --profile "$PROFILE" \
    --device "$DEVICE" --results "$OUT/results" --shard "$SHARD" --shard-budget-s "$SHARD_BUDGET_S" \
    --info "$OUT/shard.json" "${EVIDENCE_ARGS[@]}"
echo "training exit status $? after $(( $(date +%s) - START )) s"
[ -f "$OUT/shard.json" ] || { echo "no shard to train"; exit 0; }
N=$(python -c "import json, sys; print(json.load(open(sys.argv[1]))['shard'])" "$OUT/shard.json")
NAME=$(printf '%s-shard-%02d-%s' "$PROFILE" "$N" "$(date -u +%Y%m%d)")
EXCLUDE_ARGS=()
[ ${#EVIDENCE_ARGS[@]} -gt 0 ] && EXCLUDE_ARGS=(--exclude-evidence "$EVIDENCE")
seqtheory evidence pack --results "$OUT/results" --out "$OUT/evidence/$NAME" --profile "$PROFILE" \
    --shard "$N" "${EXCLUDE_ARGS[@]}"
STATUS=$?
[ -d "$OUT/evidence/$NAME" ] && du -sh "$OUT/evidence/$NAME"
exit $STATUS
