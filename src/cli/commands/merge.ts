// `rubrica merge`: joins the outputs of a sharded `score` or `rubric synth` job (run with
// --shard i/N) into the file one process would have written. Thin: the checks and the
// ordering live in src/store/shard-merge.ts; a refusal is one line, exit 2.
import { mergeShards, ShardMergeError } from '../../store/shard-merge.ts';
import { inputFile, optionalInputFile } from '../input-file.ts';
import type { RegisterCommand } from '../register.ts';
import { UsageError } from '../usage-error.ts';

async function merge(shards: string[], flags: { out: string; in?: string }): Promise<void> {
  // Every input is checked before any is read: a missing one is one line naming it, exit 2.
  for (const shard of shards) inputFile('<shard-outputs...>', shard);
  optionalInputFile('--in', flags.in);
  try {
    const r = await mergeShards(flags.out, shards, flags.in);
    process.stdout.write(
      `merged ${r.shards} shards: ${r.lines} lines in the order of ${r.input} → ${flags.out}\n`,
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
    .argument('<shard-outputs...>', 'every shard output of the job, each with its .shard.json')
    .requiredOption('--out <file>', 'the merged file (lines in the order of the input)')
    .option('--in <file>', 'the input the shards read (default: the path their sidecars recorded)')
    .action((shards: string[], flags: { out: string; in?: string }) => merge(shards, flags));
};
