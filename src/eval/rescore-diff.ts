// What changed when a finished run was judged again (`rubrica rescore`, issue 37): the mean
// reward before and after, the shift per prompt, the rank correlation inside each GRPO group
// (Kendall τ-b of old against new rewards), and how many GRPO advantages change sign — the
// number that says whether the new judge would have trained the policy differently.
//
// Only rollouts measured in both runs (status ok before and after) are compared; the rest
// are counted. Advantages are verl's (reward/grpo.ts), computed inside each group over the
// rollouts compared. A sign flip is a positive advantage turned negative or back; an
// advantage that becomes or stops being 0 (a flat group) is counted apart, since it neither
// pushes the policy one way nor the other.
import { groupKey } from '../core/group-key.ts';
import { groupAdvantages } from '../reward/grpo.ts';

/** One rollout's two verdicts. */
export interface RescorePair {
  id: string;
  prompt_id?: string | null;
  prompt?: string | null;
  old: { reward: number; status: string };
  fresh: { reward: number; status: string };
}

export interface PromptShift {
  prompt: string;
  n: number;
  mean_old: number;
  mean_new: number;
  shift: number;
  /** Kendall τ-b of old against new rewards inside the group; null under 2 rollouts or no order. */
  kendall_tau: number | null;
  sign_flips: number;
}

export interface RescoreDiff {
  rollouts: number;
  /** Rollouts measured (status ok) in both runs, the ones compared. */
  compared: number;
  /** Measured before, not now (a fault or unscoreable in the new run), and the reverse. */
  lost: number;
  gained: number;
  mean_old: number;
  mean_new: number;
  mean_shift: number;
  /** Mean over groups of 2 or more of Kendall τ-b inside the group. */
  mean_kendall_tau: number | null;
  /** Advantages whose sign changed (+ to − or − to +), out of `compared`. */
  sign_flips: number;
  /** Advantages that became 0 or stopped being 0. */
  zero_changes: number;
  prompts: PromptShift[];
}

/** Kendall τ-b: (concordant − discordant) / √((n₀ − ties in x)(n₀ − ties in y)). */
export function kendallTauB(x: readonly number[], y: readonly number[]): number | null {
  let c = 0;
  let d = 0;
  let tx = 0;
  let ty = 0;
  let n0 = 0;
  for (let i = 0; i < x.length; i++)
    for (let j = i + 1; j < x.length; j++) {
      n0++;
      const a = Math.sign(x[i]! - x[j]!);
      const b = Math.sign(y[i]! - y[j]!);
      if (a === 0) tx++;
      if (b === 0) ty++;
      if (a * b > 0) c++;
      else if (a * b < 0) d++;
    }
  const den = Math.sqrt((n0 - tx) * (n0 - ty));
  return den === 0 ? null : (c - d) / den;
}

const mean = (xs: readonly number[]) =>
  xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;

/** The diff of two runs' verdicts on the same rollouts. */
export function rescoreDiff(pairs: readonly RescorePair[]): RescoreDiff {
  const both = pairs.filter((p) => p.old.status === 'ok' && p.fresh.status === 'ok');
  const groups = new Map<string, RescorePair[]>();
  for (const p of both) {
    const key = groupKey(p);
    const g = groups.get(key);
    if (g) g.push(p);
    else groups.set(key, [p]);
  }
  const prompts: PromptShift[] = [];
  let flips = 0;
  let zeros = 0;
  const taus: number[] = [];
  for (const [prompt, g] of groups) {
    const o = g.map((p) => p.old.reward);
    const f = g.map((p) => p.fresh.reward);
    const ao = groupAdvantages(o);
    const af = groupAdvantages(f);
    let groupFlips = 0;
    for (let k = 0; k < g.length; k++) {
      const so = Math.sign(ao[k]!);
      const sf = Math.sign(af[k]!);
      if (so * sf < 0) groupFlips++;
      else if (so !== sf) zeros++;
    }
    flips += groupFlips;
    const tau = g.length >= 2 ? kendallTauB(o, f) : null;
    if (tau !== null) taus.push(tau);
    prompts.push({
      prompt,
      n: g.length,
      mean_old: mean(o),
      mean_new: mean(f),
      shift: mean(f) - mean(o),
      kendall_tau: tau,
      sign_flips: groupFlips,
    });
  }
  const mo = mean(both.map((p) => p.old.reward));
  const mf = mean(both.map((p) => p.fresh.reward));
  return {
    rollouts: pairs.length,
    compared: both.length,
    lost: pairs.filter((p) => p.old.status === 'ok' && p.fresh.status !== 'ok').length,
    gained: pairs.filter((p) => p.old.status !== 'ok' && p.fresh.status === 'ok').length,
    mean_old: mo,
    mean_new: mf,
    mean_shift: mf - mo,
    mean_kendall_tau: taus.length ? mean(taus) : null,
    sign_flips: flips,
    zero_changes: zeros,
    prompts,
  };
}

const f3 = (x: number | null) => (x === null || Number.isNaN(x) ? '—' : x.toFixed(3));

/** The diff as text: the totals, then the prompts that moved most. */
export function formatRescoreDiff(d: RescoreDiff, maxPrompts = 20): string {
  const lines = [
    `rescore: ${d.compared} of ${d.rollouts} rollouts measured in both runs (${d.lost} lost, ${d.gained} gained)`,
    `  mean reward        ${f3(d.mean_old)} → ${f3(d.mean_new)} (shift ${d.mean_shift >= 0 ? '+' : ''}${f3(d.mean_shift)})`,
    `  rank inside groups mean Kendall τ-b ${f3(d.mean_kendall_tau)} over ${d.prompts.filter((p) => p.kendall_tau !== null).length} groups`,
    `  GRPO advantages    ${d.sign_flips} of ${d.compared} change sign; ${d.zero_changes} become or stop being 0`,
  ];
  const moved = [...d.prompts].sort((a, b) => Math.abs(b.shift) - Math.abs(a.shift));
  if (moved.length)
    lines.push('  per prompt (largest shift first): prompt  n  old → new  τ-b  flips');
  for (const p of moved.slice(0, maxPrompts))
    lines.push(
      `    ${p.prompt}  ${p.n}  ${f3(p.mean_old)} → ${f3(p.mean_new)}  ${f3(p.kendall_tau)}  ${p.sign_flips}`,
    );
  if (moved.length > maxPrompts)
    lines.push(`    … ${moved.length - maxPrompts} more (--json lists all)`);
  return lines.join('\n');
}
