// `rubrica merge`: joins the outputs of a sharded job (run with --shard i/N) into what one
// process would have written. A shard output is a file (`score`, `rubric synth`,
// `generate`) or a folder (`curate`, `eval`: the sidecar sits beside the folder's per-item
// file). Thin: the checks and the ordering live in src/store/shard-merge.ts, the folders'
// derived files in src/curation/shard-merge.ts and src/eval/shard-merge.ts; a refusal is
// one line, exit 2.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mergeCurateShards } from '../../curation/shard-merge.ts';
import { mergeEvalShards } from '../../eval/shard-merge.ts';
import { sidecarPath } from '../../store/shard.ts';
import { checkShardSet, mergeJsonlShards, ShardMergeError } from '../../store/shard-merge.ts';
import { inputDir, inputFile, optionalInputFile } from '../input-file.ts';
import type { RegisterCommand } from '../register.ts';
import { UsageError } from '../usage-error.ts';

/** The per-item file of a folder output, whose sidecar says which command wrote it. */
const FOLDER_FILES = ['results.jsonl', 'decisions.jsonl'];

/** A shard output as the file that carries the sidecar. */
function shardFile(path: string): string {
  if (!statSync(path).isDirectory()) return path;
  const inner = FOLDER_FILES.map((f) => join(path, f)).find((f) => existsSync(sidecarPath(f)));
  if (!inner)
    throw new ShardMergeError(
      `${path} is a folder without a shard sidecar (${FOLDER_FILES.map((f) => `${f}.shard.json`).join(' or ')}): not a --shard output of eval or curate`,
    );
  return inner;
}

type MergeFlags = { out: string; in?: string; prompts?: string };

async function merge(shards: string[], flags: MergeFlags): Promise<void> {
  // Every input is checked before any is read: a missing one is one line naming it, exit 2.
  for (const shard of shards)
    if (existsSync(shard) && statSync(shard).isDirectory()) inputDir('<shard-outputs...>', shard);
    else inputFile('<shard-outputs...>', shard);
  optionalInputFile('--in', flags.in);
  optionalInputFile('--prompts', flags.prompts);
  try {
    if (shards.some((s) => resolve(s) === resolve(flags.out)))
      throw new ShardMergeError(`--out ${flags.out} is one of the shard outputs`);
    const set = await checkShardSet(shards.map(shardFile), flags.in);
    const folder = set.car.command === 'eval' || set.car.command === 'curate';
    if (flags.prompts && set.car.command !== 'eval')
      throw new ShardMergeError(
        `--prompts is for the shards of \`eval\`; these are shards of \`${set.car.command}\``,
      );
    if (folder && existsSync(flags.out) && !statSync(flags.out).isDirectory())
      throw new ShardMergeError(
        `--out ${flags.out} is a file; the shards of \`${set.car.command}\` merge into a folder`,
      );
    const r =
      set.car.command === 'eval'
        ? await mergeEvalShards(flags.out, set, flags.prompts)
        : set.car.command === 'curate'
          ? await mergeCurateShards(flags.out, set)
          : await mergeJsonlShards(flags.out, set);
    const what = folder ? `${r.lines} records` : `${r.lines} lines`;
    process.stdout.write(
      `merged ${r.shards} shards of \`${r.command}\`: ${what} in the order of ${r.input} → ${flags.out}\n`,
    );
  } catch (err) {
    if (err instanceof ShardMergeError) throw new UsageError(err.message);
    throw err;
  }
}

export const register: RegisterCommand = (program) => {
  program
    .command('merge')
    .description('join the outputs of a sharded job (--shard i/N) into what one run would write')
    .argument(
      '<shard-outputs...>',
      'every shard output of the job: files (score, rubric synth, generate) or folders (curate, eval)',
    )
    .requiredOption(
      '--out <path>',
      'the merged file, or folder for curate and eval (in the order of the input)',
    )
    .option('--in <file>', 'the input the shards read (default: the path their sidecars recorded)')
    .option(
      '--prompts <file>',
      'eval: the prompts file the shards read (default: the path their sidecars recorded)',
    )
    .action((shards: string[], flags: MergeFlags) => merge(shards, flags));
};
