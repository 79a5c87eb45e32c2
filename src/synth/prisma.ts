// PrismaForge rubric synthesis for one instruction: (1) the author estimates its difficulty,
// which sets the item budget; (2) the author writes exactly that many sample-specific code
// and vision criteria, seeing the domain-shared ones so it does not repeat them; (3) the
// answer is validated against the schema the request carried. Both steps are cached under
// the author model, the prompt file's version and everything the step reads. No judge is
// involved: PrismaForge keeps every well-formed rubric (there is no ideal-drawing filter).

import type { z } from 'zod';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import { codeDomain } from '../inspect/code-domain.ts';
import type { ModelClient } from '../models/types.ts';
import { familyOf } from '../reward/families.ts';
import {
  AnyItemsAnswerSchema,
  DifficultyAnswerSchema,
  itemsAnswerSchema,
} from '../rubric/prisma-answer-schema.ts';
import { type Difficulty, ITEM_BUDGET } from '../rubric/prisma-budget.ts';
import type { PrismaItem, PrismaRubric } from '../rubric/prisma-schema.ts';
import { validateItemsAnswer } from '../rubric/prisma-validate.ts';
import { fillTemplate, loadPromptTemplate, sha256 } from '../rubric/prompt-file.ts';
import { loadSharedCriteria } from '../rubric/shared-criteria.ts';
import type { AnswerCache } from '../store/cache.ts';
import { cacheKey, modelKeyParts } from '../store/keys.ts';

/** One instruction to write a PrismaForge rubric for, with its domain, family and reference. */
export interface PrismaPromptInput {
  id: string;
  prompt: string;
  /** Artifact domain; default 'svg'. */
  domain?: string | null;
  /** Task family (λ row); default: the domain's family. */
  family?: string | null;
  /** A reference solution the author may read (it is not shown to judges). */
  reference?: string | null;
}

/** The author model of PrismaForge synthesis and the cache its answers are kept in. */
export interface PrismaSynthOptions {
  author: ModelClient;
  cache?: AnswerCache | null;
}

type Step<T> = { ok: true; value: T; usage: Usage } | { ok: false; message: string; usage: Usage };

const DIFFICULTY_FILE = 'prisma/author-difficulty.md';
const ITEMS_FILE = 'prisma/author-items.md';

export function prismaAuthorVersion(): string {
  const a = loadPromptTemplate(DIFFICULTY_FILE).version;
  const b = loadPromptTemplate(ITEMS_FILE).version;
  return sha256(JSON.stringify([a, b, ITEM_BUDGET])).slice(0, 16);
}

const listShared = (items: PrismaItem[]) =>
  items.length ? items.map((i) => `- ${i.criterion}`).join('\n') : '- (none)';

/**
 * PrismaForge's rubric author: estimates the instruction's difficulty, then writes code and
 * vision items within that budget beside the domain's shared criteria. Calls are cached; an
 * author failure yields a rubric with `kept: false` and a drop reason, not a throw.
 * @example
 * ```ts
 * const synth = createPrismaSynthesizer({ author: client });
 * const input = { id: 'p1', prompt: 'a bar chart of sales by month', domain: 'vega-lite' };
 * const rubric = await synth.synthesize(input); // rubric.kept, rubric.code_items, …
 * ```
 */
export function createPrismaSynthesizer(opts: PrismaSynthOptions) {
  const cache = opts.cache ?? null;
  const { author } = opts;

  /** One cached structured call of the author. */
  const ask = async <T>(
    file: string,
    values: Record<string, string>,
    parse: z.ZodType<T>,
    request: z.ZodType,
    name: string,
    signal?: AbortSignal,
  ): Promise<Step<T>> => {
    const t = loadPromptTemplate(file);
    const key = cacheKey([
      'prisma-author',
      ...modelKeyParts(author),
      t.version,
      name,
      JSON.stringify(values),
    ]);
    const hit = await cache?.get<T>('author', key);
    if (hit !== undefined) return { ok: true, value: hit, usage: emptyUsage() };
    const res = await author.generateObject(
      [
        { role: 'system', content: fillTemplate(t.system, values) },
        { role: 'user', content: fillTemplate(t.user, values) },
      ],
      parse,
      name,
      { signal, requestSchema: request },
    );
    if (!res.ok)
      return { ok: false, message: `${res.error.code}: ${res.error.message}`, usage: res.usage };
    await cache?.set('author', key, res.value);
    return { ok: true, value: res.value, usage: res.usage };
  };

  return {
    async synthesize(input: PrismaPromptInput, signal?: AbortSignal): Promise<PrismaRubric> {
      // The prompt's own domain; else its reference solution's (a matplotlib script is a
      // python task); else svg.
      const domain =
        input.domain ?? (input.reference ? (codeDomain(input.reference, null) ?? 'svg') : 'svg');
      const shared = loadSharedCriteria(domain);
      let usage = emptyUsage();
      let difficulty: Difficulty | null = null;
      const base = () => ({
        id: input.id,
        prompt: input.prompt,
        preset: 'prisma' as const,
        domain,
        family: familyOf(domain, input.family),
        difficulty,
        author: author.spec.id,
        versions: { author: prismaAuthorVersion(), shared: shared.version },
        usage,
      });
      const drop = (reason: 'author_error' | 'malformed', message: string): PrismaRubric => ({
        ...base(),
        code_items: [],
        vision_items: [],
        kept: false,
        drop_reason: reason,
        drop_message: message,
      });
      const values = {
        prompt: input.prompt,
        domain,
        reference: input.reference
          ? `\nReference solution (for your understanding only):\n${input.reference}`
          : '',
      };
      const d = await ask(
        DIFFICULTY_FILE,
        values,
        DifficultyAnswerSchema,
        DifficultyAnswerSchema,
        'difficulty',
        signal,
      );
      usage = addUsage(usage, d.usage);
      if (!d.ok) return drop('author_error', `difficulty: ${d.message}`);
      difficulty = d.value.difficulty as Difficulty;
      const budget = ITEM_BUDGET[difficulty];
      const itemValues = {
        ...values,
        shared_code: listShared(shared.code),
        shared_vision: listShared(shared.vision),
        code_count: String(budget.code),
        vision_count: String(budget.vision),
      };
      const answer = await ask(
        ITEMS_FILE,
        itemValues,
        AnyItemsAnswerSchema,
        itemsAnswerSchema(budget),
        'rubric_items',
        signal,
      );
      usage = addUsage(usage, answer.usage);
      if (!answer.ok) return drop('author_error', `items: ${answer.message}`);
      const valid = validateItemsAnswer(budget, input.prompt, shared, answer.value);
      if (!valid.ok) return drop('malformed', valid.message);
      return { ...base(), code_items: valid.code, vision_items: valid.vision, kept: true };
    },
  };
}

export type PrismaSynthesizer = ReturnType<typeof createPrismaSynthesizer>;
