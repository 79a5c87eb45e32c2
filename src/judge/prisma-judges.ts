// PrismaForge's judges. The code judge is an LLM that reads the program (text only) and
// checks the code rubric; the vision judge is a VLM that looks at the rendered picture (no
// code) and checks the vision rubric; the direct judge gives one holistic score from both
// (the paper's baseline, and the λh term). Each rubric is judged in one structured call by
// default (joint) or one call per item (per-item). Answers are cached under everything that
// shapes them (model and server, prompt-file version, mode, instruction, items, and the code
// or the picture) and identical requests share one call (cached-ask.ts).

import { z } from 'zod';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import { MAX_TOP_LOGPROBS } from '../models/logprobs.ts';
import type { ChatMessage, ModelClient, ModelResult } from '../models/types.ts';
import type { Modality, PrismaItem } from '../rubric/prisma-schema.ts';
import { fillTemplate, loadPromptTemplate, sha256 } from '../rubric/prompt-file.ts';
import type { AnswerCache } from '../store/cache.ts';
import { cacheKey, modelKeyParts } from '../store/keys.ts';
import { type Asked, createCachedAsk } from './cached-ask.ts';
import { codeForJudge, fenceFor } from './code-for-judge.ts';
import { numberSpans, spanAt } from './json-offsets.ts';
import type { ItemVerdict } from './prisma-schema.ts';
import {
  type ItemAnswer,
  itemAnswerSchema,
  itemAnswers,
  itemFraction,
  jointItemsSchema,
  verdictPath,
} from './prisma-schema.ts';
import { pngDataUrl } from './prompt.ts';
import { ScoreSchema } from './schema.ts';
import { type ScoreMass, scoreDistribution } from './score-distribution.ts';
import { DEFAULT_STRATEGY, type ScoringMode, type ScoringUsed } from './strategy.ts';
import { neutraliseMessages } from './template-tokens.ts';

/** Judges sample greedily: a reward should not depend on the sampling seed. */
const TEMPERATURE = 0;

export type PrismaJudgeMode = 'joint' | 'per-item';

export interface RubricJudgeRequest {
  prompt: string;
  domain: string;
  modality: Modality;
  items: PrismaItem[];
  /** The program (read by the code judge). */
  code: string;
  /** The rendered picture (looked at by the vision judge). */
  png?: Buffer;
  /** The task's data files' content hash (core/assets.ts), a part of the cache key. */
  assets?: string | null;
  signal?: AbortSignal;
}

export interface DirectJudgeRequest {
  prompt: string;
  domain: string;
  code: string;
  png: Buffer;
  /** The task's data files' content hash (core/assets.ts), a part of the cache key. */
  assets?: string | null;
  signal?: AbortSignal;
}

export const DirectAnswerSchema = z.strictObject({ reasoning: z.string(), score: ScoreSchema });
export type DirectAnswer = z.infer<typeof DirectAnswerSchema>;

const TEMPLATE: Record<Modality | 'direct', string> = {
  code: 'prisma/judge-code.md',
  vision: 'prisma/judge-vision.md',
  direct: 'prisma/judge-direct.md',
};

export function renderCriterion(it: PrismaItem): string {
  const kind = it.count === 1 ? 'yes/no' : `counts ${it.count} things`;
  return `- ${it.key} (${kind}, weight ${it.weight}): ${it.criterion}`;
}

/** The chat messages of one PrismaForge judge call (exported for the fence property test). */
export function prismaMessages(
  file: string,
  values: Record<string, string>,
  png: Buffer | undefined,
): ChatMessage[] {
  const t = loadPromptTemplate(file);
  const text = fillTemplate(t.user, values);
  // Chat-template token strings in the program, prompt or rubric never reach the judge as
  // tokens (template-tokens.ts).
  return neutraliseMessages([
    { role: 'system', content: fillTemplate(t.system, values) },
    {
      role: 'user',
      content: png
        ? [
            { type: 'text', text },
            { type: 'image', dataUrl: pngDataUrl(png) },
          ]
        : text,
    },
  ]);
}

/** The program as a code judge reads it, and the fence it sits in (code-for-judge.ts). */
export function judgedCode(code: string, domain: string, items: PrismaItem[] = []) {
  const judged = codeForJudge(
    code,
    domain,
    items.map((i) => i.criterion),
  ).code;
  return { code: judged, fence: fenceFor(judged) };
}

interface Cached {
  verdicts: { key: string; f: number; rationale: string; distribution?: ScoreMass[] }[];
  /** How the verdicts were read; absent in answers cached before scoring modes (greedy). */
  scoring?: ScoringUsed;
}

/**
 * The distribution of each item's verdict in one answer (or why it cannot be read): the
 * verdict's `true`/`false` or count digit is found by character offset in the returned token
 * stream (score-distribution.ts), the answer having been parsed once by the client.
 */
function readVerdicts(
  res: Extract<ModelResult<unknown>, { ok: true }>,
  items: readonly PrismaItem[],
  joint: boolean,
): Map<string, ScoreMass[] | string> {
  const spans = numberSpans(res.raw, true);
  const out = new Map<string, ScoreMass[] | string>();
  for (const it of items) {
    const allowed = itemAnswers(it);
    const span = spans && spanAt(spans, verdictPath(it, joint));
    if (!allowed) out.set(it.key, `item ${it.key} counts ${it.count} things: several tokens`);
    else if (!span) out.set(it.key, 'the verdict was not found in the answer text');
    else {
      // PrismaForge's judges sample at temperature 0: no server reports after a temperature.
      const d = scoreDistribution(res.logprobs, res.raw, span, allowed, 0);
      out.set(it.key, d.ok ? d.distribution : d.reason);
    }
  }
  return out;
}

/**
 * PrismaForge's judge: `judgeRubric` scores a code or vision rubric's items, `judgeDirect`
 * gives the holistic score. Failures come back as values.
 */
export interface PrismaJudge {
  readonly modelId: string;
  readonly mode: PrismaJudgeMode;
  /** How the rubric verdicts are asked and read (the holistic score is always as written). */
  readonly scoring?: ScoringMode;
  judgeRubric(req: RubricJudgeRequest): Promise<Asked<ItemVerdict[]>>;
  judgeDirect(req: DirectJudgeRequest): Promise<Asked<ItemVerdict>>;
}

/** The model client of a PrismaForge judge, its mode, its answer cache and its token budget. */
export interface PrismaJudgeOptions {
  client: ModelClient;
  mode?: PrismaJudgeMode;
  cache?: AnswerCache | null;
  maxTokens?: number;
  /**
   * How rubric verdicts are read (default DEFAULT_STRATEGY.scoring, `auto`): `expected` reads
   * each yes/no or count (≤ 9) verdict as Σ p·f over the judge's logprobs at its token, `auto`
   * does when the server returns usable logprobs and takes the written verdict otherwise.
   */
  scoring?: ScoringMode;
}

/**
 * A PrismaForge judge on one model: reads the code (code rubric) or looks at the picture
 * (vision rubric, holistic score). Answers are cached like createJudge's.
 * @example
 * ```ts
 * const judge = createPrismaJudge({ client, mode: 'joint' });
 * const graders = { codeJudge: judge, visionJudge: judge, lambdas: DEFAULT_FAMILY_LAMBDAS };
 * ```
 */
export function createPrismaJudge(opts: PrismaJudgeOptions): PrismaJudge {
  const { client } = opts;
  const mode = opts.mode ?? 'joint';
  const cache = opts.cache ?? null;
  const askRubric = createCachedAsk<Cached>(cache);
  const askDirect = createCachedAsk<DirectAnswer>(cache);
  const scoring = opts.scoring ?? DEFAULT_STRATEGY.scoring;
  const call = {
    temperature: TEMPERATURE,
    maxTokens: opts.maxTokens,
    ...(scoring !== 'greedy' ? { topLogprobs: MAX_TOP_LOGPROBS } : {}),
  };
  // The direct judge's holistic score is on the 0.01 grid, read as written: no logprobs.
  const directCall = { temperature: TEMPERATURE, maxTokens: opts.maxTokens };

  const rubricCall = async (req: RubricJudgeRequest, signal: AbortSignal) => {
    const file = TEMPLATE[req.modality];
    const png = req.modality === 'vision' ? req.png : undefined;
    const values = (items: PrismaItem[]) => ({
      prompt: req.prompt,
      domain: req.domain,
      ...judgedCode(req.code, req.domain, req.items),
      rubric: items.map(renderCriterion).join('\n'),
      keys: items.map((i) => i.key).join(', '),
    });
    const groups = mode === 'joint' ? [req.items] : req.items.map((i) => [i]);
    const results = await Promise.all(
      groups.map((items) =>
        client.generateObject(
          prismaMessages(file, values(items), png),
          (mode === 'joint'
            ? jointItemsSchema(items)
            : itemAnswerSchema(items[0]!)) as z.ZodType<unknown>,
          mode === 'joint' ? 'rubric_verdicts' : 'criterion_verdict',
          { ...call, signal },
        ),
      ),
    );
    let usage: Usage = emptyUsage();
    for (const r of results) usage = addUsage(usage, r.usage);
    const answers: Record<string, ItemAnswer> = {};
    const dists = new Map<string, ScoreMass[] | string>();
    for (const [i, r] of results.entries()) {
      if (!r.ok) {
        const which = mode === 'joint' ? '' : `item ${groups[i]![0]!.key}: `;
        return {
          ok: false as const,
          message: `${which}${r.error.code}: ${r.error.message}`,
          usage,
        };
      }
      const value =
        mode === 'joint'
          ? (r.value as unknown as Record<string, ItemAnswer>)
          : { [groups[i]![0]!.key]: r.value as ItemAnswer };
      Object.assign(answers, value);
      if (scoring !== 'greedy')
        for (const [key, d] of readVerdicts(r, groups[i]!, mode === 'joint')) dists.set(key, d);
    }
    const read = req.items.map((it) => dists.get(it.key) ?? 'greedy scoring');
    const why = read.find((d): d is string => typeof d === 'string');
    if (scoring === 'expected' && why !== undefined)
      return {
        ok: false as const,
        message: `--judge-scoring expected: no usable logprobs (${why}); use auto to fall back to greedy`,
        usage,
      };
    // Every item read from its distribution, or (greedy, or auto without logprobs) none.
    const expected = why === undefined;
    const verdicts = req.items.map((it, k) => {
      const d = read[k]!;
      const base = { key: it.key, rationale: answers[it.key]!.reasoning };
      if (!expected || typeof d === 'string')
        return { ...base, f: itemFraction(it, answers[it.key]!) };
      let f = 0;
      for (const m of d) f += m.p * m.score;
      return { ...base, f, distribution: d };
    });
    return {
      ok: true as const,
      value: { verdicts, scoring: expected ? ('expected' as const) : ('greedy' as const) },
      usage,
    };
  };

  return {
    modelId: client.spec.id,
    mode,
    scoring,
    async judgeRubric(req) {
      // The code judge's evidence is the copy it reads: answers differing only in comments
      // share one judgement.
      const evidence =
        req.modality === 'vision'
          ? sha256(req.png ?? '')
          : sha256(judgedCode(req.code, req.domain, req.items).code);
      const key = cacheKey([
        'prisma-judge',
        ...modelKeyParts(client),
        loadPromptTemplate(TEMPLATE[req.modality]).version,
        req.modality,
        mode,
        TEMPERATURE,
        // Greedy keys stay as they were before scoring modes, so old answers are still found.
        ...(scoring === 'greedy' ? [] : [`scoring:${scoring}`]),
        req.domain,
        sha256(JSON.stringify([req.prompt, req.items])),
        evidence,
        ...(req.assets ? [`assets:${req.assets}`] : []),
      ]);
      const out = await askRubric(key, (s) => rubricCall(req, s), req.signal);
      if (!out.ok) return out;
      return { ...out, value: out.value.verdicts };
    },
    async judgeDirect(req) {
      const file = TEMPLATE.direct;
      const key = cacheKey([
        'prisma-direct',
        ...modelKeyParts(client),
        loadPromptTemplate(file).version,
        TEMPERATURE,
        req.domain,
        sha256(req.prompt),
        sha256(judgedCode(req.code, req.domain).code),
        sha256(req.png),
        ...(req.assets ? [`assets:${req.assets}`] : []),
      ]);
      const values = {
        prompt: req.prompt,
        domain: req.domain,
        ...judgedCode(req.code, req.domain),
      };
      const out = await askDirect(
        key,
        async (signal) => {
          const r = await client.generateObject(
            prismaMessages(file, values, req.png),
            DirectAnswerSchema,
            'overall_score',
            { ...directCall, signal },
          );
          return r.ok
            ? { ok: true, value: r.value, usage: r.usage }
            : { ok: false, message: `${r.error.code}: ${r.error.message}`, usage: r.usage };
        },
        req.signal,
      );
      if (!out.ok) return out;
      return {
        ...out,
        value: { key: 'holistic', f: out.value.score, rationale: out.value.reasoning },
      };
    },
  };
}
