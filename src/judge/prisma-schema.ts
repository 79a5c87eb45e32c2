// The answer shapes of PrismaForge's two judges, built from the rubric items so the JSON
// Schema a guided decoder follows and the parse accept exactly the same answers. A yes/no
// item (count 1) is {reasoning, satisfied: boolean}; a counting item of n things is
// {reasoning, satisfied_count: 0…n} as an `enum` (decoders ignore numeric bounds), scored
// f = satisfied_count / n. Joint mode: one object with a property per item key, in rubric
// order; per-item mode: one item's shape. Reasoning comes first so it is written before the
// verdict.

import { z } from 'zod';
import type { GraderFault } from '../core/status.ts';
import type { PrismaItem } from '../rubric/prisma-schema.ts';
import type { ScoreMass } from './score-distribution.ts';

const Binary = z.strictObject({ reasoning: z.string(), satisfied: z.boolean() });

const counting = new Map<number, z.ZodType>();
function countSchema(n: number): z.ZodType {
  let s = counting.get(n);
  if (!s) {
    const allowed = Array.from({ length: n + 1 }, (_, i) => i) as [number, ...number[]];
    s = z.strictObject({ reasoning: z.string(), satisfied_count: z.literal(allowed) });
    counting.set(n, s);
  }
  return s;
}

export type ItemAnswer =
  | { reasoning: string; satisfied: boolean }
  | { reasoning: string; satisfied_count: number };

export function itemAnswerSchema(item: Pick<PrismaItem, 'count'>): z.ZodType<ItemAnswer> {
  return (item.count === 1 ? Binary : countSchema(item.count)) as z.ZodType<ItemAnswer>;
}

const joint = new Map<string, z.ZodType<Record<string, ItemAnswer>>>();
const JOINT_CACHE_MAX = 1024;

export function jointItemsSchema(
  items: readonly Pick<PrismaItem, 'key' | 'count'>[],
): z.ZodType<Record<string, ItemAnswer>> {
  const id = JSON.stringify(items.map((i) => [i.key, i.count]));
  let s = joint.get(id);
  if (!s) {
    const shape: Record<string, z.ZodType> = {};
    for (const it of items) shape[it.key] = itemAnswerSchema(it);
    s = z.strictObject(shape) as unknown as z.ZodType<Record<string, ItemAnswer>>;
    if (joint.size >= JOINT_CACHE_MAX) joint.clear();
    joint.set(id, s);
  }
  return s;
}

/** f ∈ [0,1]: 1/0 for a yes/no item, the share satisfied for a counting one. */
export function itemFraction(item: Pick<PrismaItem, 'count'>, a: ItemAnswer): number {
  if ('satisfied' in a) return a.satisfied ? 1 : 0;
  return a.satisfied_count / item.count;
}

/**
 * The answers an item's verdict token may read as, and the f each gives: `true`/`false` for a
 * yes/no item, the digits 0…n for a count of n ≤ 9 (one token each). null: a count of 10 or
 * more is written in several tokens, so its distribution cannot be read from one.
 */
export function itemAnswers(item: Pick<PrismaItem, 'count'>): Map<string, number> | null {
  if (item.count === 1)
    return new Map([
      ['true', 1],
      ['false', 0],
    ]);
  if (item.count > 9) return null;
  return new Map(Array.from({ length: item.count + 1 }, (_, i) => [String(i), i / item.count]));
}

/** Where an item's verdict sits in the answer (joint: under its key; per-item: at the top). */
export function verdictPath(item: Pick<PrismaItem, 'key' | 'count'>, joint: boolean): string[] {
  const field = item.count === 1 ? 'satisfied' : 'satisfied_count';
  return joint ? [item.key, field] : [field];
}

/**
 * One item's verdict: f ∈ [0,1] (share of counted things satisfied), or null and why. Under
 * expected scoring f is Σ p·f over the judge's distribution of allowed verdicts, which is kept.
 */
export interface ItemVerdict {
  key: string;
  f: number | null;
  rationale?: string;
  reason?: GraderFault;
  distribution?: ScoreMass[];
}
