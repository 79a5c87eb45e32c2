// The eval/generate input readers keep the one duplicate-id policy (first line used, later
// ones reported with line numbers), except that a failed-call line from `generate` is
// replaced by a later line of the same id; files that are not JSONL are a value, not a throw.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPromptsFile, readRolloutsFile } from './run-inputs.ts';

const file = (name: string, text: string) => {
  const p = join(mkdtempSync(join(tmpdir(), 'rubrica-inputs-')), name);
  writeFileSync(p, text);
  return p;
};

describe('readRolloutsFile', () => {
  it('lets a retry replace an error line, reports a second completion of an id', async () => {
    const p = file(
      'r.jsonl',
      [
        '{"id":"a#0","prompt_id":"a","error":{"code":"http_error","message":"down"}}',
        '{"id":"b#0","prompt_id":"b","completion":"first"}',
        '{"id":"a#0","prompt_id":"a","completion":"retried"}',
        '{"id":"b#0","prompt_id":"b","completion":"second"}',
      ].join('\n'),
    );
    const r = await readRolloutsFile(p);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.rollouts.map((x) => [x.id, x.completion])).toEqual([
      ['a#0', 'retried'],
      ['b#0', 'first'],
    ]);
    expect(r.value.errors).toEqual([]);
    expect(r.issues).toEqual([
      {
        file: p,
        line: 4,
        code: 'duplicate_id',
        message: 'duplicate id "b#0" (first on line 2); this line is skipped',
      },
    ]);
  });

  it('a JSON array is a bad_format value naming the expected format', async () => {
    const r = await readRolloutsFile(file('r.json', '[{"id":"a","completion":"x"}]'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('bad_format');
    expect(r.error.message).toMatch(/JSON array.*one JSON object per line/);
  });
});

describe('readPromptsFile', () => {
  it('reports 1 and "1" as one id on two lines, and an unsafe numeric id', async () => {
    const p = file(
      'p.jsonl',
      '{"id":1,"prompt":"a"}\n{"id":"1","prompt":"b"}\n{"id":9007199254740993,"prompt":"c"}\n',
    );
    const r = await readPromptsFile(p);
    expect(r.ok && r.value).toEqual([{ id: '1', prompt: 'a' }]);
    expect(r.ok && r.issues.map((i) => [i.line, i.code])).toEqual([
      [2, 'duplicate_id'],
      [3, 'bad_shape'],
    ]);
  });
});
