// Loading an eval run directory for comparison: DIR/results.jsonl (the records) and
// DIR/summary.json (their summary). A missing or stale summary is recomputed from the
// records, so `compare` also works on runs written by older versions or cut short.
import { basename, join } from 'node:path';
import { z } from 'zod';
import { type InputFileCode, readInputTextFile } from '../../core/read-input-text.ts';
import {
  RUN_SUMMARY_SCHEMA,
  type RunSummary,
  type SummaryOptions,
  summarizeRun,
} from '../summary.ts';
import type { EvalRecord } from '../types.ts';
import { type LineIssue, readJsonLines, zodMessage } from './jsonl.ts';

/**
 * An eval run read back from its directory: its records and summary, and the lines that could
 * not be read.
 */
export interface RunDir {
  dir: string;
  /** The run's name: its records' single `run` value, else the directory's name. */
  label: string;
  records: EvalRecord[];
  summary: RunSummary;
  /** Where the summary came from; "recomputed" when summary.json was missing, invalid or stale. */
  summary_source: 'summary.json' | 'recomputed';
  issues: LineIssue[];
}

/** `no_results`: no results.jsonl; an InputFileCode: it is a FIFO, device, … or too large. */
export type RunDirError = { code: 'no_results' | InputFileCode; message: string };

const RecordLine = z.looseObject({
  id: z.string().min(1),
  prompt_id: z.string(),
  run: z.string().optional(),
  scores: z.record(z.string(), z.looseObject({ reward: z.number() })),
});

const SummaryShape = z.looseObject({
  schema: z.literal(RUN_SUMMARY_SCHEMA),
  records: z.number(),
  rewards: z.record(z.string(), z.unknown()),
});

async function readSummary(path: string): Promise<unknown> {
  try {
    const text = await readInputTextFile(path, 64 * 1024 ** 2);
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Reads an eval run directory (results.jsonl + summary.json); a missing, invalid or stale
 * summary is recomputed from the records. A directory without results.jsonl is the value
 * `{code: 'no_results', message}`, not a throw; bad lines are listed in `issues`.
 * @example
 * ```ts
 * const run = await loadRunDir('runs/ruler');
 * if ('records' in run) console.log(run.summary.rewards); else console.error(run.message);
 * ```
 */
export async function loadRunDir(
  dir: string,
  opts: SummaryOptions = {},
): Promise<RunDir | RunDirError> {
  const resultsPath = join(dir, 'results.jsonl');
  let text: string | null;
  try {
    text = await readInputTextFile(resultsPath);
  } catch (err) {
    const code = (err as { code?: InputFileCode }).code ?? 'input_unreadable';
    return { code, message: (err as Error).message };
  }
  if (text === null) return { code: 'no_results', message: `${resultsPath}: no such file` };
  const { lines, issues } = readJsonLines(text, resultsPath);
  const records: EvalRecord[] = [];
  for (const { line, value } of lines) {
    const parsed = RecordLine.safeParse(value);
    if (parsed.success) {
      // Checked: ids and numeric rewards. The rest is read defensively by summarizeRun.
      records.push({ run: '', prompt: '', ...parsed.data } as unknown as EvalRecord);
    } else {
      issues.push({
        file: resultsPath,
        line,
        code: 'bad_shape',
        message: zodMessage(parsed.error),
      });
    }
  }
  issues.sort((a, b) => a.line - b.line);
  const stored = SummaryShape.safeParse(await readSummary(join(dir, 'summary.json')));
  // A summary of a different number of records belongs to another state of the run; one
  // written before `judged` was counted may give a run nobody judged a score of 0.
  const fresh =
    stored.success &&
    stored.data.records === records.length &&
    Object.values(stored.data.rewards).every(
      (r) => typeof (r as { judged?: unknown })?.judged === 'number',
    );
  const summary = fresh ? (stored.data as unknown as RunSummary) : summarizeRun(records, opts);
  const runs = [...new Set(records.map((r) => r.run).filter((r) => r !== ''))];
  return {
    dir,
    label: runs.length === 1 ? runs[0]! : basename(dir.replace(/(?<![/\\])[/\\]+$/, '')) || dir,
    records,
    summary,
    summary_source: fresh ? 'summary.json' : 'recomputed',
    issues,
  };
}
