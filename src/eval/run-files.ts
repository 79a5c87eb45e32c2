// An eval run over a rollouts file, as `rubrica eval` does it: read the rollouts, set aside
// the ones that cannot be evaluated (a failed policy call, a prompt_id the prompts file lacks
// and no prompt text) with one notice each that also goes in the report, draw with a render
// pool of its own, run runEval, and count what is left not judged by reason (the exit code
// of the command follows from those counts).
import { isGraderFaultRecord } from '../core/status.ts';
import { inspectCompletion } from '../inspect/inspect.ts';
import { createRenderPool } from '../render/pool.ts';
import type { RendererName } from '../render/types.ts';
import { type EvalRunOptions, type EvalRunResult, runEval } from './run.ts';
import {
  type PromptLine,
  type RolloutLine,
  type RolloutsFile,
  readRolloutsFile,
} from './run-inputs.ts';
import type { EvalRecord } from './types.ts';

export interface EvalFileOptions
  extends Omit<EvalRunOptions, 'rollouts' | 'renderer' | 'inspect' | 'notices'> {
  /** rollouts.jsonl: `{"id","prompt_id" or "prompt","completion"}` lines. */
  rolloutsFile: string;
  /** The prompts file's name, for the notice about rollouts whose prompt it lacks. */
  promptsFile: string;
  /** Who draws the pictures (default: the render pool's default renderer). */
  renderer?: RendererName;
  /** Each unusable line of the rollouts file, as "file:line: message"; the run goes on. */
  onInputIssue?: (message: string) => void;
  /** Each notice about rollouts left out (also written in the report), before the run starts. */
  onNotice?: (message: string) => void;
  /** Evaluate only the usable rollouts this accepts (a shard's); notices still cover all. */
  only?: (rollout: RolloutLine) => boolean;
}

export type EvalFileResult =
  | { ok: false; error: { message: string } }
  | {
      ok: true;
      result: EvalRunResult;
      /** Records with a reward left not judged (a grader fault), by reason. */
      faults: Record<string, number>;
    };

const firstFive = (ids: string[]) => `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}`;

/** The rollouts that can be evaluated, and one notice per kind of rollout left out. */
export function usableRollouts(
  read: RolloutsFile,
  prompts: readonly PromptLine[],
  promptsFile: string,
): { rollouts: RolloutLine[]; notices: string[] } {
  const notices: string[] = [];
  if (read.errors.length) {
    notices.push(
      `${read.errors.length} rollouts have no completion (the policy call failed) and are not evaluated: ${firstFive(
        read.errors.map((e) => `${e.id} (${e.error.code})`),
      )}`,
    );
  }
  const known = new Set(prompts.map((p) => p.id));
  const rollouts: RolloutLine[] = [];
  const orphans: string[] = [];
  for (const r of read.rollouts) {
    if ((r.prompt_id && known.has(r.prompt_id)) || r.prompt) rollouts.push(r);
    else orphans.push(r.id);
  }
  if (orphans.length)
    notices.push(
      `${orphans.length} rollouts name a prompt_id missing from ${promptsFile} and carry no prompt text; skipped: ${firstFive(orphans)}`,
    );
  return { rollouts, notices };
}

/** Records whose scores hold a grader fault, counted by the first fault's reason. */
export function faultsByReason(records: readonly EvalRecord[]): Record<string, number> {
  const faults: Record<string, number> = {};
  for (const r of records) {
    const f = Object.values(r.scores).find(isGraderFaultRecord);
    if (f) faults[f.reason ?? 'grader_error'] = (faults[f.reason ?? 'grader_error'] ?? 0) + 1;
  }
  return faults;
}

/**
 * Evaluates a rollouts file. A file that cannot be read at all is `{ ok: false }`; otherwise
 * the run's result. Rejects with RunInterruptedError when `signal` aborts (results.jsonl
 * keeps what was scored).
 */
export async function evaluateRolloutsFile(opts: EvalFileOptions): Promise<EvalFileResult> {
  const {
    rolloutsFile,
    promptsFile,
    renderer: rendererName,
    onInputIssue,
    onNotice,
    only,
    ...run
  } = opts;
  const read = await readRolloutsFile(rolloutsFile);
  if (!read.ok) {
    await opts.hybrid?.close(); // handed over for the run, which will not happen
    return { ok: false, error: { message: read.error.message } };
  }
  for (const i of read.issues) onInputIssue?.(`${i.file}:${i.line}: ${i.message}`);
  const usable = usableRollouts(read.value, opts.prompts, promptsFile);
  const { notices } = usable;
  const rollouts = only ? usable.rollouts.filter(only) : usable.rollouts;
  for (const n of notices) onNotice?.(n);
  const renderer = createRenderPool(rendererName ? { defaults: { renderer: rendererName } } : {});
  try {
    const result = await runEval({
      ...run,
      rollouts,
      renderer,
      inspect: inspectCompletion,
      notices,
    });
    return { ok: true, result, faults: faultsByReason(result.records) };
  } finally {
    await renderer.close();
  }
}
