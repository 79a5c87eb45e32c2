// The flags and line shapes of `rubrica rubric synth`, shared by the RULER path
// (commands/rubric.ts) and the PrismaForge path (prisma-synth.ts).

import { ExactIdSchema } from '../store/jsonl.ts';
import type { JudgingFlags } from './judging-flags.ts';
import type { ShardFlags } from './shard-flags.ts';

/**
 * Ids in hand-written files may be integers; they are compared as text (`1` is `"1"`) and
 * numbers a double cannot hold exactly are refused (src/store/jsonl-input.ts).
 */
export const IdSchema = ExactIdSchema;

/** Author and judge failures are grader faults: such prompts are redone on the next run. */
const SYNTH_FAULTS: ReadonlySet<string> = new Set(['author_error', 'judge_error']);
export function synthFault(r: { drop_reason?: unknown }): string | null {
  return typeof r.drop_reason === 'string' && SYNTH_FAULTS.has(r.drop_reason)
    ? r.drop_reason
    : null;
}

export interface SynthFlags extends ShardFlags, JudgingFlags {
  in: string;
  out: string;
  author?: string;
  judge?: string;
  preset: string;
  minIdeal?: string;
  concurrency?: string;
  mode?: string;
  authorBaseUrl?: string;
  judgeBaseUrl?: string;
  judgeTimeout?: string;
  judgeRetries?: string;
  cache: boolean | string;
  renderer?: string;
  domain?: string;
  dataRoot?: string;
}
