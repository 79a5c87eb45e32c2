// The pairwise judge (issue 37, `--judging pairwise`): shows two pictures drawn for one prompt
// and asks which fulfils it better — "first", "second" or "tie". One call is one ORDERED
// pair; the caller asks both orders, so the judge's liking for the picture shown first
// cancels out. Answers are cached per ordered pair (the judge asked, prompt version, prompt
// and criteria, both pictures in order, the task's data) and identical calls in flight share
// one request (cached-ask.ts). A failed call is a fault value, never a throw and never a loss
// for either picture: the caller masks it.
import { z } from 'zod';
import type { ModelClient } from '../models/types.ts';
import { fillTemplate, loadPromptTemplate, sha256 } from '../rubric/prompt-file.ts';
import type { AnswerCache } from '../store/cache.ts';
import { cacheKey, modelKeyParts } from '../store/keys.ts';
import { JUDGE_TEMPERATURE } from './ask.ts';
import { type Asked, createCachedAsk } from './cached-ask.ts';
import { pngDataUrl } from './prompt.ts';
import { neutraliseMessages } from './template-tokens.ts';

export type { JudgingMode, PairsMode } from './strategy.ts';

export const PairwiseAnswerSchema = z.object({
  reasoning: z.string(),
  winner: z.enum(['first', 'second', 'tie']),
});
export type PairwiseAnswer = z.infer<typeof PairwiseAnswerSchema>;

/** One ordered comparison: `first` is shown as picture 1. */
export interface PairRequest {
  prompt: string;
  /** What "better" means, as text (the rubric's items, or a default line). */
  criteria: string;
  first: Buffer;
  second: Buffer;
  /** Content hash of the task's data files, when it has any (part of the key). */
  assets?: string | null;
  signal?: AbortSignal;
}

export interface PairwiseJudge {
  readonly modelId: string;
  readonly promptVersion: string;
  compare(req: PairRequest): Promise<Asked<PairwiseAnswer>>;
}

const TEMPLATE = 'judge/pairwise.md';

/** A pairwise judge over one client; `cache` null: no cache. */
export function createPairwiseJudge(opts: {
  client: ModelClient;
  cache?: AnswerCache | null;
  maxTokens?: number;
}): PairwiseJudge {
  const { client } = opts;
  const template = loadPromptTemplate(TEMPLATE);
  const ask = createCachedAsk<PairwiseAnswer>(opts.cache ?? null);
  return {
    modelId: client.spec.id,
    promptVersion: template.version,
    compare(req) {
      const key = cacheKey([
        'pairwise',
        ...modelKeyParts(client),
        template.version,
        JUDGE_TEMPERATURE,
        sha256(JSON.stringify([req.prompt, req.criteria])),
        sha256(req.first),
        sha256(req.second),
        ...(req.assets ? [`assets:${req.assets}`] : []),
      ]);
      const values = { prompt: req.prompt, rubric: req.criteria };
      return ask(
        key,
        async (signal) => {
          // The prompt and criteria come from data: their chat-template token strings are
          // rewritten visibly, as in every other judge message (template-tokens.ts), and the
          // rollout's record counts them (judge-input-tally.ts).
          const res = await client.generateObject(
            neutraliseMessages([
              { role: 'system', content: fillTemplate(template.system, values) },
              {
                role: 'user',
                content: [
                  { type: 'text', text: fillTemplate(template.user, values) },
                  { type: 'image', dataUrl: pngDataUrl(req.first) },
                  { type: 'image', dataUrl: pngDataUrl(req.second) },
                ],
              },
            ]),
            PairwiseAnswerSchema,
            'pairwise_verdict',
            { temperature: JUDGE_TEMPERATURE, maxTokens: opts.maxTokens, signal },
          );
          if (!res.ok)
            return {
              ok: false,
              message: `${res.error.code}: ${res.error.message}`,
              usage: res.usage,
            };
          return { ok: true, value: res.value, usage: res.usage };
        },
        req.signal,
      );
    },
  };
}
