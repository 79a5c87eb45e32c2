// `rubrica merge` for a sharded `eval`: each shard folder holds the results.jsonl (and with
// --policy the rollouts.jsonl) of its share, its images, and a summary and report of that
// share only. The merged folder gets the lines in the order one run writes them (rollouts
// by the prompts file with --policy, results by the rollouts file), every record's picture,
// and a summary.json and report.html recomputed from all merged records — the statistics,
// bootstrap intervals and health are computed once over the whole run, never combined from
// the shards' summaries. What only says how a run went (created_at, elapsed, the judge's
// probe, usage) is taken or added up from the shards (docs/sharding.md).
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkRegularFileSync } from '../core/read-input-text.ts';
import { addUsage, emptyUsage } from '../core/usage.ts';
import { parseAlertThresholds } from '../monitors/alerts.ts';
import type { ShardSidecar } from '../store/shard.ts';
import { shardOfId } from '../store/shard.ts';
import {
  idsOf,
  joinShardLines,
  type MergeResult,
  type ShardFile,
  ShardMergeError,
} from '../store/shard-merge.ts';
import { usableRollouts } from './run-files.ts';
import { readPromptsFile, readRolloutsFile } from './run-inputs.ts';
import { PARTS_FILE, readParts } from './run-parts.ts';
import { readResults } from './run-results.ts';
import { writeEvalSummary } from './run-summary.ts';
import type { EvalSummaryFile } from './summary-file.ts';

function readSummary(dir: string): EvalSummaryFile {
  const p = join(dir, 'summary.json');
  try {
    checkRegularFileSync(p); // a FIFO in a shard folder is refused, never waited on
    return JSON.parse(readFileSync(p, 'utf8')) as EvalSummaryFile;
  } catch (err) {
    throw new ShardMergeError(`cannot read ${p}: ${(err as Error).message}`);
  }
}

/** The shards must have scored the same rewards with the same judge under one run name. */
function checkSummariesAgree(dirs: readonly string[], sums: readonly EvalSummaryFile[]): void {
  const sig = (s: EvalSummaryFile) =>
    JSON.stringify([s.run, s.kinds, s.judge.spec, s.settings['judge mode'] ?? null]);
  sums.forEach((s, k) => {
    if (sig(s) !== sig(sums[0]!))
      throw new ShardMergeError(
        `${dirs[k]} and ${dirs[0]} are shards of different eval runs (run name, rewards, judge or judge mode differ)`,
      );
  });
}

/**
 * Merges checked eval shard folders (their results.jsonl files) into the folder `out`.
 * `promptsFile` replaces the prompts path the shards recorded (the files moved, or the
 * shards ran on other machines); with --policy the prompts file is the input, so `--in`
 * given alone stands for it too.
 */
export async function mergeEvalShards(
  out: string,
  set: { shards: ShardFile[]; car: ShardSidecar; input: string },
  promptsFile?: string,
): Promise<MergeResult> {
  const opts = set.car.options ?? {};
  const policy = opts.policy === true;
  // Results placed by prompt: sampled by prompt (--policy), or judged by group (--judging).
  const byPrompt = policy || set.car.by === 'prompt_id';
  const dirs = set.shards.map((s) => dirname(s.path));
  const sums = dirs.map(readSummary);
  checkSummariesAgree(dirs, sums);
  // With --policy the input (recorded, or --in) is the prompts file.
  const promptsPath =
    promptsFile ?? (policy ? set.input : String(opts.prompts_path ?? opts.prompts));
  const prompts = await readPromptsFile(promptsPath);
  if (!prompts.ok) throw new ShardMergeError(`the prompts of the run: ${prompts.error.message}`);
  mkdirSync(out, { recursive: true });

  // With --policy the rollouts were sampled by the shards: join them first, in the order of
  // the prompts file (the input), each prompt's samples as its shard wrote them.
  let rolloutsFile = set.input;
  if (policy) {
    rolloutsFile = join(out, 'rollouts.jsonl');
    await joinShardLines(
      rolloutsFile,
      set.shards.map((s) => ({ path: join(dirname(s.path), 'rollouts.jsonl'), car: s.car })),
      {
        order: idsOf(set.input),
        orderName: `the prompts ${set.input}`,
        keyField: 'prompt_id',
        shardField: 'prompt_id',
      },
    );
  }
  const results = join(out, 'results.jsonl');
  const lines = await joinShardLines(results, set.shards, {
    order: idsOf(rolloutsFile),
    orderName: `the rollouts ${rolloutsFile}`,
    keyField: 'id',
    shardField: byPrompt ? 'prompt_id' : 'id',
  });

  // Each record's picture, from the folder of the shard that drew it.
  const records = [...(await readResults(results)).values()];
  for (const r of records) {
    if (!r.image) continue;
    const from = join(dirs[shardOfId(byPrompt ? r.prompt_id : r.id, set.car.shards)]!, r.image);
    // stat, not open: a FIFO or device named by a line is refused before copyFile waits on it.
    const st = statSync(from, { throwIfNoEntry: false });
    if (!st) throw new ShardMergeError(`the picture ${from} of ${r.id} is missing`);
    if (!st.isFile())
      throw new ShardMergeError(`the picture ${from} of ${r.id} is not a regular file`);
    mkdirSync(dirname(join(out, r.image)), { recursive: true });
    copyFileSync(from, join(out, r.image));
  }

  // The notices one run would show: from the whole rollouts file, as each shard saw it.
  const read = await readRolloutsFile(rolloutsFile);
  if (!read.ok) throw new ShardMergeError(read.error.message);
  const { notices } = usableRollouts(read.value, prompts.value, String(opts.prompts));

  // Every shard's invocations are the run's (their times add up, as a resumed run's do).
  const parts = (await Promise.all(dirs.map(readParts))).flat();
  writeFileSync(join(out, PARTS_FILE), parts.map((p) => `${JSON.stringify(p)}\n`).join(''));
  const base = sums[0]!;
  let policyUsage = emptyUsage();
  for (const s of sums)
    if (s.usage.policy) policyUsage = addUsage(policyUsage, s.usage.policy.usage);
  await writeEvalSummary({
    dir: out,
    paths: { summary: join(out, 'summary.json'), report: join(out, 'report.html') },
    records,
    prompts: prompts.value,
    notices,
    run: base.run,
    kinds: base.kinds,
    judge: base.judge,
    policy: base.usage.policy ? { model: base.usage.policy.model, usage: policyUsage } : null,
    settings: policy ? { ...base.settings, rollouts: rolloutsFile } : base.settings,
    alerts: parseAlertThresholds(typeof opts.alerts === 'string' ? opts.alerts : undefined),
    elapsed: {
      elapsed_ms: parts.reduce((a, p) => a + p.elapsed_ms, 0),
      elapsed_parts: parts.length,
      elapsed_last_ms: Math.max(0, ...sums.map((s) => s.elapsed_last_ms)),
    },
  });
  return { lines, shards: set.car.shards, input: set.input, command: 'eval' };
}
