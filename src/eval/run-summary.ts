// summary.json and report.html of an eval run, from its records in input order: written by
// runEval when a run ends, and again by `rubrica merge` from the merged records of a
// sharded run, so both are computed the one way (statistics, bootstrap intervals and health
// over all records, never added up from the shards' summaries).
import { writeFile } from 'node:fs/promises';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import type { AlertThresholds } from '../monitors/alerts.ts';
import { applyAlertThresholds } from '../monitors/eval-health.ts';
import type { PromptLine } from './run-inputs.ts';
import { writeRunReport } from './run-report.ts';
import { summarizeRun } from './summary.ts';
import type { EvalSummaryFile } from './summary-file.ts';
import type { EvalRecord } from './types.ts';

export interface RunSummaryInput {
  dir: string;
  paths: { summary: string; report: string };
  records: EvalRecord[];
  prompts: readonly PromptLine[];
  notices: string[];
  run: string;
  kinds: string[];
  judge: EvalSummaryFile['judge'];
  policy: { model: string; usage: Usage } | null;
  settings: EvalSummaryFile['settings'];
  alerts?: AlertThresholds;
  elapsed: Pick<EvalSummaryFile, 'elapsed_ms' | 'elapsed_parts' | 'elapsed_last_ms'>;
}

/** Summarises the records, writes summary.json and report.html, returns the summary. */
export async function writeEvalSummary(input: RunSummaryInput): Promise<EvalSummaryFile> {
  let judgeUsage = emptyUsage();
  for (const r of input.records)
    for (const s of Object.values(r.scores)) judgeUsage = addUsage(judgeUsage, s.usage);
  const summary: EvalSummaryFile = {
    ...summarizeRun(input.records),
    run: input.run,
    created_at: new Date().toISOString(),
    kinds: input.kinds,
    judge: input.judge,
    usage: { judge: judgeUsage, policy: input.policy },
    settings: input.settings,
    ...input.elapsed,
  };
  if (input.alerts) applyAlertThresholds(summary.rewards, input.alerts);
  await writeFile(input.paths.summary, `${JSON.stringify(summary, null, 2)}\n`);
  await writeRunReport({
    dir: input.dir,
    file: input.paths.report,
    records: input.records,
    prompts: input.prompts,
    summary,
    notices: input.notices,
  });
  return summary;
}
