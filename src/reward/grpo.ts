// GRPO group statistics as plain functions, matching verl's `compute_grpo_outcome_advantage`:
// A_i = (R_i − mean) / (std + ε) with torch.std's default, the *sample* (n−1, Bessel-
// corrected) standard deviation; a group of one gets mean 0 and std 1 (verl's rule), so
// its advantage is R/(1+ε). A group whose rewards are all equal gets advantages of 0.
// The dispersion U = mean((R − mean)²) (population variance) is PrismaForge's
// prompt-selection signal: high-U prompts sit at the policy's capability frontier.

/** The ε of GRPO's advantage (R − mean) / (std + ε): keeps a flat group finite. */
export const GRPO_EPSILON = 1e-6;

function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Sample standard deviation (divides by n − 1), as torch.std does by default. */
export function sampleStd(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  let ss = 0;
  for (const x of xs) ss += (x - m) ** 2;
  return Math.sqrt(ss / (xs.length - 1));
}

/**
 * Group-relative advantages of one prompt's rollouts; [] for an empty group.
 * @example
 * ```ts
 * const adv = groupAdvantages([0.2, 0.8, 0.5, 0.5]); // (r − mean) / (std + ε)
 * ```
 */
export function groupAdvantages(rewards: readonly number[], eps = GRPO_EPSILON): number[] {
  if (rewards.length === 0) return [];
  if (rewards.length === 1) return [rewards[0]! / (1 + eps)];
  const m = mean(rewards);
  const sd = sampleStd(rewards);
  return rewards.map((r) => (r - m) / (sd + eps));
}

/** U = (1/K)·Σ(R_k − mean)²; 0 for an empty group. */
export function dispersion(rewards: readonly number[]): number {
  if (rewards.length === 0) return 0;
  const m = mean(rewards);
  let ss = 0;
  for (const r of rewards) ss += (r - m) ** 2;
  return ss / rewards.length;
}
