// `--renderer` reaches the renderer: the same file through librsvg, resvg and Chromium via
// `rubrica render`, each writing a 512² PNG; `inspect` takes the flag too; a bad name is a
// usage error (exit 2). librsvg does not resolve a CSS var() whose property is defined on an
// element (the sanitiser substitutes only document-wide ones): Chromium and the flag's
// effect are told apart by that file's pixels. Without the flag, `auto` (the default) sends
// that file to Chromium.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'rubrica-renderer-flag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The rect is orange only for a renderer that resolves scoped CSS custom properties.
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><style>g{--c:#f60}rect{fill:var(--c)}</style><g><rect width="10" height="10"/></g></svg>`;
const file = join(dir, 'var.svg');
writeFileSync(file, SVG);

async function centre(png: string): Promise<number[]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([512, 512]);
  const i = (256 * 512 + 256) * 3;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

describe('--renderer', () => {
  it('renders with each renderer', async () => {
    const seen: Record<string, number[]> = {};
    for (const r of ['librsvg', 'resvg', 'chromium']) {
      const out = join(dir, `${r}.png`);
      const run = await runCliInProcess(['render', file, '--out', out, '--renderer', r, '--json']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(JSON.parse(run.stdout).ok).toBe(true);
      seen[r] = await centre(out);
    }
    expect(seen.chromium).toEqual([255, 102, 0]);
    expect(seen.librsvg).not.toEqual([255, 102, 0]); // black: var() unresolved
  }, 120_000);

  it('defaults to auto, which sends what librsvg cannot draw to Chromium', async () => {
    const out = join(dir, 'default.png');
    const run = await runCliInProcess(['render', file, '--out', out, '--json']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(await centre(out)).toEqual([255, 102, 0]);
  }, 120_000);

  it('inspect takes it too', async () => {
    const completion = join(dir, 'c.txt');
    writeFileSync(completion, `Here:\n\`\`\`svg\n${SVG}\n\`\`\`\n`);
    const out = join(dir, 'inspect.png');
    const run = await runCliInProcess([
      'inspect',
      completion,
      '--renderer',
      'chromium',
      '--out',
      out,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(await centre(out)).toEqual([255, 102, 0]);
    expect(readFileSync(out).length).toBeGreaterThan(0);
  }, 120_000);

  it('refuses an unknown renderer as a usage error', async () => {
    const run = await runCliInProcess(['render', file, '--json', '--renderer', 'cairo']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--renderer must be one of librsvg, resvg, chromium, auto/);
  });
});
