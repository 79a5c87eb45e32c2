// Turns a finished run (records + summary.json) into report.html: headline tiles in the
// paper's terms, the run's settings and model usage, a notice when the judge was down.
import { writeFile } from 'node:fs/promises';
import { parseModelSpec } from '../models/spec.ts';
import { type HeadlineMetric, renderReport } from './report/report.ts';
import { loadThumbnails } from './report/thumbnails.ts';
import type { EvalSummaryFile } from './run.ts';
import type { PromptLine } from './run-inputs.ts';
import { judgeNotice } from './run-judge.ts';
import type { Interval } from './stats/bootstrap.ts';
import type { RewardSummary } from './summary.ts';
import type { EvalRecord } from './types.ts';

const f3 = (v: number | null | undefined) => (v === null || v === undefined ? '–' : v.toFixed(3));
const pct = (v: number | null | undefined) =>
  v === null || v === undefined ? '–' : `${(v * 100).toFixed(1)}%`;
const ci = (i: Interval) =>
  i.low === null || i.high === null ? 'no CI' : `95% CI ${f3(i.low)}–${f3(i.high)}`;

function rewardTiles(kind: string, r: RewardSummary, primary: boolean): HeadlineMetric[] {
  const graderErrors = Object.values(r.grader_errors).reduce((a, b) => a + b, 0);
  const tiles: HeadlineMetric[] = [
    {
      label: `${kind} score · rendered`,
      value: f3(r.score_rendered.estimate),
      hint: ci(r.score_rendered),
    },
    // With nothing judged, "all samples" would be the failures' zeros alone: say so instead.
    r.score_rendered.estimate === null
      ? { label: `${kind} score · all samples`, value: '–', hint: 'no rollout was judged' }
      : {
          label: `${kind} score · all samples`,
          value: f3(r.score_all.estimate),
          hint: `${ci(r.score_all)}; failures count 0`,
        },
  ];
  if (graderErrors > 0) {
    tiles.push({
      label: `${kind} not judged`,
      value: String(graderErrors),
      hint: `of ${r.n} rollouts`,
    });
  }
  if (!primary) return tiles;
  const unscoreable = Object.values(r.unscoreable).reduce((a, b) => a + b, 0);
  tiles.unshift({
    label: 'render success',
    value: pct(r.render_success_rate),
    hint: `${r.rendered} of ${r.n} rendered`,
  });
  tiles.push(
    {
      label: 'output tokens',
      value: r.output_tokens.mean === null ? '–' : Math.round(r.output_tokens.mean).toString(),
      hint: `mean; p90 ${r.output_tokens.p90 === null ? '–' : Math.round(r.output_tokens.p90)}`,
    },
    {
      label: 'failed before judging',
      value: String(unscoreable),
      hint:
        Object.entries(r.unscoreable)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ') || 'none',
    },
    {
      label: 'text in image',
      value: pct(r.hacking.text_in_image),
      hint: 'of rendered (reward hack monitor)',
    },
    { label: 'clutter', value: pct(r.hacking.clutter), hint: 'of rendered (reward hack monitor)' },
  );
  if (r.dwt.applicable)
    tiles.push({
      label: 'DwT coverage',
      value: pct(r.dwt.coverage),
      hint: `${r.dwt.valid} structurally valid`,
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

export async function writeRunReport(input: RunReportInput): Promise<void> {
  const { summary } = input;
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
      'elapsed (s)': (summary.elapsed_ms / 1000).toFixed(1),
    },
    usage,
    notices,
    generatedAt: summary.created_at,
  });
  await writeFile(input.file, html);
}
