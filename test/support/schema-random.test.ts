// The schema-driven generator stays inside its schema (checked by zod's own JSON Schema
// reader, an implementation independent of ours), reaches the edges a guided decoder can
// reach, and refuses keywords it does not understand instead of ignoring them.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { randomInstance, seededRng } from './schema-random.ts';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    note: { type: 'string' },
    score: { type: 'number', minimum: 0, maximum: 1 },
    grid: { type: 'number', enum: [0, 0.5, 1] },
    n: { type: 'integer', minimum: 2, maximum: 4 },
    kind: { const: 'k' },
    tags: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 3 },
    open: { type: 'object', properties: { a: { type: 'boolean' } } },
  },
  required: ['name', 'score', 'grid', 'n', 'kind', 'tags', 'open'],
  additionalProperties: false,
};

describe('randomInstance', () => {
  const values = Array.from({ length: 400 }, (_, seed) => randomInstance(SCHEMA, seededRng(seed)));

  it('every value satisfies the schema', () => {
    const check = z.fromJSONSchema(SCHEMA as never);
    for (const v of values) expect(check.safeParse(v).success, JSON.stringify(v)).toBe(true);
  });

  it('reaches the edges: empty and whitespace-only strings, both bounds, odd text, extra keys', () => {
    const all = values as Record<string, unknown>[];
    const notes = all.map((v) => v.note).filter((x): x is string => typeof x === 'string');
    expect(notes).toContain('');
    expect(notes.some((s) => s.length > 0 && s.trim() === '')).toBe(true);
    expect(all.some((v) => String(v.name).trim() === '')).toBe(true);
    expect(all.map((v) => v.score)).toContain(0);
    expect(all.map((v) => v.score)).toContain(1);
    expect(new Set(all.map((v) => v.n))).toEqual(new Set([2, 3, 4]));
    expect(notes.some((s) => /["\\\n]|<\/?think>|```/.test(s))).toBe(true);
    expect(all.some((v) => Object.keys(v.open as object).some((k) => k.startsWith('x_')))).toBe(
      true,
    );
    expect(all.every((v) => Object.keys(v).every((k) => k in SCHEMA.properties))).toBe(true);
  });

  it('refuses what it does not understand rather than ignoring a constraint', () => {
    expect(() => randomInstance({ type: 'string', pattern: '^a$' }, seededRng(1))).toThrow(
      /pattern/,
    );
    expect(() => randomInstance({ type: 'array', uniqueItems: true }, seededRng(1))).toThrow(
      /uniqueItems/,
    );
  });
});
