// Summary of a `rubric synth` run: kept, dropped by reason, tokens and cost.
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import type { RubricRecord } from '../rubric/schema.ts';

export interface SynthSummary {
  total: number;
  kept: number;
  dropped: Record<string, number>;
  /** Mean ideal score over records that reached the judge. */
  meanIdealScore: number | null;
  usage: Usage;
}

export function summariseRubrics(records: Iterable<RubricRecord>): SynthSummary {
  const s: SynthSummary = {
    total: 0,
    kept: 0,
    dropped: {},
    meanIdealScore: null,
    usage: emptyUsage(),
  };
  let sum = 0;
  let n = 0;
  for (const r of records) {
    s.total++;
    s.usage = addUsage(s.usage, r.usage);
    if (r.kept) s.kept++;
    else {
      const why = r.drop_reason ?? 'unknown';
      s.dropped[why] = (s.dropped[why] ?? 0) + 1;
    }
    if (r.ideal_score !== null) {
      sum += r.ideal_score;
      n++;
    }
  }
  s.meanIdealScore = n ? sum / n : null;
  return s;
}

export function formatSynthSummary(s: SynthSummary): string {
  const dropped = Object.entries(s.dropped).sort((a, b) => b[1] - a[1]);
  const cost =
    s.usage.costUsd === null
      ? 'cost unknown (no price for a model)'
      : `$${s.usage.costUsd.toFixed(4)}`;
  const perPrompt =
    s.usage.costUsd !== null && s.total
      ? ` ($${(s.usage.costUsd / s.total).toFixed(4)} a prompt)`
      : '';
  return [
    `rubrics ${s.total}: ${s.kept} kept, ${s.total - s.kept} dropped`,
    ...(dropped.length
      ? [`dropped by reason: ${dropped.map(([k, v]) => `${k} ${v}`).join(', ')}`]
      : []),
    ...(s.meanIdealScore !== null ? [`mean ideal score: ${s.meanIdealScore.toFixed(4)}`] : []),
    `${s.usage.calls} model calls, ${s.usage.inputTokens} input + ${s.usage.outputTokens} output tokens, ${cost}${perPrompt}`,
  ].join('\n');
}
