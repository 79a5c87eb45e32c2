// `rubrica select`: PrismaForge's RL prompt selection. Reads the scores of k rollouts per
// instruction (`generate --n k` then `score`), ranks instructions by the dispersion of their
// scores and writes the RL prompt set: selected.jsonl, a verl parquet (rl.parquet, as
// `export verl` writes it), every instruction's k/mean/U (dispersion.jsonl), a histogram of
// U (histogram.txt) and summary.json. Thin: the arithmetic is src/reward/dispersion.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { type GroupKeyInput, promptIdResolver, promptKey } from '../../core/group-key.ts';
import { isGraderFaultRecord } from '../../core/status.ts';
import { jsonLines } from '../../curation/json-lines.ts';
import { type VerlRow, writeVerlParquet } from '../../export/verl.ts';
import {
  dispersionHistogram,
  dispersions,
  formatHistogram,
  type ScoredSample,
  selectPrompts,
} from '../../reward/dispersion.ts';
import { ExactIdSchema, readJsonlFile } from '../../store/jsonl.ts';
import { parseCount, parseUnit } from '../flags.ts';
import { inputFile } from '../input-file.ts';
import type { RegisterCommand } from '../register.ts';
import { UsageError } from '../usage-error.ts';

const Verdict = z.object({ reward: z.number(), status: z.string(), reason: z.string().optional() });
const ScoreLine = Verdict.extend({
  prompt_id: z.union([z.string(), z.number()]).nullish(),
  prompt: z.string().nullish(),
  rewards: z.record(z.string(), Verdict.optional()).optional(),
});
const PromptLine = z.object({
  id: ExactIdSchema,
  prompt: z.string(),
  domain: z.string().min(1).nullish(),
});

interface SelectFlags {
  scores: string;
  prompts: string;
  out: string;
  reward?: string;
  topK?: string;
  topFraction?: string;
  minDispersion?: string;
  minK?: string;
  system?: string;
  dataSource: string;
}

/**
 * The scores, each under its instruction: the GRPO group of src/core/group-key.ts, named by
 * the --prompts id when a line carries only the prompt text. A line that names no prompt, is
 * not JSON or lacks the reward is skipped and counted (`unreadable_lines`).
 */
export async function readScores(
  file: string,
  reward: string | undefined,
  promptIdOf: (r: GroupKeyInput) => string,
) {
  const samples: ScoredSample[] = [];
  let skipped = 0;
  for await (const { value } of jsonLines(file)) {
    const r = ScoreLine.safeParse(value);
    const v = r.success ? (reward ? r.data.rewards?.[reward] : r.data) : undefined;
    // No id: a line is only kept when its prompt is named (promptKey), which the id never is.
    const line = r.success
      ? {
          id: '',
          prompt_id: r.data.prompt_id == null ? null : String(r.data.prompt_id),
          prompt: r.data.prompt,
        }
      : null;
    if (!line || promptKey(line) === null || !v) {
      skipped++;
      continue;
    }
    // A grader fault is no score of the instruction (also as older files wrote it).
    const status = isGraderFaultRecord(v) ? 'grader_error' : v.status;
    samples.push({ prompt_id: promptIdOf(line), reward: v.reward, status });
  }
  return { samples, skipped };
}

async function select(f: SelectFlags): Promise<void> {
  inputFile('--scores', f.scores);
  inputFile('--prompts', f.prompts);
  const topK = f.topK === undefined ? undefined : parseCount('--top-k', f.topK, 1);
  const topFraction =
    f.topFraction === undefined ? undefined : parseUnit('--top-fraction', f.topFraction, 1);
  const minDispersion =
    f.minDispersion === undefined ? undefined : parseUnit('--min-dispersion', f.minDispersion, 0);
  if (topK === undefined && topFraction === undefined && minDispersion === undefined)
    throw new UsageError('give --top-k, --top-fraction or --min-dispersion');
  const minK = parseCount('--min-k', f.minK, 2);
  const prompts = await readJsonlFile(f.prompts, PromptLine);
  const promptIdOf = promptIdResolver(prompts.items.map((p) => p.item));
  const { samples, skipped } = await readScores(f.scores, f.reward, promptIdOf);
  const text = new Map(prompts.items.map((p) => [p.item.id, p.item.prompt]));
  const domainOf = new Map(prompts.items.map((p) => [p.item.id, p.item.domain ?? undefined]));
  const all = dispersions(samples);
  const { ranked, chosen, tooFew } = selectPrompts(all, { topK, topFraction, minDispersion, minK });
  const missing = chosen.filter((d) => !text.has(d.prompt_id));
  if (missing.length)
    throw new UsageError(
      `${missing.length} selected prompt ids are not in --prompts ${f.prompts} (e.g. ${missing[0]!.prompt_id})`,
    );
  mkdirSync(f.out, { recursive: true });
  const lines = (xs: object[]) => xs.map((x) => `${JSON.stringify(x)}\n`).join('');
  const selected = chosen.map((d, rank) => ({
    id: d.prompt_id,
    prompt: text.get(d.prompt_id)!,
    rank,
    ...d,
  }));
  writeFileSync(join(f.out, 'selected.jsonl'), lines(selected));
  writeFileSync(join(f.out, 'dispersion.jsonl'), lines(ranked));
  const rows: VerlRow[] = selected.map((s, i) => ({
    data_source: f.dataSource,
    prompt: [
      ...(f.system ? [{ role: 'system', content: f.system }] : []),
      { role: 'user', content: s.prompt },
    ],
    // The prompt's domain (python, vega-lite, …): verl's ability column.
    ability: domainOf.get(s.id) ?? 'svg',
    reward_model: { style: 'rule', ground_truth: s.id },
    extra_info: {
      split: 'train',
      index: BigInt(i),
      prompt_id: s.id,
      prompt: s.prompt,
      preset: 'prisma',
    },
  }));
  writeVerlParquet(join(f.out, 'rl.parquet'), rows);
  const hist = dispersionHistogram(ranked.map((d) => d.dispersion));
  writeFileSync(join(f.out, 'histogram.txt'), `${formatHistogram(hist)}\n`);
  const summary = {
    scores: samples.length,
    unreadable_lines: skipped,
    instructions: all.length,
    ranked: ranked.length,
    too_few_scores: tooFew,
    selected: chosen.length,
    criteria: {
      top_k: topK ?? null,
      top_fraction: topFraction ?? null,
      min_dispersion: minDispersion ?? null,
      min_k: minK,
    },
    histogram: hist,
  };
  writeFileSync(join(f.out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const lowest = chosen.at(-1)?.dispersion;
  process.stdout.write(
    `selected ${chosen.length} of ${ranked.length} ranked instructions (${tooFew} with fewer than ${minK} scores)` +
      `${lowest === undefined ? '' : `, U ≥ ${lowest.toFixed(4)}`}; wrote ${f.out}/selected.jsonl, rl.parquet, histogram.txt\n` +
      `${formatHistogram(hist)}\n`,
  );
}

export const register: RegisterCommand = (program) => {
  program
    .command('select')
    .description('RL prompt selection: rank instructions by the dispersion U of their k scores')
    .requiredOption(
      '--scores <file>',
      'scores.jsonl from `rubrica score` (k rollouts per prompt_id)',
    )
    .requiredOption('--prompts <file>', 'prompts.jsonl or rubrics.jsonl: lines {"id","prompt"}')
    .requiredOption('--out <dir>', 'output folder')
    .option(
      '--reward <kind>',
      'read this reward of multi-reward records (default: the record’s reward)',
    )
    .option('--top-k <n>', 'keep the n highest-U instructions')
    .option('--top-fraction <x>', 'keep this share (0–1, rounded up) of the ranked instructions')
    .option('--min-dispersion <u>', 'keep instructions with U ≥ u')
    .option('--min-k <n>', 'rank only instructions with at least n scores (default 2)')
    .option('--system <text>', 'system message put before every prompt in rl.parquet')
    .option('--data-source <name>', 'verl data_source column', 'rubrica-prisma')
    .action((f: SelectFlags) => select(f));
};
