// Scored rollouts → an SFT set: the (prompt, reasoning + answer code) pairs whose reward passed a
// threshold, in every domain (the SVG, or the python / LaTeX / Vega-Lite / … code in its
// domain's fence; the domain is the rollout's `domain`, else detected as `score` detects it), as chat-messages JSONL — one `{"messages":[…]}` object a line, the shape verl's
// SFT trainer (multiturn messages_key), TRL's SFTTrainer ("messages" column) and
// LLaMA-Factory (sharegpt format with the openai-style tags) read. This is Reason-SVG's
// rejection-sampling route to DwT data, and best-of-n distillation for RULER rewards.
import { writeFileSync } from 'node:fs';
import { parquetWriteFile } from 'hyparquet-writer';
import { z } from 'zod';
import { locateArtifact } from '../artifact/extract.ts';
import { DOMAIN_IDS, type DomainId } from '../core/domain-ids.ts';
import { ScoreRecordSchema } from '../core/record.ts';
import { locateDomainCode } from '../domains/extract.ts';
import { DOMAINS } from '../domains/registry.ts';
import { completionDomain } from '../inspect/inspect.ts';
import { readJsonlInputs } from '../store/jsonl.ts';

export type SftContent = 'dwt' | 'svg' | 'full';

export interface SftOptions {
  /** Keep rollouts with status ok and reward ≥ this. */
  minReward: number;
  /** A system message put first in every example. */
  system?: string;
  /** Assistant text: reasoning + SVG (default), the SVG alone, or the completion verbatim. */
  content?: SftContent;
  /** Only scores of this reward kind (ruler, hybrid, …); default: any. */
  rewardKind?: string;
  /** Keep only completions with a structurally valid DwT (checks.dwt_valid). */
  requireDwt?: boolean;
  /** At most this many examples per prompt, highest reward first. */
  bestPerPrompt?: number;
  /** Add a `meta` object (id, prompt_id, reward, reward_kind, domain) to every line. */
  withMeta?: boolean;
  /** prompt_id → prompt text, for rollouts that carry only an id. */
  prompts?: ReadonlyMap<string, string>;
}

export interface SftMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface SftExample {
  messages: SftMessage[];
  meta?: {
    id: string;
    prompt_id: string | null;
    reward: number;
    reward_kind: string;
    /** The answer's domain (svg, python, vega-lite, …), as `export verl` writes `ability`. */
    domain: DomainId;
  };
}

export type SftSkipReason =
  | 'rollout_error'
  | 'no_score'
  | 'unscoreable'
  | 'below_min_reward'
  | 'no_prompt'
  | 'no_svg'
  | 'no_code'
  | 'no_dwt'
  | 'not_best';

export interface SftSummary {
  rollouts: number;
  written: number;
  skipped: Partial<Record<SftSkipReason, number>>;
  badLines: { file: string; line: number; message: string }[];
}

const idSchema = z.union([z.string().min(1), z.number()]).transform(String);

export const sftRolloutSchema = z.looseObject({
  id: idSchema,
  prompt_id: idSchema.nullish(),
  prompt: z.string().nullish(),
  completion: z.string().optional(),
  error: z.unknown().optional(),
  /** The completion's domain; absent: detected from its fences (an SVG answer is svg). */
  domain: z.enum(DOMAIN_IDS).nullish(),
});
export type SftRollout = z.infer<typeof sftRolloutSchema>;

// The fields of a score line (src/core/record.ts) that export reads; other fields pass.
export const sftScoreSchema = ScoreRecordSchema.pick({ reward: true, status: true })
  .extend({
    id: idSchema,
    reward_kind: z.string().optional(),
    checks: z.looseObject({ dwt_valid: z.boolean().optional() }).optional(),
  })
  .loose();
export type SftScore = z.infer<typeof sftScoreSchema>;

/**
 * The assistant turn. `dwt`: everything the model wrote before its answer (its <think>
 * block or DwT prose, kept as written) followed by the answer code in its domain's fence
 * (```svg, ```python, ```vega-lite, …); chatter after it is dropped. `svg`: the fenced answer
 * alone (named for the SVG domain, where it began; in another domain, that domain's code).
 * `full`: the completion verbatim. Null when the completion holds no code of `domain`.
 */
export function assistantContent(
  completion: string,
  content: SftContent = 'dwt',
  domain: DomainId = 'svg',
): string | null {
  if (content === 'full') return completion;
  const code = answerCode(completion, domain);
  if (code === null) return null;
  const fenced = `\`\`\`${DOMAINS[domain].fenceLangs[0]}\n${code.trim()}\n\`\`\``;
  if (content === 'svg') return fenced;
  const at = completion.lastIndexOf(code);
  // Drop a fence opener left dangling right before the code (```svg, ```python, ```).
  const before = completion
    .slice(0, Math.max(0, at))
    .replace(/```[\w+/-]*[ \t]*(?:\r?\n[ \t]*)?$/, '')
    .trimEnd();
  return before ? `${before}\n\n${fenced}` : fenced;
}

/** The answer's code as the completion holds it: the SVG, or the domain's code block. */
function answerCode(completion: string, domain: DomainId): string | null {
  if (domain === 'svg') {
    const art = locateArtifact(completion);
    return art.found && art.svg ? art.svg : null;
  }
  const found = locateDomainCode(completion, domain);
  return found.found && found.code.trim() ? found.code : null;
}

/** Joins rollouts with their scores and keeps the ones that pass. */
export function sftExamples(
  rollouts: readonly SftRollout[],
  scores: readonly SftScore[],
  opts: SftOptions,
): { examples: SftExample[]; summary: SftSummary } {
  const byId = new Map<string, SftScore>();
  for (const s of scores) {
    if (opts.rewardKind && s.reward_kind !== opts.rewardKind) continue;
    byId.set(s.id, s); // a later line for the same id wins (a re-scored rollout)
  }
  const skipped: SftSummary['skipped'] = {};
  const skip = (r: SftSkipReason) => {
    skipped[r] = (skipped[r] ?? 0) + 1;
  };
  const candidates: { ex: SftExample; reward: number; group: string; order: number }[] = [];
  for (const [order, r] of rollouts.entries()) {
    if (r.error !== undefined || r.completion === undefined) {
      skip('rollout_error');
      continue;
    }
    const s = byId.get(r.id);
    if (!s) {
      skip('no_score');
      continue;
    }
    if (s.status !== 'ok') {
      skip('unscoreable');
      continue;
    }
    if (!(s.reward >= opts.minReward)) {
      skip('below_min_reward');
      continue;
    }
    if (opts.requireDwt && s.checks?.dwt_valid !== true) {
      skip('no_dwt');
      continue;
    }
    const prompt = r.prompt ?? (r.prompt_id ? opts.prompts?.get(r.prompt_id) : undefined);
    if (!prompt?.trim()) {
      skip('no_prompt');
      continue;
    }
    const domain = completionDomain(r.completion, r.domain);
    const answer = assistantContent(r.completion, opts.content, domain);
    if (answer === null) {
      skip(domain === 'svg' ? 'no_svg' : 'no_code');
      continue;
    }
    const messages: SftMessage[] = [];
    if (opts.system) messages.push({ role: 'system', content: opts.system });
    messages.push({ role: 'user', content: prompt }, { role: 'assistant', content: answer });
    const ex: SftExample = { messages };
    if (opts.withMeta) {
      ex.meta = {
        id: r.id,
        prompt_id: r.prompt_id ?? null,
        reward: s.reward,
        reward_kind: s.reward_kind ?? 'unknown',
        domain,
      };
    }
    candidates.push({ ex, reward: s.reward, group: r.prompt_id ?? prompt, order });
  }
  let kept = candidates;
  if (opts.bestPerPrompt !== undefined) {
    const groups = new Map<string, typeof candidates>();
    for (const c of candidates) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
    const keep = new Set<(typeof candidates)[number]>();
    for (const g of groups.values()) {
      const best = [...g].sort((a, b) => b.reward - a.reward || a.order - b.order);
      for (const c of best.slice(0, opts.bestPerPrompt)) keep.add(c);
    }
    kept = candidates.filter((c) => keep.has(c));
    const dropped = candidates.length - kept.length;
    if (dropped > 0) skipped.not_best = dropped;
  }
  return {
    examples: kept.map((c) => c.ex),
    summary: { rollouts: rollouts.length, written: kept.length, skipped, badLines: [] },
  };
}

export interface SftFiles {
  rollouts: string;
  scores: string;
  out: string;
  /** A prompts.jsonl (`{"id","prompt"}`) for rollouts without prompt text. */
  prompts?: string;
}

const promptLine = z.looseObject({ id: idSchema, prompt: z.string() });

/** Reads the files, writes sft.jsonl (replacing it), returns what happened. */
export function exportSft(files: SftFiles, opts: SftOptions): SftSummary {
  const rollouts = readJsonlInputs(files.rollouts, sftRolloutSchema);
  const scores = readJsonlInputs(files.scores, sftScoreSchema);
  const badLines = [
    ...rollouts.errors.map((e) => ({ file: files.rollouts, ...e })),
    ...scores.errors.map((e) => ({ file: files.scores, ...e })),
  ];
  let prompts = opts.prompts;
  if (files.prompts) {
    const p = readJsonlInputs(files.prompts, promptLine);
    badLines.push(...p.errors.map((e) => ({ file: files.prompts!, ...e })));
    prompts = new Map(p.items.map((x) => [x.id, x.prompt]));
  }
  const { examples, summary } = sftExamples(rollouts.items, scores.items, { ...opts, prompts });
  if (files.out.endsWith('.parquet')) writeSftParquet(files.out, examples);
  else writeFileSync(files.out, examples.map((e) => `${JSON.stringify(e)}\n`).join(''));
  return { ...summary, badLines };
}

const utf8 = (name: string) =>
  ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }) as const;

/** One `messages` column, a LIST of {content, role} structs laid out as pyarrow writes it. */
const SFT_SCHEMA = [
  { name: 'root', num_children: 1 },
  { name: 'messages', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: 'OPTIONAL', num_children: 2 },
  utf8('content'),
  utf8('role'),
] as const;

/**
 * verl's SFT trainer reads parquet (`data.multiturn.messages_key=messages`), so `--out x.parquet`
 * writes the same examples as a parquet file instead of JSONL. With meta (`--with-meta`), a
 * `domain` column follows, so a trainer can weigh or filter by domain.
 */
export function writeSftParquet(file: string, examples: readonly SftExample[]): void {
  const withDomain = examples.length > 0 && examples.every((e) => e.meta);
  const schema: object[] = SFT_SCHEMA.map((e) => ({ ...e }));
  const columnData: { name: string; data: unknown[] }[] = [
    { name: 'messages', data: examples.map((e) => e.messages) },
  ];
  if (withDomain) {
    schema[0] = { name: 'root', num_children: 2 };
    schema.push(utf8('domain'));
    columnData.push({ name: 'domain', data: examples.map((e) => e.meta!.domain) });
  }
  parquetWriteFile({
    filename: file,
    columnData,
    schema: schema as Parameters<typeof parquetWriteFile>[0]['schema'],
    createdBy: 'rubrica export sft',
  });
}
