// JSONL runs: byte-level line reading (UTF-8 checked per line, lines cut across chunks),
// exact ids and the duplicate-id policy, "not JSONL" detection, torn-line repair, grader
// faults redone and compacted to one line per id in place, numeric ids written back as
// numbers, in-order writes while work completes out of order, and a prompt stop on abort.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ExactIdSchema,
  itemsSource,
  JsonlFormatError,
  openJsonlOutput,
  readJsonlFile,
  runJsonl,
} from './jsonl.ts';
import { type RawLine, readLines } from './jsonl-lines.ts';
import { OutputLockedError } from './lock.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'rubrica-jsonl-'));
const rawLines = (p: string) => readFileSync(p, 'utf8').split('\n').filter(Boolean);
const lines = (p: string) => rawLines(p).map((l) => JSON.parse(l) as { id: string; n?: number });
const Prompt = z.object({ id: ExactIdSchema, prompt: z.string() });

async function collect(p: string, chunkBytes?: number): Promise<RawLine[]> {
  const out: RawLine[] = [];
  for await (const l of readLines(p, { chunkBytes })) out.push(l);
  return out;
}

describe('readLines', () => {
  it('reports a line that is not valid UTF-8 with its number and reads the rest', async () => {
    const p = join(tmp(), 'in.jsonl');
    writeFileSync(
      p,
      Buffer.concat([
        Buffer.from('{"id":"a"}\n{"id":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}\n{"id":"é"}\r\n{"id":"z"}'),
      ]),
    );
    // Tiny chunks cut lines (and the two-byte é) across reads.
    const got = await collect(p, 3);
    expect(got.map((l) => [l.line, l.text ?? l.error])).toEqual([
      [1, '{"id":"a"}'],
      [2, 'not valid UTF-8 (re-encode the file as UTF-8)'],
      [3, '{"id":"é"}'],
      [4, '{"id":"z"}'],
    ]);
    expect(got.at(-1)!.terminated).toBe(false);
    expect(got[2]!.start).toBe(Buffer.byteLength('{"id":"a"}\n{"id":"') + 2 + 3);
  });
});

describe('readJsonlFile: ids and format', () => {
  it('keeps ids exactly: refuses unsafe numbers, reports 1 vs "1" as a duplicate with both lines', async () => {
    const p = join(tmp(), 'in.jsonl');
    writeFileSync(
      p,
      [
        '{"id":1,"prompt":"cat"}',
        '{"id":"1","prompt":"dog"}',
        '{"id":12345678901234567890,"prompt":"big"}',
        '{"id":2.5,"prompt":"half"}',
        '{"id":"b","prompt":"emu"}',
        '{"id":"b","prompt":"emu again"}',
      ].join('\n'),
    );
    const r = await readJsonlFile(p, Prompt);
    expect(r.items.map((i) => [i.line, i.item.id, i.rawId])).toEqual([
      [1, '1', 1],
      [5, 'b', undefined],
    ]);
    expect(r.errors.map((e) => e.line)).toEqual([2, 3, 4, 6]);
    expect(r.errors[0]!.message).toBe('duplicate id "1" (first on line 1); this line is skipped');
    expect(r.errors[1]!.message).toMatch(
      /^id: a numeric id must be an integer .* write it as a string$/,
    );
    expect(r.errors[3]!.message).toContain('(first on line 5)');
  });

  it('says once what format is expected for a JSON array, pretty JSON or Markdown', async () => {
    const dir = tmp();
    const cases: [string, string, RegExp][] = [
      [
        'array.json',
        '[\n  {"id":"a","prompt":"x"},\n  {"id":"b","prompt":"y"}\n]\n',
        /JSON array.*jq -c/,
      ],
      ['pretty.json', '{\n  "id": "a",\n  "prompt": "x"\n}\n', /pretty-printed JSON/],
      ['notes.md', '# Prompts\n\nSome prose here.\n- a cat\n- a dog\n', /Markdown/],
    ];
    for (const [name, text, want] of cases) {
      const p = join(dir, name);
      writeFileSync(p, text);
      const err = await readJsonlFile(p, Prompt, { example: '{"id":"p1","prompt":"…"}' }).catch(
        (e: unknown) => e,
      );
      expect(err, name).toBeInstanceOf(JsonlFormatError);
      expect((err as Error).message, name).toMatch(want);
      expect((err as Error).message).toContain('one JSON object per line, like {"id":"p1"');
    }
  });

  it('a few bad lines among good ones are line errors, not a format error', async () => {
    const p = join(tmp(), 'in.jsonl');
    writeFileSync(p, 'oops\n{"id":"a","prompt":"x"}\nnope\n# x\n{"id":"b","prompt":"y"}\n');
    const r = await readJsonlFile(p, Prompt);
    expect(r.items.map((i) => i.item.id)).toEqual(['a', 'b']);
    expect(r.errors.map((e) => e.line)).toEqual([1, 3, 4]);
  });
});

describe('openJsonlOutput + runJsonl', () => {
  it('repairs a torn last line, skips done ids, writes in input order', async () => {
    const p = join(tmp(), 'out.jsonl');
    writeFileSync(p, '{"id":"x1","n":1}\n{"id":"x2","n":2}\n{"id":"x3","n"');
    const out = await openJsonlOutput(p);
    expect(out.repairedBytes).toBe('{"id":"x3","n"'.length);
    expect([...out.done]).toEqual(['x1', 'x2']);
    const inputs = ['x1', 'x2', 'x3', 'x4', 'x5', 'x6'].map((id, n) => ({ id, n }));
    const order: string[] = [];
    const r = await runJsonl({
      source: itemsSource(inputs),
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
    expect(r).toMatchObject({ written: 4, skippedDone: 2, retried: 0, interrupted: false });
    expect(order).toEqual(['x3', 'x4', 'x5', 'x6']);
    expect(lines(p).map((l) => l.id)).toEqual(['x1', 'x2', 'x3', 'x4', 'x5', 'x6']);
  });

  it('redoes grader faults and compacts to one line per id, the new line where the old stood', async () => {
    const p = join(tmp(), 'out.jsonl');
    writeFileSync(
      p,
      [
        '{"id":"a","reason":"judge_error"}',
        '{"id":"b","reward":0.5}',
        '{"id":"c","reason":"cache_error"}',
        'a corrupt complete line',
        '',
      ].join('\n'),
    );
    const out = await openJsonlOutput(p, { redo: (l) => l.reason !== undefined });
    expect([...out.redo].sort()).toEqual(['a', 'c']);
    const r = await runJsonl({
      source: itemsSource(['a', 'b', 'c', 'd'].map((id) => ({ id }))),
      out,
      concurrency: 2,
      process: async (it) => ({ id: it.id, reward: 1 }),
    });
    expect(r).toMatchObject({ written: 3, skippedDone: 1, retried: 2 });
    expect(out.needsCompaction).toBe(true);
    expect(await out.compact()).toBe(2);
    out.append({ id: 'e' }); // still appendable after the rewrite
    out.close();
    expect(rawLines(p)).toEqual([
      '{"id":"a","reward":1}',
      '{"id":"b","reward":0.5}',
      '{"id":"c","reward":1}',
      'a corrupt complete line',
      '{"id":"d","reward":1}',
      '{"id":"e"}',
    ]);
    expect(existsSync(`${p}.lock`)).toBe(false);
  });

  it('writes numeric ids back as numbers and treats them as done on resume', async () => {
    const dir = tmp();
    const inp = join(dir, 'in.jsonl');
    writeFileSync(inp, '{"id":7,"prompt":"a"}\n{"id":"8","prompt":"b"}\n');
    const p = join(dir, 'out.jsonl');
    const items = (await readJsonlFile(inp, Prompt)).items;
    let out = await openJsonlOutput(p);
    await runJsonl({ source: items, out, concurrency: 1, process: async (it) => ({ id: it.id }) });
    out.close();
    expect(rawLines(p)).toEqual(['{"id":7}', '{"id":"8"}']);
    out = await openJsonlOutput(p);
    expect([...out.done]).toEqual(['7', '8']);
    out.close();
  });

  it('stops at once when aborted: nothing more is written, the file stays whole', async () => {
    const p = join(tmp(), 'out.jsonl');
    const out = await openJsonlOutput(p);
    const ac = new AbortController();
    const t0 = Date.now();
    const r = await runJsonl({
      source: itemsSource(Array.from({ length: 50 }, (_, i) => ({ id: `r${i}`, i }))),
      out,
      concurrency: 2,
      signal: ac.signal,
      process: async (it) => {
        if (it.i === 5) ac.abort();
        // Work that would take long: an abort must not wait for it.
        await new Promise((res) => setTimeout(res, it.i >= 5 ? 2000 : 5));
        return { id: it.id };
      },
    });
    out.close();
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(r.interrupted).toBe(true);
    const ids = lines(p).map((l) => l.id);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => `r${i}`));
    expect(ids.length).toBeLessThanOrEqual(5);
  });
});

describe('drain (SIGTERM)', () => {
  it('stops taking inputs but writes every result in flight, in order', async () => {
    const p = join(tmp(), 'out.jsonl');
    const out = await openJsonlOutput(p);
    const drain = new AbortController();
    const started: number[] = [];
    const r = await runJsonl({
      source: itemsSource(Array.from({ length: 50 }, (_, i) => ({ id: `r${i}`, i }))),
      out,
      concurrency: 4,
      drain: drain.signal,
      process: async (it) => {
        started.push(it.i);
        if (it.i === 9) drain.abort();
        // The ones in flight at the drain take long: they are still waited for and written.
        await new Promise((res) => setTimeout(res, it.i >= 6 ? 300 : 5));
        return { id: it.id };
      },
    });
    out.close();
    expect(r.interrupted).toBe(true);
    const ids = lines(p).map((l) => l.id);
    // Everything started was written (nothing in flight was dropped), and nothing after.
    expect(ids).toEqual(started.map((i) => `r${i}`));
    expect(ids.at(-1)).toBe('r9');
  });

  it('a stop after the drain still stops at once', async () => {
    const p = join(tmp(), 'out.jsonl');
    const out = await openJsonlOutput(p);
    const drain = new AbortController();
    const stop = new AbortController();
    const t0 = Date.now();
    const r = await runJsonl({
      source: itemsSource(Array.from({ length: 20 }, (_, i) => ({ id: `r${i}`, i }))),
      out,
      concurrency: 2,
      drain: drain.signal,
      signal: stop.signal,
      process: async (it) => {
        if (it.i === 3) {
          drain.abort();
          setTimeout(() => stop.abort(), 50);
        }
        await new Promise((res) => setTimeout(res, it.i >= 2 ? 3000 : 5));
        return { id: it.id };
      },
    });
    out.close();
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(r.interrupted).toBe(true);
    expect(lines(p).map((l) => l.id)).toEqual(['r0', 'r1']);
  });

  it('a drain once every input has started is a complete run when they all finish', async () => {
    const p = join(tmp(), 'out.jsonl');
    const out = await openJsonlOutput(p);
    const drain = new AbortController();
    const r = await runJsonl({
      source: itemsSource(Array.from({ length: 3 }, (_, i) => ({ id: `r${i}`, i }))),
      out,
      concurrency: 4,
      drain: drain.signal,
      process: async (it) => {
        if (it.i === 2) setTimeout(() => drain.abort(), 10);
        await new Promise((res) => setTimeout(res, 100));
        return { id: it.id };
      },
    });
    out.close();
    expect(r.interrupted).toBe(false);
    expect(lines(p)).toHaveLength(3);
  });
});

describe('output lock', () => {
  it('refuses a second writer while the first is open, and frees the file on close', async () => {
    const p = join(tmp(), 'out.jsonl');
    const first = await openJsonlOutput(p);
    await expect(openJsonlOutput(p)).rejects.toBeInstanceOf(OutputLockedError);
    first.close();
    (await openJsonlOutput(p)).close();
  });

  it('refuses a lock held by a live process and takes over one whose process is dead', async () => {
    const dir = tmp();
    const p = join(dir, 'out.jsonl');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    const lockOf = (pid: number) =>
      writeFileSync(
        `${p}.lock`,
        JSON.stringify({ pid, host: hostname(), started: 'then', command: 'score' }),
      );
    try {
      lockOf(child.pid!);
      const err = await openJsonlOutput(p).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutputLockedError);
      expect((err as Error).message).toContain(`pid ${child.pid}`);
      expect((err as Error).message).toContain(`delete ${p}.lock`);
    } finally {
      child.kill('SIGKILL');
      await new Promise((res) => child.once('exit', res));
    }
    const out = await openJsonlOutput(p);
    expect(out.tookOverFrom).toBe(child.pid);
    expect(JSON.parse(readFileSync(`${p}.lock`, 'utf8')).pid).toBe(process.pid);
    out.close();
  });
});
