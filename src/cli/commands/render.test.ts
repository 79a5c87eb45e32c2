// `rubrica render` as a user runs it: the real binary in a child process, real files.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../../test/support/corpus.ts';

const BIN = new URL('../../../bin/rubrica.js', import.meta.url).pathname;

function cli(
  args: string[],
  stdin?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.end(stdin ?? '');
  });
}

let dir: string;
const icons = fluentEmoji(3);
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rubrica-render-cli-'));
  for (const i of icons) await writeFile(join(dir, `${i.name}.svg`), i.svg);
  await writeFile(join(dir, 'broken.svg'), '<svg><g></svg>');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('rubrica render', () => {
  it('renders a batch to --out-dir, one JSON line per input; bad files do not stop the rest', async () => {
    const inputs = [...icons.map((i) => join(dir, `${i.name}.svg`)), join(dir, 'broken.svg')];
    const r = await cli(['render', ...inputs, '--out-dir', join(dir, 'out'), '--json']);
    expect(r.code).toBe(1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.input)).toEqual(inputs);
    expect(lines.map((l) => (l.ok ? 'ok' : l.error.code))).toEqual([
      'ok',
      'ok',
      'ok',
      'parse_error',
    ]);
    for (const l of lines.slice(0, 3)) {
      expect([l.width, l.height]).toEqual([512, 512]);
      const meta = await sharp(await readFile(l.out)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 512, 512]);
    }
  });

  it('renders stdin to --out with --size and --background, exit 0', async () => {
    const out = join(dir, 'one.png');
    const r = await cli(
      ['render', '-', '--out', out, '--size', '64', '--background', '#102030', '--json'],
      icons[0]!.svg,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, out, width: 64, height: 64 });
    const raw = await sharp(await readFile(out))
      .raw()
      .toBuffer();
    expect([raw[0], raw[1], raw[2]]).toEqual([0x10, 0x20, 0x30]); // the corner is background
  });

  it('exits 2 on usage errors', async () => {
    const a = join(dir, 'a.svg');
    const cases = [
      ['render', a, a, '--out', 'x.png'],
      ['render', a, '--out', 'x.png', '--size', 'big'],
      ['render', a, '--out', 'x.png', '--background', 'not-a-colour'],
      ['render', a],
    ];
    const results = await Promise.all(cases.map((args) => cli(args)));
    results.forEach((r, i) => {
      expect(r.code, cases[i]!.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/rubrica: /);
    });
  });
});

describe('rubrica render on endless input', () => {
  it('refuses a device as an input file, and stops reading an endless stdin at the byte limit: too_large, exit 1', async () => {
    // A named file must be a regular file (issue 35: a FIFO, socket or device is refused
    // before it is opened, so nothing can block on it); endless input can still come on stdin.
    const file = await cli(['render', '/dev/zero', '--json']);
    expect(file.code).toBe(2);
    expect(file.stderr).toMatch(/"\/dev\/zero": is a device, not a regular file/);

    // stdin that never ends: a child writing zeros for as long as anyone reads.
    const r = await new Promise<{ code: number; stdout: string }>((resolve) => {
      const sh = execFile(
        '/bin/sh',
        [
          '-c',
          `head -c 100000000 /dev/zero | '${process.execPath}' '${BIN}' render - --json; echo "rc=$?" >&2`,
        ],
        { maxBuffer: 1 << 20 },
        (_err, stdout, stderr) =>
          resolve({ code: Number(/rc=(\d+)/.exec(stderr)?.[1] ?? -1), stdout }),
      );
      sh.stdin?.end();
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout.trim()).error.code).toBe('too_large');
  });
});
