// Shared pieces of the scoring tests: a hand-written RULER rubric, judge answers with
// chosen scores, a judge client pointed at the loopback double, and a real PNG.
import sharp from 'sharp';
import { createModelClient, type RubricaModelClient } from '../../../src/models/client.ts';
import type { AuthorAnswer } from '../../../src/rubric/answer-schema.ts';
import { getPreset } from '../../../src/rubric/presets.ts';
import type { RubricItem, RubricRecord } from '../../../src/rubric/schema.ts';
import { validateAuthorAnswer } from '../../../src/rubric/validate.ts';
import type { DoubleRequest } from '../../support/model-double.ts';

export const RULER_KEYS = getPreset('ruler').items.map((i) => i.key);

const TEXT: Record<string, [string, string]> = {
  concept_recognisability: ['Instantly readable', 'A viewer names the subject at a glance.'],
  key_parts: ['Distinctive parts', 'The parts that make this subject itself are present.'],
  silhouette_refinement: ['Refined outlines', 'Curves are smooth and well proportioned.'],
  composition: ['Balanced layout', 'Centred, fully inside the canvas, with breathing room.'],
  finish_craftsmanship: ['Clean finish', 'Joins are tidy with no stray strokes or debris.'],
  stylistic_coherence: ['Coherent style', 'One palette and line treatment with purposeful detail.'],
};

/** The author's step-2 answer for a prompt, valid for the ruler preset (key → item text). */
export function authorAnswerFor(subject: string): AuthorAnswer {
  return Object.fromEntries(
    RULER_KEYS.map((key) => [
      key,
      {
        title: `${TEXT[key]![0]} (${subject})`,
        description: TEXT[key]![1],
        bands: ['excellent', 'strong', 'partial', 'weak', 'absent'].map((b) => `${b} ${key}`),
      },
    ]),
  );
}

export function rulerItems(subject: string): RubricItem[] {
  const r = validateAuthorAnswer(getPreset('ruler'), subject, authorAnswerFor(subject));
  if (!r.ok) throw new Error(r.message);
  return r.items;
}

export function rulerRubric(id: string, prompt: string): RubricRecord {
  return {
    id,
    prompt,
    preset: 'ruler',
    items: rulerItems(prompt),
    ideal_svg: null,
    ideal_score: 0.95,
    kept: true,
    author: 'test:author',
    judge: 'test:judge',
    usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 },
  };
}

/** A joint-mode answer giving `scores[i]` to the i-th key. */
export function jointAnswer(keys: string[], scores: (number | string)[]) {
  const out: Record<string, { reasoning: string; score: number | string }> = {};
  keys.forEach((k, i) => {
    out[k] = { reasoning: `looked at ${k}`, score: scores[i]! };
  });
  return out;
}

/** The item keys a joint-mode request's schema asks for, in order. */
export function schemaKeys(req: DoubleRequest): string[] {
  return Object.keys((req.schema?.properties ?? {}) as Record<string, unknown>);
}

export function judgeClient(
  url: string,
  extra: { timeoutMs?: number; maxRetries?: number } = {},
): RubricaModelClient {
  return createModelClient('openai-compatible:test-judge', {
    role: 'judge',
    baseUrl: url,
    env: {},
    retryBaseMs: 1,
    retryMaxMs: 5,
    timeoutMs: extra.timeoutMs ?? 10_000,
    maxRetries: extra.maxRetries ?? 2,
  });
}

export function authorClient(url: string): RubricaModelClient {
  return createModelClient('openai-compatible:test-author', {
    role: 'author',
    baseUrl: url,
    env: {},
    retryBaseMs: 1,
    retryMaxMs: 5,
    maxRetries: 1,
  });
}

/** A small real PNG of one colour (different colours → different image hashes). */
export function solidPng(r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 64, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}
