// A hand-written PrismaForge rubric (the SVG domain's shared criteria plus specific ones,
// one of them counting three things) and helpers that read the double's requests.
import type { PrismaItem, PrismaRubric } from '../../src/rubric/prisma-schema.ts';
import { loadSharedCriteria } from '../../src/rubric/shared-criteria.ts';
import type { DoubleRequest } from '../support/model-double.ts';

const specific = (
  modality: 'code' | 'vision',
  i: number,
  criterion: string,
  weight: number,
  count = 1,
): PrismaItem => ({ key: `specific_${i}`, modality, origin: 'specific', criterion, weight, count });

export function prismaRubric(id: string, prompt: string, family = 'svg'): PrismaRubric {
  const shared = loadSharedCriteria('svg');
  return {
    id,
    prompt,
    preset: 'prisma',
    domain: 'svg',
    family,
    difficulty: 1,
    code_items: [
      ...shared.code,
      specific('code', 1, 'Uses at least three distinct fill colours', 2),
      specific('code', 2, 'Defines the eyes, the nose and the mouth as separate shapes', 3, 3),
    ],
    vision_items: [
      ...shared.vision,
      specific('vision', 1, 'The face is centred on the canvas', 1),
      specific('vision', 2, 'The two eyes and the mouth are visible', 3, 3),
    ],
    kept: true,
    author: 'test:author',
    versions: { author: 'x', shared: shared.version },
    usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 },
  };
}

/** f of one answered criterion: a yes/no → 1/0, a count → share. */
export function fOf(item: PrismaItem, a: Record<string, unknown>): number {
  if (typeof a.satisfied === 'boolean') return a.satisfied ? 1 : 0;
  return (a.satisfied_count as number) / item.count;
}

/** Σ w·f / Σ w over items, from a joint answer object. */
export function groupScore(items: PrismaItem[], answer: Record<string, Record<string, unknown>>) {
  let num = 0;
  let den = 0;
  for (const it of items) {
    num += it.weight * fOf(it, answer[it.key]!);
    den += it.weight;
  }
  return num / den;
}

export const isCodeJudge = (r: DoubleRequest) => r.text.includes('strict code reviewer');
export const isVisionJudge = (r: DoubleRequest) => r.text.includes('strict visual inspector');
export const isDirectJudge = (r: DoubleRequest) => r.schemaName === 'overall_score';
