// Run summaries: counts by status and reason, tokens and cost. A judge failure is
// counted apart from a bad drawing, so a flaky judge never reads as a weak policy.
import type { ScoreRecord } from '../core/record.ts';
import { isUnjudged } from '../core/status.ts';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';

/** Counts and means over score records, as `rubrica score` prints them at the end. */
export interface ScoreSummary {
  total: number;
  ok: number;
  unscoreable: number;
  /** Rollouts a gated check stopped (status `gated`, issue 41): the policy's 0, no judge call. */
  gated: number;
  /** Gated rollouts by the check that gated them. */
  gatedBy: Record<string, number>;
  /** Unscoreable rollouts by reason (no_svg, parse_error, blank, judge_error, no_rubric, …). */
  byReason: Record<string, number>;
  /** Mean reward over ok records; null when none. */
  meanRewardOk: number | null;
  /** Mean reward over all records except judge_error / no_rubric / scorer_error (not the policy's fault). */
  meanRewardPolicy: number | null;
  cached: number;
  usage: Usage;
}

/**
 * Counts, means and total usage over score records. The policy mean counts rule-based zeros
 * and leaves grader faults out: a judge failure is not a bad drawing.
 */
export function summariseScores(records: Iterable<ScoreRecord>): ScoreSummary {
  const s: ScoreSummary = {
    total: 0,
    ok: 0,
    unscoreable: 0,
    gated: 0,
    gatedBy: {},
    byReason: {},
    meanRewardOk: null,
    meanRewardPolicy: null,
    cached: 0,
    usage: emptyUsage(),
  };
  let okSum = 0;
  let polSum = 0;
  let polN = 0;
  for (const r of records) {
    s.total++;
    s.usage = addUsage(s.usage, r.usage);
    if (r.cached) s.cached++;
    if (r.status === 'ok') {
      s.ok++;
      okSum += r.reward;
    } else if (r.status === 'gated') {
      s.gated++;
      const check = r.reason ?? 'unknown';
      s.gatedBy[check] = (s.gatedBy[check] ?? 0) + 1;
    } else {
      s.unscoreable++;
      const reason = r.reason ?? 'unknown';
      s.byReason[reason] = (s.byReason[reason] ?? 0) + 1;
    }
    // Not the policy's doing (a grader fault, or a prompt with no rubric): left out.
    if (r.status === 'ok' || !isUnjudged(r)) {
      polSum += r.reward;
      polN++;
    }
  }
  s.meanRewardOk = s.ok ? okSum / s.ok : null;
  s.meanRewardPolicy = polN ? polSum / polN : null;
  return s;
}

/** Usage as one line: calls, tokens and cost (or why the cost is unknown). */
export function formatUsage(u: Usage): string {
  const cost =
    u.costUsd === null ? 'cost unknown (no price for a model)' : `$${u.costUsd.toFixed(4)}`;
  return `${u.calls} model calls, ${u.inputTokens} input + ${u.outputTokens} output tokens, ${cost}`;
}

/** A score summary as the lines `rubrica score` prints to stderr. */
export function formatScoreSummary(s: ScoreSummary): string {
  const lines = [
    `scored ${s.total}: ${s.ok} ok, ${s.unscoreable} unscoreable, ${s.gated} gated, ${s.cached} from cache`,
  ];
  const gated = Object.entries(s.gatedBy).sort((a, b) => b[1] - a[1]);
  if (gated.length)
    lines.push(
      `gated by check (reward 0, no judge call): ${gated.map(([k, n]) => `${k} ${n}`).join(', ')}`,
    );
  const reasons = Object.entries(s.byReason).sort((a, b) => b[1] - a[1]);
  if (reasons.length)
    lines.push(`unscoreable by reason: ${reasons.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  if (s.byReason.judge_error) {
    lines.push(`note: ${s.byReason.judge_error} judge errors are judge failures, not bad drawings`);
  }
  if (s.meanRewardOk !== null) lines.push(`mean reward (ok only): ${s.meanRewardOk.toFixed(4)}`);
  if (s.meanRewardPolicy !== null) {
    lines.push(
      `mean reward (policy failures as 0, judge/rubric failures left out): ${s.meanRewardPolicy.toFixed(4)}`,
    );
  }
  lines.push(formatUsage(s.usage));
  return lines.join('\n');
}
