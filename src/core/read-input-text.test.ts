// The library rooms' reads of files an input names (issue 35 audit): null for a file that is
// not there (a run folder without parts.jsonl yet), a stable code for one that is not a
// regular file or is too large — answered at once for a FIFO with no writer, where the
// readFile these replace waited for ever.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkRegularFileSync,
  InputFileError,
  readInputFileBytes,
  readInputTextFile,
} from './read-input-text.ts';

const dir = mkdtempSync(join(tmpdir(), 'rubrica-input-text-'));
const fifo = join(dir, 'parts.jsonl');
execFileSync('mkfifo', [fifo]);

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'read',
    (e: unknown) => (e instanceof InputFileError ? e.code : String(e)),
  );

describe('readInputTextFile / readInputFileBytes', () => {
  it('reads a regular file, and is null for a missing one', async () => {
    writeFileSync(join(dir, 'summary.json'), '{"a":1}');
    expect(await readInputTextFile(join(dir, 'summary.json'))).toBe('{"a":1}');
    expect(await readInputTextFile(join(dir, 'none.json'))).toBeNull();
  });

  it('refuses a FIFO, a device and a directory with input_not_regular_file, at once', async () => {
    for (const p of [fifo, '/dev/zero', dir]) {
      expect(await codeOf(readInputTextFile(p)), p).toBe('input_not_regular_file');
    }
  });

  it('refuses a file over the bound with input_too_large', async () => {
    writeFileSync(join(dir, 'big.png'), Buffer.alloc(100, 1));
    expect(await codeOf(readInputFileBytes(join(dir, 'big.png'), 99))).toBe('input_too_large');
    expect((await readInputFileBytes(join(dir, 'big.png'), 100))?.length).toBe(100);
  });
});

describe('checkRegularFileSync', () => {
  it('is true for a regular file, false for nothing, and throws for a FIFO or device', () => {
    writeFileSync(join(dir, 'prices.json'), '{}');
    expect(checkRegularFileSync(join(dir, 'prices.json'))).toBe(true);
    expect(checkRegularFileSync(join(dir, 'nothing.json'))).toBe(false);
    expect(() => checkRegularFileSync(fifo)).toThrow(/FIFO/);
    expect(() => checkRegularFileSync('/dev/zero')).toThrow(/device/);
  });
});
