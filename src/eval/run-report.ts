// Turns a finished run (records + summary.json) into report.html: headline tiles in the
// paper's terms, the run's settings and model usage, a notice when the judge was down.
import { writeFile } from 'node:fs/promises';
import { parseModelSpec } from '../models/spec.ts';
import { type HeadlineMetric, renderReport } from './report/report.ts';
import { loadThumbnails } from './report/thumbnails.ts';
import type { PromptLine } from './run-inputs.ts';
import { judgeNotice } from './run-judge.ts';
import type { RewardSummary, ScoreEstimate } from './summary.ts';
import type { EvalSummaryFile } from './summary-file.ts';
import type { EvalRecord } from './types.ts';

const f3 = (v: number | null | undefined) => (v === null || v === undefined ? '–' : v.toFixed(3));
const pct = (v: number | null | undefined) =>
  v === null || v === undefined ? '–' : `${(v * 100).toFixed(1)}%`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * A score tile that never claims more than was measured: "not judged" when no judge scored
 * anything, the bare mean with "n too small" when too few prompts back an interval, and
 * always the n behind the figure.
 */
function scoreTile(label: string, e: ScoreEstimate, r: RewardSummary, extra = ''): HeadlineMetric {
  if (r.judged === 0 && r.not_judged > 0)
    return {
      label,
      value: 'not judged',
      hint: `0 of ${r.n} judged (${r.not_judged} not judged, ${r.n - r.not_judged} failed before judging)`,
    };
  const n = `n = ${plural(e.n, 'sample')} over ${plural(e.prompts, 'prompt')}`;
  if (e.estimate === null) return { label, value: '–', hint: `${n}: nothing to average` };
  const interval =
    e.low === null || e.high === null ? (e.note ?? 'no CI') : `95% CI ${f3(e.low)}–${f3(e.high)}`;
  return { label, value: f3(e.estimate), hint: `${interval}; ${n}${extra}` };
}

function rewardTiles(kind: string, r: RewardSummary, primary: boolean): HeadlineMetric[] {
  const tiles: HeadlineMetric[] = [
    scoreTile(`${kind} score · rendered`, r.score_rendered, r),
    scoreTile(`${kind} score · all samples`, r.score_all, r, '; failures count 0'),
  ];
  const iv = r.judge_intervals;
  if (iv) {
    // The judge's own uncertainty next to the score it qualifies (issue 37).
    const level = iv.level === null ? 'mixed levels' : `${Math.round(iv.level * 100)}%`;
    const used = Object.entries(iv.scoring)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    tiles.push({
      label: `${kind} judge interval width`,
      value: f3(iv.width),
      hint: `mean [${f3(iv.lo)}, ${f3(iv.hi)}] at ${level}; median ${f3(iv.median_width)}; n = ${iv.n} (${used})`,
    });
  }
  if (r.not_judged > 0) {
    tiles.push({
      label: `${kind} not judged`,
      value: `${r.not_judged} of ${r.n}`,
      hint:
        Object.entries(r.grader_errors)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ') || 'grader errors',
    });
  }
  if (!primary) return tiles;
  const unscoreable = Object.values(r.unscoreable).reduce((a, b) => a + b, 0);
  const t = r.output_tokens;
  const counts = r.hacking_counts;
  tiles.unshift({
    label: 'render success',
    value: pct(r.render_success_rate),
    hint: `${r.rendered} of ${r.n} rendered`,
  });
  tiles.push(
    {
      label: 'output tokens',
      value: t.mean === null ? '–' : Math.round(t.mean).toString(),
      hint: `mean of n = ${t.n}; p90 ${t.p90 === null ? '–' : Math.round(t.p90)}`,
    },
    {
      label: 'gated',
      value: `${Object.values(r.gated ?? {}).reduce((a, b) => a + b, 0)} of ${r.n}`,
      hint:
        Object.entries(r.gated ?? {})
          .map(([k, n]) => `${k} ${n}`)
          .join(', ') || 'none (reward 0 by a gated check, no judge call)',
    },
    {
      label: 'failed before judging',
      value: `${unscoreable} of ${r.n}`,
      hint:
        Object.entries(r.unscoreable)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ') || 'none',
    },
    {
      label: 'text in image',
      value: pct(r.hacking.text_in_image),
      hint: `${counts.text_in_image} of ${r.rendered} rendered (reward-hack monitor)`,
    },
    {
      label: 'clutter',
      value: pct(r.hacking.clutter),
      hint: `${counts.clutter} of ${r.rendered} rendered (reward-hack monitor)`,
    },
    {
      label: 'text for the judge',
      value: pct(r.hacking.judge_text ?? null),
      hint: `${counts.judge_text ?? 0} of ${r.rendered} rendered (judge_text: verdicts, instructions, markers)`,
    },
  );
  if (r.dwt.applicable)
    tiles.push({
      label: 'DwT coverage',
      value: pct(r.dwt.coverage),
      hint: `${r.dwt.valid} of ${r.n} structurally valid`,
    });
  return tiles;
}

export interface RunReportInput {
  dir: string;
  file: string;
  records: EvalRecord[];
  prompts: readonly PromptLine[];
  summary: EvalSummaryFile;
  notices: string[];
}

/** The headline tiles of a run: per reward kind (primary first), then the judge's calls. */
export function headlineTiles(
  summary: Pick<EvalSummaryFile, 'kinds' | 'rewards' | 'usage'>,
): HeadlineMetric[] {
  const headline = summary.kinds.flatMap((k, i) => {
    const r = summary.rewards[k];
    return r ? rewardTiles(k, r, i === 0) : [];
  });
  const cost = summary.usage.judge.costUsd;
  headline.push({
    label: 'judge calls',
    value: String(summary.usage.judge.calls),
    hint: cost === null ? 'cost unknown (no price for this model)' : `$${cost.toFixed(4)}`,
  });
  return headline;
}

export async function writeRunReport(input: RunReportInput): Promise<void> {
  const { summary } = input;
  const headline = headlineTiles(summary);
  const notices = [...input.notices];
  if (summary.judge.probe && !summary.judge.probe.reachable) {
    notices.unshift(judgeNotice(parseModelSpec(summary.judge.spec), summary.judge.probe));
  }
  const usage = [{ role: 'judge', model: summary.judge.spec, usage: summary.usage.judge }];
  if (summary.usage.policy) usage.unshift({ role: 'policy', ...summary.usage.policy });
  const html = await renderReport({
    title: summary.run,
    records: input.records,
    prompts: [...input.prompts],
    kinds: summary.kinds,
    images: await loadThumbnails(input.dir, input.records),
    headline,
    settings: {
      run: summary.run,
      judge: summary.judge.spec,
      'judge URL': summary.judge.base_url,
      'judge reachable': summary.judge.reachable,
      rewards: summary.kinds.join(', '),
      rollouts: summary.records,
      prompts: summary.prompts,
      bootstrap: `${summary.bootstrap.resamples} resamples over prompts, seed ${summary.bootstrap.seed}`,
      ...summary.settings,
      // Summed over every invocation (resumes included), from DIR/parts.jsonl.
      'elapsed (s)':
        summary.elapsed_parts > 1
          ? `${(summary.elapsed_ms / 1000).toFixed(1)} over ${summary.elapsed_parts} invocations (last ${(summary.elapsed_last_ms / 1000).toFixed(1)})`
          : (summary.elapsed_ms / 1000).toFixed(1),
    },
    usage,
    notices,
    generatedAt: summary.created_at,
  });
  await writeFile(input.file, html);
}
