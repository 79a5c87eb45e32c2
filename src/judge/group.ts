// The group judge (issue 37, `--judging group`): one call shows the judge several pictures
// drawn for one prompt, in a given order, and asks for one score per picture and rubric item
// on the one-digit scale of the absolute path (0–9, score = digit ÷ 9). Each score is read
// like an absolute one (ask.ts): the expected value of the judge's digit distribution, found
// by character offset in the returned token stream (json-offsets.ts, score-distribution.ts),
// when the server returns usable logprobs; the written digit ÷ 9 otherwise (`auto`), or
// always (`greedy`); `expected` without logprobs is a fault.
//
// The answer is one JSON object with a property `p<N>_<item key>` per picture and item, each
// {reasoning, score} — the joint answer's shape with composite keys, so a guided decoder and
// the offset reader treat it like any joint answer. Answers are cached per ORDERED list of
// pictures (the judge asked, prompt version, scoring mode, prompt and items, every picture's
// hash in order, the task's data) and identical calls in flight share one request. Everything
// sent passes the template-token neutraliser (issue 41). A failed call is a fault value, never
// a throw: the caller masks it.
import { MAX_TOP_LOGPROBS, type ServedBy } from '../models/logprobs.ts';
import type { ChatMessage, ContentPart, ModelClient } from '../models/types.ts';
import { fillTemplate, loadPromptTemplate, sha256 } from '../rubric/prompt-file.ts';
import type { RubricItem } from '../rubric/schema.ts';
import type { AnswerCache } from '../store/cache.ts';
import { cacheKey, modelKeyParts } from '../store/keys.ts';
import { JUDGE_TEMPERATURE } from './ask.ts';
import { type Asked, createCachedAsk } from './cached-ask.ts';
import { numberSpans, spanAt } from './json-offsets.ts';
import { pngDataUrl, renderItem } from './prompt.ts';
import { DIGIT_SCORES, jointAnswerSchema } from './schema.ts';
import { type ScoreMass, scoreDistribution } from './score-distribution.ts';
import type { ScoringMode, ScoringUsed } from './strategy.ts';
import { neutraliseMessages } from './template-tokens.ts';

/** Pictures shown in one call at most: a larger group is judged in chunks (group-relative.ts). */
export const GROUP_CHUNK_MAX = 8;

/** One ordered group call: `pictures[k]` is shown as picture k+1. */
export interface GroupRequest {
  prompt: string;
  /** The rubric's items, or the default criteria as one item. */
  items: readonly RubricItem[];
  pictures: readonly Buffer[];
  /** Content hash of the task's data files, when it has any (part of the key). */
  assets?: string | null;
  signal?: AbortSignal;
}

/** One picture's scores in one call, by item key, each in [0, 1]. */
export interface GroupPictureScores {
  scores: Record<string, { score: number; distribution?: ScoreMass[] }>;
}

/** What a group call answered (and what the cache stores). */
export interface GroupAnswer {
  /** One entry per picture, in the order shown. */
  pictures: GroupPictureScores[];
  scoring: ScoringUsed;
  servedBy?: ServedBy;
}

export interface GroupJudge {
  readonly modelId: string;
  readonly promptVersion: string;
  rate(req: GroupRequest): Promise<Asked<GroupAnswer>>;
}

const TEMPLATE = 'judge/group.md';

/** The answer property of picture `pos` (0-based) on `key`. */
export const groupKeyOf = (pos: number, key: string) => `p${pos + 1}_${key}`;

/** SGLang reports logprobs after the request's temperature; the others before it. */
const reportedTemperature = (client: ModelClient) =>
  client.spec.provider === 'sglang' ? JUDGE_TEMPERATURE : 0;

function groupMessages(req: GroupRequest, keys: string[]): ChatMessage[] {
  const template = loadPromptTemplate(TEMPLATE);
  const values = {
    prompt: req.prompt,
    rubric: req.items.map(renderItem).join('\n\n'),
    count: String(req.pictures.length),
    keys: keys.join(', '),
  };
  const images: ContentPart[] = req.pictures.map((p) => ({
    type: 'image',
    dataUrl: pngDataUrl(p),
  }));
  return neutraliseMessages([
    { role: 'system', content: fillTemplate(template.system, values) },
    {
      role: 'user',
      content: [{ type: 'text', text: fillTemplate(template.user, values) }, ...images],
    },
  ]);
}

/** A group judge over one client; `cache` null: no cache. */
export function createGroupJudge(opts: {
  client: ModelClient;
  cache?: AnswerCache | null;
  scoring: ScoringMode;
  maxTokens?: number;
}): GroupJudge {
  const { client, scoring } = opts;
  const template = loadPromptTemplate(TEMPLATE);
  const ask = createCachedAsk<GroupAnswer>(opts.cache ?? null);
  return {
    modelId: client.spec.id,
    promptVersion: template.version,
    rate(req) {
      const key = cacheKey([
        'group',
        ...modelKeyParts(client),
        template.version,
        JUDGE_TEMPERATURE,
        `scoring:${scoring}`,
        sha256(JSON.stringify([req.prompt, req.items])),
        ...req.pictures.map((p) => sha256(p)),
        ...(req.assets ? [`assets:${req.assets}`] : []),
      ]);
      const props = req.pictures.flatMap((_, pos) =>
        req.items.map((it) => ({ pos, item: it.key, key: groupKeyOf(pos, it.key) })),
      );
      const keys = props.map((p) => p.key);
      return ask(
        key,
        async (signal) => {
          const res = await client.generateObject(
            groupMessages(req, keys),
            jointAnswerSchema(
              keys.map((k) => ({ key: k })),
              'digit',
            ),
            'group_scores',
            {
              temperature: JUDGE_TEMPERATURE,
              maxTokens: opts.maxTokens,
              signal,
              ...(scoring === 'greedy' ? {} : { topLogprobs: MAX_TOP_LOGPROBS }),
            },
          );
          if (!res.ok)
            return {
              ok: false,
              message: `${res.error.code}: ${res.error.message}`,
              usage: res.usage,
            };
          // The text is parsed once, by the client; the offsets only say where each digit sits.
          const spans = scoring === 'greedy' ? null : numberSpans(res.raw);
          const read = props.map(({ key: k }) => {
            const written = (res.value[k]!.score as number) / 9;
            if (scoring === 'greedy') return { written, dist: 'greedy scoring' as const };
            const span = spans && spanAt(spans, [k, 'score']);
            if (!span) return { written, dist: 'the score was not found in the answer text' };
            const d = scoreDistribution(
              res.logprobs,
              res.raw,
              span,
              DIGIT_SCORES,
              reportedTemperature(client),
            );
            return { written, dist: d.ok ? d.distribution : d.reason };
          });
          const allRead = read.every((r) => typeof r.dist !== 'string');
          if (scoring === 'expected' && !allRead) {
            const why = read.find((r) => typeof r.dist === 'string')?.dist;
            return {
              ok: false,
              message: `--judge-scoring expected: no usable logprobs (${why}); use auto to fall back to greedy`,
              usage: res.usage,
            };
          }
          const pictures: GroupPictureScores[] = req.pictures.map(() => ({ scores: {} }));
          props.forEach(({ pos, item }, i) => {
            const { written, dist } = read[i]!;
            if (allRead && typeof dist !== 'string') {
              let e = 0;
              for (const m of dist) e += m.p * m.score;
              pictures[pos]!.scores[item] = { score: e, distribution: dist };
            } else pictures[pos]!.scores[item] = { score: written };
          });
          const value: GroupAnswer = {
            pictures,
            scoring: allRead ? 'expected' : 'greedy',
            ...(res.servedBy && Object.keys(res.servedBy).length ? { servedBy: res.servedBy } : {}),
          };
          return { ok: true, value, usage: res.usage };
        },
        req.signal,
      );
    },
  };
}
