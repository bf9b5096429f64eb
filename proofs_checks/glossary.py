"""The words a verification run speaks: the verdicts, the outcomes of a negative control and the
terms the report's tables use. One source for README.md, report.md, the terminal and the
notebooks (each renders these definitions; none words them itself).

The verdict definitions are those of SPEC §3 (docs/SPEC.md). The control outcomes follow
:func:`seqtheory.proofs_checks.report.control_state`. :data:`TERMS` defines the column names and
abbreviations of the evidence tables; report.md ends with a glossary of the terms its tables use
(:func:`glossary_rows`), and a term missing here is listed there as undefined.
"""
from __future__ import annotations

__all__ = ["VERDICT_MEANINGS", "CONTROL_OUTCOMES", "EXIT_STATUS", "TERMS", "verdict_table",
           "verdicts_in_one_paragraph", "control_table", "glossary_rows", "undefined_terms"]

#: SPEC §3: what each verdict means (the order is the report's)
VERDICT_MEANINGS = {
    "confirmed": "established for the whole stated class, or for the finite set of instances the "
                 "statement itself names, by a certificate the report shows (an exact argument "
                 "checked by the code, or exhaustive enumeration). A universal statement checked on "
                 "finitely many instances is `supported`, with the instances listed",
    "supported": "numerical evidence, or finitely many exact instances of a universal statement, "
                 "agrees within stated tolerances (the figure is given: slope ± CI, max error, the "
                 "instances and their number)",
    "refuted": "a counterexample or a measurement that contradicts the statement as written (the "
               "case is shown)",
    "refined": "the statement holds but is not tight, or holds only under a named extra "
               "hypothesis; the report gives the tight value or the hypothesis and the witness "
               "for it",
    "inconclusive": "the evidence cannot decide (e.g. training did not converge); the report "
                    "says what is missing and what would decide it",
}

#: the outcomes of a claim's negative control (a deliberately wrong variant run through the
#: claim's own decision rule), as the tally counts them
CONTROL_OUTCOMES = {
    "rejected": "the rule gave the wrong variant another verdict than the claim's own: the check "
                "tells the wrong variant apart (the rule need not refute it)",
    "unseparated": "the rule did not accept the wrong variant, but gave it the claim's own "
                   "verdict (in practice `inconclusive` on both): nothing shows that the check "
                   "can tell it apart, so it is no evidence of the check's power. Counted apart "
                   "from `rejected`, marked `*`; it does not change the exit status",
    "separation unknown": "the control was rejected, but whether the rule told it apart cannot be "
                          "said (the check crashed, a call of the rule named no verdict, or the "
                          "record predates the recording of the rule's verdicts); marked `†`",
    "NOT rejected": "the rule accepted the wrong variant: the check is broken (exit status 1)",
    "crashed": "the control raised an error or bypassed the claim's decision rule (exit status 1)",
}

#: ``seqtheory verify``'s exit status, in words
EXIT_STATUS = ("0 when every check and every control that ran finished and no control was "
               "accepted, whatever the verdicts (unseparated controls included: they are counted "
               "in the tally, not failures); 1 when a check or a control crashed, a negative "
               "control was NOT rejected, or the report could not be written or merged; 2 for "
               "bad arguments (nothing is written); 130 after Ctrl-C (the claims finished so far "
               "are written, marked interrupted)")


def verdict_table() -> str:
    """The markdown table ``| verdict | meaning |`` of :data:`VERDICT_MEANINGS`."""
    rows = [f"| `{v}` | {m} |" for v, m in VERDICT_MEANINGS.items()]
    return "\n".join(["| verdict | meaning |", "|---|---|", *rows]) + "\n"


def control_table() -> str:
    """The markdown table ``| control | meaning |`` of :data:`CONTROL_OUTCOMES`."""
    rows = [f"| {o} | {m} |" for o, m in CONTROL_OUTCOMES.items()]
    return "\n".join(["| negative control | meaning |", "|---|---|", *rows]) + "\n"


def verdicts_in_one_paragraph() -> str:
    """The verdicts and the control outcomes as one markdown paragraph (report.md's header, the
    notebooks)."""
    verdicts = "; ".join(f"**{v}**: {m}" for v, m in VERDICT_MEANINGS.items())
    controls = "; ".join(f"**{o}**: {m}" for o, m in CONTROL_OUTCOMES.items())
    return (f"Verdicts (SPEC §3) — {verdicts}. Negative controls — {controls}.")


# ------------------------------------------------------------------------------------ glossary
#: The terms (column names, abbreviations) the report's tables and ``seqtheory inspect`` use, each
#: with its meaning. A column of a table that is not here is listed as undefined in report.md's
#: glossary (tests/test_glossary.py checks the committed report snapshot's columns).
TERMS: dict[str, str] = {
    # --- general
    "seed": "the training or sampling seed of the row (derived from the run seed by a fixed salt)",
    "block": "the replication seed block of the row (`A`, `B`: disjoint blocks of seeds, `A` holding a cell's first seeds; each block is decided alone and the verdict stands only when the blocks agree, SPEC §3)",
    "seed block": "the replication seed block of the row (same as `block`)",
    "seed_pos": "the seed's position in its cell, `i/n` (1-based: the i-th of the cell's n seeds; the first ⌈n/2⌉ form block `A`)",
    "fitted seeds": "seeds whose trained model was read by the inspector (the layer-1 character could be fitted); seeds that could not be inspected are not counted",
    "key": "the results-store key of the run (its first 12 hex digits; `seqtheory runs` lists them, `seqtheory inspect KEY` reads one)",
    "task": "the training task: a group word problem (group name), `rotation_a5` / `rotation_eps` (rotations), or `<group>.token` (label = current token)",
    "model": "the sequence-model family (`mamba`, `signed_mamba`, `aussm`, `gla`, `deltanet`, `deltaproduct`, `transformer`, `abelian`)",
    "depth": "number of stacked layers of the model or cascade",
    "arm": "one side of a comparison (e.g. the signed vs the positive-eigenvalue model)",
    "cell": "one (group, depth, train length) combination of a trained experiment",
    "steps": "optimiser steps of each run",
    "lr": "peak learning rate",
    "head": "the optimiser of the language-model head (`adamw` or `rownorm`)",
    "status": "solver status of the optimisation problem (only `optimal` is accepted)",
    "verdict": "the verdict of this row's part (SPEC §3 words)",
    "why": "why the row's part got its verdict",
    "part": "a part of the claim's statement (parts combine by the weakest, SPEC §3)",
    "reading": "one reading of an ambiguous statement, or one convention of a map (e.g. x·g = x∘g)",
    "role": "what the construction stands for in the claim (the paper's own, or the package's)",
    "variant": "a deliberately wrong variant of the statement the check must reject",
    "candidate": "a candidate form of the bound under test",
    "construction": "which construction of the state space the row measures",
    "family": "a family of test instances (how the instances were built)",
    "kind": "how the stream's gradients are drawn (e.g. gaussian, antipodal)",
    "instance": "how the instance was built (random cascade, explicit construction, ladder)",
    "instances": "how many instances were checked",
    "example": "a witness: an instance showing the row's finding",
    "match": "the computed value equals the oracle's (True/False)",
    "equal": "the row's two exact values agree (True/False): the built cascade's state dimension and dim N(n, c) (depth.cor3.8), or the textbook integrand of the Magnus term and the one derived from log Y (magnus.terms)",
    "holds": "the row's inequality holds, exactly (depth.cor3.8: m·dim L_m ≤ n^m, or dim N(n, T) ≤ (n/(n−1))² n^T/T)",
    "matches_oracle": "the computed invariants equal those of the independent oracle (sympy / GAP)",
    "pass": "the row meets its decision rule (True/False)",
    "exact": "computed exactly (rational arithmetic), not in floating point",
    "expected": "the value the statement (or theory) predicts",
    "measured": "the value measured (for trained runs: the longest length with ≥ 90% held-out sequence accuracy)",
    "predicted": "the value the tested hypothesis predicts (for the phase horizon: the length where accumulated phase error crosses the decision margin)",
    "prediction_note": "why a prediction is finite, unbounded or missing",
    "unbounded": "the prediction is infinite (exact roots of unity, |λ| = 1): no horizon",
    "certified": "the point passed the convergence certificate (budget doubling changes the held-out error by < 5%, and a Gauss–Newton step cannot lower the training loss by 2%)",
    "failed": "which certificate tests failed",
    "decided": "instances whose answer was decided (exactly, or not solvable)",
    "undecided (cap)": "instances left undecided because the derived series did not end within the computation cap",
    "exceeding": "instances exceeding the stated bound (a counterexample count)",
    "attained": "the stated bound is reached by some instance (the bound is tight there)",
    "bound": "the stated bound evaluated on the row's instance",
    "ratio": "measured value divided by the bound (≤ 1: the bound holds)",
    "mass": "the commutator mass ε²‖Ω₂‖₂ of the row's word (spectral norm of the second Magnus term: every unit initial state), which Theorem 3.2 compares with the row's error (one layer: ½‖Φ_x − Φ_x̄‖₂)",
    "error / mass": "the error divided by ε²‖Ω₂‖₂; a lower bound C·ε²‖Ω₂‖ needs it bounded away from 0 as ε → 0",
    "model_degree": "degree in ε of the built model's output map (a polynomial in ε)",
    "agree_to_order": "the highest order in ε up to which the model's output and the target's expansion agree exactly",
    "first_difference": "the lowest-order part of the target's expansion that the model's output lacks",
    "missed terms of order ε³": "how many ε³ monomials of the target's expansion the model's output lacks",
    "mean_ratio": "mean over the row's instances of measured / bound",
    "min_ratio": "smallest measured / bound over the row's instances",
    "worst_ratio": "the ratio closest to violating the bound",
    "best_ratio": "the best ratio found by the search",
    "limit_ratio": "the limit of the ratio as the parameter grows",
    "residual": "difference between the computed value and its reference",
    "error": "prediction error of the model on the row's words",
    "max_error": "largest error over the row's words or instances",
    "err_min": "smallest error in the fitted range",
    "slope": "fitted slope of log(error) against log(ε) (the measured exponent)",
    "ci": "95% confidence interval of the fitted slope or exponent",
    "ci_low": "lower end of the 95% confidence interval",
    "ci_high": "upper end of the 95% confidence interval",
    "eps": "ε, the scale of the inputs (errors are measured as ε → 0)",
    "eps_min": "smallest ε of the fit",
    "eps_max": "largest ε of the fit",
    "points": "number of points of the fit",
    "T": "sequence length (number of tokens)",
    "T_range": "smallest and largest sequence length of the fit",
    "L": "the length of the sequence before padding",
    "n": "number of letters of the alphabet (generators)",
    "letters n": "number of letters n of the candidate row (2 and 3: the built targets' alphabets; 60: the ε-scaled rotation task's)",
    "m": "word length (degree)",
    "k": "number of layers (or the index of the row's case)",
    "c": "nilpotency class (truncation degree of the series)",
    "c+1": "the order of the first omitted term, c + 1",
    "d": "dimension (hidden size, or head width)",
    "V": "vocabulary size (number of rows of the head)",
    "a": "the coefficients a of the construction's rows (the update S = 1·aᵀ-type family of the row)",
    "r": "number of repetitions r of the word (ab)^r",
    "beta": "β: the fitted exponent of state dimension / (n^T/T) in T (depth.cor3.8; ≤ 0 is O(n^T/T)), or the EMA coefficient of the stream (head.ema_rownorm_bound)",
    "eta": "η, the learning rate (step size) of the update",
    "lambda": "λ, the step-size parameter of the update",
    "parameter": "the family's parameter (e.g. k or V) at which the row is evaluated",
    "degree": "degree of the series (word length)",
    "dps": "decimal digits of the arbitrary-precision arithmetic (mpmath)",
    "dim": "dimension of the Lie algebra (or module)",
    "order": "order of the group",
    "group": "the finite group (named by order, SPEC §2: D8 has order 8)",
    "classes": "the tokens grouped by the root of unity their learned phase is nearest (a character's fibres)",
    "class": "the row's class: a layer class x coupling (depth.prop3.3), or the growth class the fit puts the construction in (depth.cor3.8)",
    "class_c": "nilpotency class c of the target",
    "class_verdict": "the verdict of the row's layer class (SPEC §3: a verdict per class)",
    "sub_verdict": "the verdict of the row's reading",
    "convention": "the product convention (`AY`: Y′ = AY, `YA`: Y′ = YA; `left`/`right` for word problems)",
    "coupling": "how a layer's transition depends on the layer below (`linear` or `polynomial`)",
    "layer_class": "`abelian` (commuting transitions, no bias) or `restricted` (diagonal plus input bias)",
    "layers": "number of layers of the construction",
    "layer_dims": "state dimension of each layer of the cascade",
    "target": "the target system the model must track",
    "word": "a word over the alphabet (a token sequence)",
    "words": "number of words checked",
    "start": "the start vector of the rotation task",
    "schedule": "the learning-rate / EMA schedule of the stream",
    "state_dim": "dimension of the construction's state",
    "verdict_at_d": "the verdict the rule gives at head width d alone",
    # --- Lie algebras, groups
    "derived_length": "least k with g^(k) = 0 (`None`: not solvable), SPEC §2",
    "derived_series": "dimensions (orders) of the derived series g, [g,g], …",
    "derived_dims": "dimensions of the derived series",
    "nilpotency_class": "least c with γ_(c+1) = 0 (`None`: not nilpotent), SPEC §2",
    "nilpotent": "the group / algebra is nilpotent",
    "solvable": "the group / algebra is solvable",
    "not_solvable": "the derived series stabilises at a non-zero term",
    "perfect": "the group equals its commutator subgroup",
    "center": "order of the centre",
    "element_orders": "element order: number of elements of that order",
    "table_valid": "the Cayley table is a group table (identity, inverses, associativity)",
    "identified_with_reference": "isomorphic to the reference group (sympy / GAP)",
    "isomorphic_to": "the named groups the recovered group is isomorphic to",
    "isomorphic_to_claimed": "the recovered group is isomorphic to the group the task names",
    "oracle_derived_length": "the derived length computed by the independent oracle",
    "oracle_derived_series": "the derived series computed by the independent oracle",
    "oracle_nilpotency_class": "the nilpotency class computed by the independent oracle",
    "graded": "dimensions of the graded pieces (degree 1, 2, …)",
    "witt": "Witt's formula: the number of Lyndon words of length m over n letters",
    "witt_sum": "sum of Witt's numbers up to the class (the dimension of the free nilpotent algebra)",
    "m_dim_L_m": "m·dim L_m(n) = m·Witt(n, m), exact (the left side of the counting step of depth.cor3.8's certificate)",
    "n^m": "n^m, the number of words of length m over n letters (the right side of that step)",
    "primitive_words": "the number of primitive words (not a power u^k, k ≥ 2) of length m over n letters, by enumeration (`none` when n^m > 65,536)",
    "counts_primitive_words": "the enumerated count of primitive words equals m·dim L_m (`none` when not enumerated)",
    "dim_N": "dim N(n, T) = Σ_(m≤T) Witt(n, m): the number of Lie-algebra coordinates of the class-T free-nilpotent truncation on n letters (exact)",
    "dim_N(n,c)": "dim N(n, c) = Σ_(m≤c) Witt(n, m) at the class c the built cascade realises",
    "lyndon_words": "number of Lyndon words enumerated",
    "lyndon_count": "number of Lyndon words of the length",
    "nonzero": "number of non-zero coefficients",
    "common_denominator": "least common denominator of the coefficients of that degree",
    "module_dim": "dimension of the module U(g)·h0 generated from the initial state",
    "h0": "the initial state",
    "pair": "the pair of generators (matrices) of the row",
    "algebra_abelian": "the generated Lie algebra is abelian",
    "algebra_dim": "dimension of the generated Lie algebra",
    "restricted_algebra_abelian": "the algebra restricted to the orbit of h0 is abelian",
    "flow": "the target's token maps are exp(A_x) of generators A_x (a flow of h′ = A(x)h); False for a discrete system (the S3 permutation matrices)",
    "determinants": "the distinct determinants of the target's token maps (exact; `E` is Euler's e; −1 rules out a flow)",
    "witness": "the two-letter words xy / yx (equal letter counts; the first letter acts first) on which the target's maps differ most",
    "difference": "Φ_xy − Φ_yx of the witness pair, exact, rows separated by `;` (left action: Φ_xy = M_y M_x)",
    "lower_bound": "½‖Φ_xy − Φ_yx‖₂ (spectral norm, float64): every restricted layer with a linear readout errs by at least this on xy or yx, from h or −h for some unit h",
    "commutator_on_h0_zero": "every commutator annihilates h0 (the order of inputs is invisible from h0)",
    "n_separating_pairs": "number of word pairs (xy vs yx) the system tells apart",
    "lower": "proven lower bound on the derived length",
    "upper": "proven upper bound on the derived length",
    "finite": "the generated algebra is finite-dimensional within the cap",
    "max_derived_length": "largest derived length found",
    "witness_sizes": "dimensions of the derived-series terms of the witness",
    "ambient_derived_length": "derived length of the algebra the cascade lives in",
    "algebra": "the Lie algebra of the row (`N(d,k)`: de Graaf's nilpotent algebra N_(d,k); `b(n)`: upper triangular n×n; `n(4)`: strictly upper triangular 4×4; `gl`, `sl`, `sl(2) ⋉ Q^2`)",
    "arithmetic": "how the row's run is computed: exactly in the BCH group (nilpotent algebras) or in mpmath at 50 digits (matrix exponentials)",
    "tracked": "the cascade of `layers` abelian layers reproduced the target e^(X_T)⋯e^(X_1) on every word: exactly (max_error 0), or within 1e-30 in mpmath",
    "fewer_layers_error": "largest distance (largest coordinate, or matrix entry, of the difference) between the target and the output map of the first k − 1 layers only, over the words",
    "levi_dim": "dimension of the Levi factor of the non-solvable algebra (exact Levi decomposition)",
    "levi_semisimple": "the Levi factor is semisimple (exact)",
    "radical_dim": "dimension of the solvable radical (exact Levi decomposition)",
    "stable_dim": "dimension of g^(∞), the non-zero perfect term at which the derived series stabilises",
    "max_residual": "largest distance from the identity (largest matrix entry of the difference, mpmath) of the residual left in G^(∞) above the top abelian layer, over the steps of every word",
    "reached": "the residual vanished (≤ 1e-30) on every word: a finite abelian cascade reached the non-solvable algebra (would refute)",
    "translations": "each layer's update is a translation by a function of the token and the lower layers",
    "exact_group_element": "the cascade's state encodes the free-nilpotent group element exactly",
    "n_letters": "size of the alphabet",
    "c_k(n)": "the largest nilpotency class a k-layer cascade reaches over n letters",
    "c*(T)": "the least class that separates all words of length T",
    "from c_k(n)": "the depth implied by c_k(n)",
    "ceil(log2 T)": "⌈log₂ T⌉",
    "ceil(log2 T)+1": "⌈log₂ T⌉ + 1 (the stated depth)",
    "ceil(log2(c+1))": "⌈log₂(c + 1)⌉",
    "floor(log2 T)+1": "⌊log₂ T⌋ + 1",
    "k+1": "the exponent k + 1 (one reading of Corollary 3.6)",
    "k+1: bound/tight": "whether k + 1 is a bound only or is attained (tight)",
    "2^(k-1)+1": "the exponent 2^(k−1) + 1 (the other reading of Corollary 3.6)",
    "2^(k-1)+1: bound/tight": "whether 2^(k−1) + 1 is a bound only or is attained (tight)",
    "c_k(n)+1 (class-maximal cascade)": "the local-error exponent c_k(n) + 1 of the class-maximal (polynomial-coupling) k-layer cascade on n letters; c_k(n) computed exactly on min(n, 3) letters (n = 2: 2, 5, 10; n ≥ 3: 2^k, i.e. 2, 4, 8 at k = 1, 2, 3)",
    "c_k(60)+1 (class-maximal cascade)": "the same exponent for the 60 letters of the ε-scaled rotation task: c_k(60) + 1 = c_k(3) + 1 = 2^k (2, 4, 8 at k = 1, 2, 3)",
    "k+1 vs 2^(k-1)+1": "whether the two stated exponents coincide at this k (`equal` at k = 1, 2) or not (`differ`)",
    "least_depth": "the least depth that separates all words (exact)",
    "lower_depth": "the proven lower bound on that depth",
    "nilpotent_construction_depth": "the depth of the free-nilpotent construction",
    "witness_at_c*-1": "two words the class c* − 1 cannot tell apart",
    "distinct_states": "number of distinct final states over all words",
    "separates_all": "every word reaches its own state",
    "max_state_bits": "bits of the largest state (the precision the construction needs)",
    "cascade_bits": "bits of the largest layer-1 state of the two-layer cascade over all words of length ≤ T (the exact precision that construction needs at this T)",
    "float64_distinct_states": "number of distinct final states when the two-layer cascade runs in float64 (a state beyond the float range becomes inf)",
    "float64_separates_all": "the two-layer cascade run in float64 still gives every word of length ≤ T its own state",
    "cyclic_counters": "orders of the cyclic counters of each layer",
    "certified_min_layers": "a proven lower bound on the layers of any cascade of finite abelian counters tracking the group: its derived length (the transition group lies in an iterated wreath product of abelian groups)",
    "state_tuples": "number of reachable state tuples",
    "all_lengths_by_induction": "correct at every length (an inductive certificate), not only the words enumerated",
    "all_words_len": "length up to which all words were enumerated",
    "all_words_ok": "correct on every enumerated word",
    "n_all_words": "number of enumerated words",
    "random_words": "random words checked (count × length)",
    "random_ok": "correct on every random word",
    "right_convention_ok": "also correct under the right product convention",
    # --- BCH / Magnus / error exponents
    "norm_Omega2": "‖Ω₂‖, the norm of the second Magnus term (commutator mass)",
    "norm_Omega2_h0": "‖Ω₂ h0‖, the second Magnus term applied to h0",
    "eps2_norm_Omega2": "ε²‖Ω₂‖, the stated lower bound",
    "bound_fails": "instances where the stated bound fails",
    "words_with_mass": "words with non-zero commutator mass",
    "words_exact_with_mass": "words with commutator mass that the model still tracks exactly (a counterexample to the bound)",
    "above": "the model's error is above the bound",
    "bound_eps_0.01": "the bound at ε = 0.01",
    "bound_over_eps2": "bound / ε² (constant when the bound is ε²‖Ω₂h0‖)",
    "bound_slope_in_eps": "fitted exponent of the bound in ε",
    "variant_slope": "fitted exponent of the wrong variant",
    "term": "the general Magnus term compared: product convention and order m (e.g. `AY: Ω2`)",
    # --- trained / precision runs
    "heldout_rms": "RMS error on held-out words",
    "train_rms": "RMS error on the training words",
    "doubling_change": "relative change of the held-out error when the optimiser budget is doubled (certified below 5%)",
    "gn_gain": "the fraction by which one Gauss–Newton step could still lower the training loss (stationary below 2%)",
    "grad_norm": "norm of the final gradient",
    "ratio_abelian": "held-out error / the exact best abelian predictor's (1 = at the floor)",
    "ratio_magnus2": "held-out error / the exact order-2 Magnus predictor's",
    "best_abelian_mean_ratio": "mean held-out error / the best abelian predictor's",
    "class_gap": "largest ‖f(x) − f(x̄)‖ of a word and its reversal (0 for an order-free model)",
    "frac_pairs_above": "fraction of (word, reversal) pairs whose error is above the bound",
    "mean_bound": "mean of the bound ½‖(Φx − Φx̄)h0‖ over the pairs",
    "mean_pair_error": "mean of (e_x + e_x̄)/2 over the pairs",
    "n_pairs": "number of pairs checked",
    "final_loss": "training loss at the last step",
    "mse": "mean squared error on held-out data",
    "max_len_90": "longest prefix length with ≥ 90% held-out sequence accuracy",
    "seq_acc_2T": "held-out sequence accuracy at length 2T",
    "acc_at_T": "held-out sequence accuracy at the training length",
    "acc at 2T": "held-out sequence accuracy at length 2T (the test length) of the run",
    "acc. at 2T per seed": "held-out sequence accuracy at length 2T, one value per seed",
    "seeds solving (acc. at 2T ≥ 0.9)": "how many seeds reach ≥ 90% sequence accuracy at 2T",
    "rate [Wilson 95%]": "success rate over seeds with its Wilson 95% interval",
    "train length T": "training sequence length T (held-out words are 2T long)",
    "train_length": "training sequence length T",
    "test_length": "held-out sequence length (2T unless stated)",
    "1T": "held-out sequence accuracy at the training length T",
    "2T": "held-out sequence accuracy at 2T",
    "8T": "held-out sequence accuracy at 8T",
    "16T": "held-out sequence accuracy at 16T",
    "true_length": "the true length of the sequence",
    "reported_tokens": "the length the released code reports",
    "reported": "what the released code reports",
    "tokens_right": "tokens right before the first error",
    "n_train": "number of training words",
    "n_test": "number of held-out words",
    "train_true": "training accuracy of the true group model",
    "heldout_true": "held-out accuracy of the true group model",
    "train_memoriser": "training accuracy of a memoriser (a lookup table of the training words)",
    "heldout_memoriser": "held-out accuracy of the memoriser",
    "expected_heldout_memoriser": "the memoriser's held-out accuracy expected by chance",
    "expected_heldout_memoriser_50_digits": "the same, in 50-digit arithmetic",
    # --- the inspector (learned characters)
    "inspected": "the run's model could be read by the inspector",
    "channel": "the state channel the inspector reports (its best homomorphic character)",
    "character_channels": "channels carrying a non-trivial homomorphic character / channels",
    "homomorphism": "the channel's token grouping respects every product of the group (`yes`), or the fraction of products it respects",
    "factors_through_abelianisation": "the character's kernel contains the derived subgroup G′ (it reads G/G′)",
    "max_abs_delta_over_pi": "largest |δ|/π: the learned phase's distance to the nearest root of unity, in units of π",
    "exponent": "the group's exponent (orders of roots of unity a character can use)",
    "ch": "state channel index",
    "phases/π": "the learned transition phase of each token, in units of π",
    "max|δ|/π": "largest distance of a learned phase to the nearest root of unity, in units of π",
    "min|λ|": "smallest modulus of a learned transition eigenvalue (< 1: the state decays)",
    "ctx/π": "spread of a token's phase over random contexts (0 when transitions depend on the token alone), in units of π",
    "character k: tokens": "tokens grouped by the root index k ∈ Z/exponent their phase is nearest",
    "hom": "`yes` when the grouping is a homomorphism of the group, else the fraction of products respected",
    "⊇next": "the character's kernel contains the next derived subgroup G^(i) (the layer reads the abelian quotient)",
    "horizon": "predicted length at which n·δ or the modulus decay crosses the decision margin π/m",
    "character_status": "what the inspector says of layer 1: `found` (it reads a character), `none exists` (the tested group is perfect: no non-trivial character, e.g. A5) or `cannot tell` (none read; a code its tests do not cover may be present; never \"absent\")",
    "character": "inspector table: the reported layer-1 character (the one behind the prediction, e.g. `channel 3` or `channels 1 − 4 up to a common offset …`), else the channel closest to one, marked `(closest, no character)`; finding.phase_horizon's runs: the kinds of the layer-1 characters read (`–`: none)",
    "characters": "the kind of each layer-1 character the inspector read (`channel`; `offset`: one channel up to a common phase offset; `relative` / `product`: the phase difference / sum of two channels; `–`: none)",
    "characters_found": "the layer-1 characters read, counted by kind (e.g. `2 channel, 1 relative`; `0`: none)",
    "token_collisions": "number of token pairs whose layer-1 maps (every channel's λ and, for restricted layers, the input bias) agree within a relative 1e-6: tokens layer 1 cannot tell apart",
    "token collisions": "number of token pairs with one layer-1 map (as `token_collisions`)",
    "runs": "number of the task's runs (every seed of both blocks)",
    "usable": "runs with a finite prediction whose measurement decides the factor-2 test (uncensored, or censored and certainly beyond the factor), both blocks",
    "layer classes": "the layer classes of the task's uncensored runs with a prediction",
    "geometric-mean ratio": "geometric mean of (measured + 1)/(predicted + 1) over the task's uncensored runs with a prediction (1: on target; descriptive, not part of the rule)",
    "ratio quartiles": "lower and upper quartiles of (measured + 1)/(predicted + 1) over the same runs",
    "spearman rho": "Spearman's ρ of predicted against measured over the same runs (midranks; given with ≥ 4 runs and both varying; descriptive)",
    "one-sided p": "one-sided permutation p of that ρ, P(ρ* ≥ ρ) over re-pairings (exact for n ≤ 9, else 400,000 seeded random pairings)",
    # --- [HEAD]
    "D(S)": "row diameter of the head update S: the largest distance between two rows",
    "D(S_RN)": "row diameter of the RowNorm update",
    "min separation": "the smallest distance min_(i<j) ‖s_i − s_j‖ between two rows of the update S found",
    "min/max": "min separation / D(S): the smallest over the largest row distance (1: equidistant)",
    "max |1ᵀS|": "largest absolute column sum of S (0 for a centred update, 1ᵀS = 0; float64 rounding)",
    "method": "how S was found: the regular simplex (exact construction) for V ≤ d + 1, else the best of several SLSQP starts (a lower bound on the optimum, not a certificate)",
    "row": "row index i of S (0-based)",
    "s_1": "first coordinate of row s_i of the update S shown (at (V, d) = (5, 2), η = 1)",
    "s_2": "second coordinate of row s_i of the update S shown",
    "min of branches, tanh(δ/4)": "‖Δg‖₂ / the first form of [HEAD] App. C, min{D(S)(1 − q_c) + D(U) tanh(δ/4), D(S)(1 − p_c) + D(U+S) tanh(δ/4)}, δ = 𝓗(q, p) (≤ 1: the bound holds; 1: tight)",
    "min of branches, TV": "‖Δg‖₂ / the package's intermediate form, the same minimum with TV(q, p) in place of tanh(δ/4) (reported, not part of the verdict)",
    "D(S) + D_min·tanh(D(S)‖h‖/4)": "‖Δg‖₂ / the second form, D(S) + D_min tanh(D(S)‖h‖₂/4), D_min = min(D(U), D(U+S))",
    "η(1 + H·D_min/4)": "‖Δg‖₂ / the third form, η(1 + H·D_min/4), for D(S) ≤ η and ‖h‖₂ ≤ H",
    "<G,S_RN>": "⟨G, S_RN⟩, the first-order change of the loss along the RowNorm update",
    "-Delta_RN": "the value [HEAD] states for that change (its closed form)",
    "socp_optimum": "optimum of the second-order cone program (the exact oracle)",
    "primal": "optimal value of the primal problem",
    "tension": "optimal value of the dual (minimum tension) problem",
    "claimed_dual": "the dual value as [HEAD] states it",
    "rel_gap": "relative gap between the primal value and the stated dual",
    "claimed": "the value [HEAD] states",
    "claimed_equidistant": "the number of equidistant points [HEAD] states",
    "equidistant": "the points are equidistant (exactly)",
    "max_equidistant_points": "largest number of equidistant points found in dimension d",
    "simplex_bound": "the bound from the regular simplex",
    "simplex_exact": "the simplex construction is exact",
    "rankin_bound": "Rankin's bound",
    "gram_rank_at_d+2": "rank of the Gram matrix of d + 2 points (≤ d + 1 rules them out)",
    "op_norm": "operator (spectral) norm of the update",
    "op_norm_sq": "its square",
    "stated_op_norm_sq": "the squared operator norm [HEAD] states",
    "rows_equal": "all rows of the update are equal (a common shift)",
    "output_change_zero": "the update leaves every softmax output unchanged",
    "max_hilbert_change_unit_h": "largest Hilbert-metric change of the outputs per unit update",
    "gram_rank": "rank of the Gram matrix",
    "u_dependent_bound": "the bound with its dependence on the head U kept",
    "change": "the measured change of the outputs",
    "closed_form": "the closed-form value",
    "eta_ratio": "ratio of the step sizes",
    "max_D_over_gamma": "largest D(S_t)/γ_t over the stream (stated bound: 2)",
    "ulp_ratio": "float64 rounding relative to the value (units in the last place)",
    "final_D": "row diameter D(S_T) of the update at the final step",
    "final_hilbert_rms": "RMS Hilbert-metric change of the outputs at the final step",
    "val_loss": "validation loss",
    "val_loss_diff": "validation loss of RowNorm − that of AdamW",
    "identity_err_max": "largest error of the row-diameter identity over the recorded steps",
    "D_ratio": "final-step diameter of AdamW / of RowNorm",
    "H_ratio": "final-step Hilbert RMS of AdamW / of RowNorm",
    "D_interval": "95% interval of D_ratio over seeds",
    "H_interval": "95% interval of H_ratio over seeds",
    "D_ratio/sqrt(d)": "D_ratio divided by √d (constant under the √d width law)",
    "AdamW_D/(2ηf√d)": "AdamW's final diameter / (2 × its step × the schedule factor × √d)",
    "RN_D/(2ηf)": "RowNorm's final diameter / (2 × its step × the schedule factor)",
    "lr_AdamW": "peak learning rate of the AdamW head at this width (published: 4.0e-3 / 2.667e-3 / 2.0e-3 at d = 512 / 768 / 1024; else 2.048/d)",
    "lr_RowNorm": "peak learning rate of the RowNorm head (lr_AdamW / 1.25, as published)",
    "D_ratio/√d": "D_ratio divided by √d (constant under the √d width law; [HEAD]'s own: 1.99, 1.96, 1.86 at d = 512 / 768 / 1024)",
    "c_R = RN D/(2ηf)": "c_R: RowNorm's final-step diameter / (2 η_R f), f the schedule's factor at the final step, mean over seeds (1 when the diameter pair's rows point in opposite directions)",
    "c_A = AdamW D/(2ηf√d)": "c_A: AdamW's final-step diameter / (2 η_A f √d), mean over seeds (1 when the pair's update entries are ±η_A f, sign-like)",
    "paper_c_R": "c_R from [HEAD]'s own table at that width (f = 0.1; `—`: no paper width)",
    "paper_c_A": "c_A from [HEAD]'s own table at that width (f = 0.1; `—`: no paper width)",
    "paper_D": "the diameter ratio [HEAD] reports at that width",
    "paper_D/measured": "[HEAD]'s diameter ratio / the measured D_ratio at that width (`—`: no paper width)",
    "paper_H": "the Hilbert RMS ratio [HEAD] reports at that width",
    "direct_at_d": "the measured ratio is within a factor 2 of the paper's at this width",
    "rownorm_smaller_every_measurement": "RowNorm's diameter and Hilbert RMS are below AdamW's at every recorded step",
    # --- audits
    "map": "which map (the released code's or the package's) and which composition convention",
    "domain": "the number field of the exact computation",
    "n_distinct": "number of distinct matrices the map produces",
    "n_respected": "products g·h the map respects",
    "fraction_respected": "fraction of products respected (1 for a homomorphism)",
    "kernel_order": "order of the kernel of the map",
    "is_homomorphism": "the map respects every product",
    "failing_example": "two elements whose product the map does not respect (and the images)",
    "distinct_matrices": "number of distinct rotation matrices",
    "orbit_points": "number of distinct points of the start vector's orbit",
    "closed": "the orbit is closed under the group action",
    "ratio_at_max_T": "state dimension / (n^T / T) at the largest T",
}


def glossary_rows(columns: set[str] | list[str]) -> list[dict[str, str]]:
    """The glossary table of the terms ``columns`` (``{"term", "meaning"}`` rows, sorted
    case-insensitively); a term :data:`TERMS` does not define reads "not defined (a gap of
    proofs_checks/glossary.py)"."""
    return [{"term": f"`{t}`", "meaning": TERMS.get(t, "not defined (a gap of "
                                                         "proofs_checks/glossary.py)")}
            for t in sorted(set(columns), key=lambda s: (s.lower(), s))]


def undefined_terms(columns: set[str] | list[str]) -> list[str]:
    """The terms of ``columns`` that :data:`TERMS` does not define, sorted."""
    return sorted(set(columns) - set(TERMS))
