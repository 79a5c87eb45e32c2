// Elapsed time over a resumed run: every invocation's time is kept and summed, an old run
// dir gives its earlier time from summary.json, and a torn line costs only its own part.
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendPart, PARTS_FILE, readParts, seedParts, totalOf } from './run-parts.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rubrica-parts-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const part = (ms: number, interrupted = false) => ({
  started_at: '2026-12-01T00:00:00Z',
  elapsed_ms: ms,
  scored: 1,
  interrupted,
});

describe('run parts', () => {
  it('sums every invocation, interrupted ones included', async () => {
    const dir = await mkdtemp(join(root, 'a-'));
    await seedParts(dir); // nothing to seed: a new run
    expect(await readParts(dir)).toEqual([]);
    await appendPart(dir, part(1000, true));
    await appendPart(dir, part(2500));
    await appendFile(join(dir, PARTS_FILE), '{"started_at":"x","elaps');
    await appendPart(dir, part(500));
    expect(totalOf(await readParts(dir))).toEqual({ elapsed_ms: 4000, parts: 3 });
  });

  it('recovers the time of a run dir written before parts.jsonl', async () => {
    const dir = await mkdtemp(join(root, 'b-'));
    await writeFile(
      join(dir, 'summary.json'),
      JSON.stringify({ elapsed_ms: 7000, created_at: '2026-11-30T00:00:00Z' }),
    );
    await seedParts(dir);
    await seedParts(dir); // once only
    await appendPart(dir, part(3000));
    const parts = await readParts(dir);
    expect(parts[0]).toMatchObject({ elapsed_ms: 7000, source: 'summary.json' });
    expect(totalOf(parts)).toEqual({ elapsed_ms: 10000, parts: 2 });
  });
});
