// Rubrics → a verl training set. verl's RLHFDataset reads a parquet file whose rows carry
// `data_source`, `prompt` (a list of chat messages), `ability`, `reward_model` ({style,
// ground_truth}) and `extra_info`; the reward function later gets ground_truth back, so the
// rubric id travels there and rubrica's /v1/verl route finds the rubric by it.
import { readFileSync } from 'node:fs';
import { parquetWriteFile } from 'hyparquet-writer';
import { parseRubricsJsonl } from '../rubric/load.ts';
import { parsePrismaRubrics } from '../rubric/prisma-load.ts';
import type { RubricRecord } from '../rubric/schema.ts';

export interface VerlExportOptions {
  /** Text of a system message put before every prompt (none when omitted). */
  system?: string;
  /** verl `data_source` column; default "rubrica". */
  dataSource?: string;
  /** verl `ability` column; default: each rubric's domain (svg when it names none). */
  ability?: string;
  /** `reward_model.style`: "rule" (a reward function, the default) or "model". */
  style?: 'rule' | 'model';
  /** `extra_info.split`; default "train". */
  split?: string;
  /** Include rubrics the filter dropped (default: kept only). */
  includeDropped?: boolean;
}

export interface VerlRow {
  data_source: string;
  prompt: Array<{ role: string; content: string }>;
  ability: string;
  reward_model: { style: string; ground_truth: string };
  extra_info: { split: string; index: bigint; prompt_id: string; prompt: string; preset: string };
}

export interface VerlExportSummary {
  rows: number;
  skippedDropped: number;
  /** rubrics.jsonl lines that could not be read. */
  badLines: { line: number; message: string }[];
}

/** What a verl row needs of a rubric: RULER-family and PrismaForge rubrics both have it. */
type VerlRubric = Pick<RubricRecord, 'id' | 'prompt' | 'kept'> & {
  preset: string;
  domain?: string | null;
};

/** One row per rubric id (a later line for the same id and preset replaces an earlier one). */
export function verlRows(rubrics: readonly VerlRubric[], opts: VerlExportOptions = {}) {
  const latest = new Map<string, VerlRubric>();
  for (const r of rubrics) {
    const key = `${r.preset}\u0000${r.id}`;
    latest.delete(key); // re-insert so order follows the last occurrence
    latest.set(key, r);
  }
  const rows: VerlRow[] = [];
  let skippedDropped = 0;
  for (const r of latest.values()) {
    if (!r.kept && !opts.includeDropped) {
      skippedDropped++;
      continue;
    }
    const prompt = opts.system ? [{ role: 'system', content: opts.system }] : [];
    prompt.push({ role: 'user', content: r.prompt });
    rows.push({
      data_source: opts.dataSource ?? 'rubrica',
      prompt,
      // The task's domain (python, vega-lite, …), so a trainer can route or weigh by it.
      ability: opts.ability ?? r.domain ?? 'svg',
      reward_model: { style: opts.style ?? 'rule', ground_truth: r.id },
      extra_info: {
        split: opts.split ?? 'train',
        index: BigInt(rows.length),
        prompt_id: r.id,
        prompt: r.prompt,
        preset: r.preset,
      },
    });
  }
  return { rows, skippedDropped };
}

const utf8 = (name: string) =>
  ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }) as const;

/** The parquet schema pyarrow writes for these columns (3-level LIST of structs). */
const VERL_SCHEMA = [
  { name: 'root', num_children: 5 },
  utf8('data_source'),
  { name: 'prompt', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: 'OPTIONAL', num_children: 2 },
  utf8('content'),
  utf8('role'),
  utf8('ability'),
  { name: 'reward_model', repetition_type: 'OPTIONAL', num_children: 2 },
  utf8('ground_truth'),
  utf8('style'),
  { name: 'extra_info', repetition_type: 'OPTIONAL', num_children: 5 },
  { name: 'index', type: 'INT64', repetition_type: 'OPTIONAL' },
  utf8('preset'),
  utf8('prompt'),
  utf8('prompt_id'),
  utf8('split'),
] as const;

export function writeVerlParquet(file: string, rows: VerlRow[]): void {
  parquetWriteFile({
    filename: file,
    columnData: [
      { name: 'data_source', data: rows.map((r) => r.data_source) },
      { name: 'prompt', data: rows.map((r) => r.prompt) },
      { name: 'ability', data: rows.map((r) => r.ability) },
      { name: 'reward_model', data: rows.map((r) => r.reward_model) },
      { name: 'extra_info', data: rows.map((r) => r.extra_info) },
    ],
    schema: VERL_SCHEMA.map((e) => ({ ...e })),
    createdBy: 'rubrica export verl',
  });
}

/** Read rubrics.jsonl, write the verl parquet; returns what was written and skipped. */
export function exportVerl(
  rubricsPath: string,
  outPath: string,
  opts: VerlExportOptions = {},
): VerlExportSummary {
  const text = readFileSync(rubricsPath, 'utf8');
  const { rubrics, errors } = parseRubricsJsonl(text);
  // PrismaForge rubrics (`"preset":"prisma"`) are RL prompts too: one row each.
  const prisma = parsePrismaRubrics(text).rubrics;
  const { rows, skippedDropped } = verlRows([...rubrics, ...prisma], opts);
  writeVerlParquet(outPath, rows);
  return { rows: rows.length, skippedDropped, badLines: errors };
}
