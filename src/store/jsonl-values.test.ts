// The one JSONL reader: BOM, CRLF, blank lines, and one `FILE:LINE: not valid JSON` for a bad
// line, the same whether the text is in memory or streamed from a file, and the same through
// the users that read files for commands (rubrics, `export sft` inputs, align/compare inputs).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readJsonLines } from '../eval/stats/jsonl.ts';
import { readJsonlInputs } from './jsonl.ts';
import {
  isBadLine,
  JsonlLineError,
  NOT_JSON,
  parseJsonl,
  readJsonlSync,
  streamJsonl,
} from './jsonl-values.ts';

const dir = mkdtempSync(join(tmpdir(), 'rubrica-jsonl-values-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

// A BOM, CRLF ends, a blank and a whitespace-only line: three values on lines 1, 3, 5.
const MESSY = '\uFEFF{"id":"a"}\r\n\r\n{"id":"b"}\r\n   \r\n{"id":"c"}';

async function collect(path: string) {
  const out = [];
  for await (const e of streamJsonl(path, { badLines: 'collect' })) out.push(e);
  return out;
}

describe('the one JSONL reader', () => {
  it('drops a BOM, accepts CRLF, skips blank lines and keeps editor line numbers', async () => {
    const { values, bad } = parseJsonl(MESSY, 'messy.jsonl');
    expect(bad).toEqual([]);
    expect(values.map((v) => [v.line, v.value])).toEqual([
      [1, { id: 'a' }],
      [3, { id: 'b' }],
      [5, { id: 'c' }],
    ]);
    // The text of a line is what the JSON was parsed from: no BOM, no CR.
    expect(values[0]!.text).toBe('{"id":"a"}');
    // The same file streamed, and read whole, gives the same values.
    const p = file('messy.jsonl', MESSY);
    expect((await collect(p)).map((e) => [e.line, 'value' in e ? e.value : e.reason])).toEqual(
      values.map((v) => [v.line, v.value]),
    );
    expect(readJsonlSync(p).values).toEqual(values);
  });

  it('throws one error naming file and line for a malformed line by default', async () => {
    const text = '{"id":"a"}\n\n{"id":\n{"id":"c"}\n';
    let err: unknown;
    try {
      parseJsonl(text, 'in.jsonl');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(JsonlLineError);
    expect((err as JsonlLineError).message).toBe('in.jsonl:3: not valid JSON');
    expect((err as JsonlLineError).code).toBe('bad_jsonl_line');
    const p = file('bad.jsonl', text);
    await expect(collectThrowing(p)).rejects.toThrow(`${p}:3: not valid JSON`);
    expect(() => readJsonlSync(p)).toThrow(`${p}:3: not valid JSON`);
  });

  it('collects bad lines with the same reason when asked to tolerate them', async () => {
    const text = '{"id":"a"}\nnot json\r\n{"id":"c"}\n{"torn":';
    const { values, bad } = parseJsonl(text, 'x.jsonl', { badLines: 'collect' });
    expect(values.map((v) => v.line)).toEqual([1, 3]);
    expect(bad).toEqual([
      { line: 2, text: 'not json', reason: NOT_JSON },
      { line: 4, text: '{"torn":', reason: NOT_JSON },
    ]);
    const streamed = (await collect(file('x.jsonl', text))).filter(isBadLine);
    expect(streamed).toEqual(bad);
  });

  it('reports a line that is not UTF-8 with its number when streaming', async () => {
    const p = join(dir, 'latin1.jsonl');
    writeFileSync(
      p,
      Buffer.concat([Buffer.from('{"id":"a"}\n{"id":"'), Buffer.from([0xe9]), Buffer.from('"}\n')]),
    );
    const entries = await collect(p);
    expect(entries[1]).toMatchObject({ line: 2, text: null });
    expect((entries[1] as { reason: string }).reason).toMatch(/not valid UTF-8/);
  });
});

async function collectThrowing(path: string) {
  for await (const _ of streamJsonl(path)) {
    // read to the end
  }
}

describe('command inputs read through it', () => {
  it('`export sft` inputs (readJsonlInputs): BOM and CRLF read, a bad line named by number', () => {
    const p = file('rollouts.jsonl', `${MESSY}\r\n{oops}\r\n`);
    const { items, errors } = readJsonlInputs(p, z.object({ id: z.string() }));
    expect(items.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(errors).toEqual([{ line: 6, message: NOT_JSON }]);
  });

  it('align and compare inputs (readJsonLines): the first line survives a BOM', () => {
    const { lines, issues } = readJsonLines(`${MESSY}\n{oops}`, 'pred.jsonl');
    expect(lines.map((l) => l.line)).toEqual([1, 3, 5]);
    expect(issues).toEqual([{ file: 'pred.jsonl', line: 6, code: 'bad_json', message: NOT_JSON }]);
  });
});
