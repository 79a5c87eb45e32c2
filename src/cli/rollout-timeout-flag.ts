// `--rollout-timeout-ms`, the one flag every batch command (score, eval, probe, rescore)
// shares for serve's `--deadline-ms` purpose: a rollout not scored by then is a grader fault
// with reason `deadline`, redone by the next run (src/pipeline/rollout-timeout.ts). Beside it,
// the judge call's own bounds for the commands that lacked them (eval, probe): without
// them a judge that hangs held a run for the client's default 120 s × 5 attempts.
import type { Command } from 'commander';
import { parseCount } from './flags.ts';

export interface RolloutTimeoutFlags {
  rolloutTimeoutMs?: string;
  judgeTimeout?: string;
  judgeRetries?: string;
}

/** `--judge-timeout` and `--judge-retries`, parsed by judgeCallFlags (src/cli/flags.ts). */
export function addJudgeCallFlags(cmd: Command): Command {
  return cmd
    .option('--judge-timeout <ms>', 'per judge attempt, ms (default 120000)')
    .option('--judge-retries <n>', 'judge retries after the first attempt (default 4)');
}

export function addRolloutTimeoutFlag(cmd: Command): Command {
  return cmd.option(
    '--rollout-timeout-ms <ms>',
    'a rollout not scored by then is a grader fault (reason deadline, redone by the next run); its judge call runs on into the cache',
  );
}

/** `{ rolloutTimeoutMs }` when the flag is given (a positive integer, else a usage error). */
export function rolloutTimeoutFromFlags(flags: RolloutTimeoutFlags): { rolloutTimeoutMs?: number } {
  return flags.rolloutTimeoutMs === undefined
    ? {}
    : { rolloutTimeoutMs: parseCount('--rollout-timeout-ms', flags.rolloutTimeoutMs, 1) };
}
