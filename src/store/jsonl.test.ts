// JSONL runs: torn-line repair, skipping done ids and duplicates, in-order writes while
// work completes out of order, and bad input lines reported with their line numbers.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openJsonlOutput, readJsonlInputs, runJsonl } from './jsonl.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'rubrica-jsonl-'));
const lines = (p: string) =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; n?: number });

describe('readJsonlInputs', () => {
  it('returns valid items and line-numbered errors', () => {
    const p = join(tmp(), 'in.jsonl');
    writeFileSync(
      p,
      '{"id":"a","prompt":"cat"}\n\nnot json\n{"id":3}\n{"id":"b","prompt":"dog"}\n',
    );
    const r = readJsonlInputs(p, z.object({ id: z.string(), prompt: z.string() }));
    expect(r.items.map((i) => i.id)).toEqual(['a', 'b']);
    expect(r.errors.map((e) => e.line)).toEqual([3, 4]);
    expect(r.errors[1]!.message).toMatch(/^id: /);
  });
});

describe('openJsonlOutput + runJsonl', () => {
  it('repairs a torn last line, skips done and duplicate ids, writes in input order', async () => {
    const p = join(tmp(), 'out.jsonl');
    writeFileSync(p, '{"id":"x1","n":1}\n{"id":"x2","n":2}\n{"id":"x3","n"');
    const out = openJsonlOutput(p);
    expect(out.repairedBytes).toBe('{"id":"x3","n"'.length);
    expect([...out.done]).toEqual(['x1', 'x2']);
    const inputs = ['x1', 'x2', 'x3', 'x4', 'x5', 'x3', 'x6'].map((id, n) => ({ id, n }));
    const order: string[] = [];
    const r = await runJsonl({
      inputs,
      out,
      concurrency: 4,
      // Later items finish first: the writer must still keep input order.
      process: async (it) => {
        await new Promise((res) => setTimeout(res, 40 - it.n * 5));
        return { id: it.id, n: it.n };
      },
      onWritten: (rec) => order.push(rec.id),
    });
    out.close();
    expect(r).toEqual({ written: 4, skippedDone: 2, skippedDuplicate: 1 });
    expect(order).toEqual(['x3', 'x4', 'x5', 'x6']);
    expect(lines(p).map((l) => l.id)).toEqual(['x1', 'x2', 'x3', 'x4', 'x5', 'x6']);
  });

  it('leaves a file that ends with a newline untouched', () => {
    const p = join(tmp(), 'out.jsonl');
    writeFileSync(p, '{"id":"a"}\n');
    const out = openJsonlOutput(p);
    out.append({ id: 'b' });
    out.close();
    expect(out.repairedBytes).toBe(0);
    expect(lines(p).map((l) => l.id)).toEqual(['a', 'b']);
  });
});
