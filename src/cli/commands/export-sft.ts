// `rubrica export sft`: scored rollouts → chat-messages JSONL for SFT (verl, TRL,
// LLaMA-Factory). Registered on the `export` group by export.ts; the work is in src/export/sft.ts.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadDwtSystemPrompt } from '../../export/dwt-prompt.ts';
import { exportSft, type SftContent } from '../../export/sft.ts';
import { inputFile } from '../input-file.ts';
import { UsageError } from '../usage-error.ts';

const CONTENTS: SftContent[] = ['dwt', 'svg', 'full'];

const mustExist = (path: string, flag: string): string => inputFile(flag, path);

export function registerSft(group: Command, setExit: (code: number) => void): void {
  group
    .command('sft')
    .description(
      "scored rollouts → SFT chat-messages JSONL (prompt, reasoning + the answer in its domain's fence) above a reward",
    )
    .requiredOption('--rollouts <file>', 'rollouts.jsonl (from `rubrica generate`)')
    .requiredOption('--scores <file>', 'scores.jsonl (from `rubrica score`)')
    .requiredOption('--min-reward <r>', 'keep rollouts with status ok and reward ≥ r')
    .requiredOption(
      '--out <file>',
      'file to write: sft.jsonl (chat-messages JSONL) or sft.parquet (a messages column, for verl)',
    )
    .option('--system <file>', 'text file put as the system message of every example')
    .option('--dwt', 'use the shipped Drawing-with-Thought prompt as the system message')
    .option('--prompts <file>', 'prompts.jsonl, for rollouts that carry only a prompt_id')
    .option(
      '--content <kind>',
      'assistant text: dwt (reasoning + fenced answer) | svg (the fenced answer alone, any domain) | full',
      'dwt',
    )
    .option('--reward-kind <kind>', 'only scores of this reward (ruler, hybrid, …)')
    .option('--require-dwt', 'only completions with a structurally valid DwT')
    .option('--best-per-prompt <k>', 'at most k examples per prompt, best first')
    .option(
      '--with-meta',
      'add {"meta": {id, prompt_id, reward, reward_kind, domain}} to each line (parquet: a domain column)',
    )
    .action((o) => {
      const minReward = Number(o.minReward);
      if (!Number.isFinite(minReward))
        throw new UsageError(`--min-reward must be a number, not ${JSON.stringify(o.minReward)}`);
      if (!CONTENTS.includes(o.content))
        throw new UsageError(`--content must be one of ${CONTENTS.join(', ')}`);
      if (o.system && o.dwt) throw new UsageError('give --system or --dwt, not both');
      let best: number | undefined;
      if (o.bestPerPrompt !== undefined) {
        best = Number(o.bestPerPrompt);
        if (!Number.isInteger(best) || best < 1)
          throw new UsageError('--best-per-prompt must be an integer ≥ 1');
      }
      const system = o.dwt
        ? loadDwtSystemPrompt().text
        : o.system
          ? readFileSync(mustExist(o.system, '--system'), 'utf8').trim()
          : undefined;
      const summary = exportSft(
        {
          rollouts: mustExist(o.rollouts, '--rollouts'),
          scores: mustExist(o.scores, '--scores'),
          out: o.out,
          prompts: o.prompts ? mustExist(o.prompts, '--prompts') : undefined,
        },
        {
          minReward,
          system,
          content: o.content,
          rewardKind: o.rewardKind,
          requireDwt: Boolean(o.requireDwt),
          bestPerPrompt: best,
          withMeta: Boolean(o.withMeta),
        },
      );
      const skipped = Object.entries(summary.skipped).map(([k, v]) => `${k} ${v}`);
      process.stderr.write(
        `wrote ${summary.written} of ${summary.rollouts} rollouts to ${o.out}` +
          `${skipped.length ? ` (skipped: ${skipped.join(', ')})` : ''}\n`,
      );
      for (const b of summary.badLines.slice(0, 5))
        process.stderr.write(`  ${b.file}:${b.line}: ${b.message}\n`);
      if (summary.written === 0) setExit(1);
    });
}
