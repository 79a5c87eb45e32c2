// `rubrica inspect` as a user runs it: a spawned process on completion files and stdin.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = (name: string) => join(root, 'src/artifact/fixtures', name);

function rubrica(args: string[], stdin?: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin/rubrica.js'), ...args], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

describe('rubrica inspect', () => {
  it('--json on a good completion: artifact, render and checks with their numbers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-inspect-'));
    const png = join(dir, 'out.png');
    const r = await rubrica([
      'inspect',
      fixture('dwt-headings.txt'),
      '--json',
      '--prompt',
      'a teacup without a handle',
      '--out',
      png,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.artifact.found).toBe(true);
    expect(j.artifact.svg.startsWith('<svg')).toBe(true);
    expect(j.artifact.error).toBeNull();
    expect(j.artifact.dwt.stages).toHaveLength(6);
    expect(j.artifact.tokens.completion).toBeGreaterThan(j.artifact.tokens.svg);
    expect(j.render.ok).toBe(true);
    expect(j.checks.blank.flag).toBe(false);
    expect(typeof j.checks.blank.value).toBe('number');
    expect(j.checks.text_in_image.flag).toBe(false);
    expect(j.checks.clutter.flag).toBe(false);
    expect(j.checks.clutter.detail.strokedShapes).toBeTypeOf('number');
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
  });

  it('bad input is a result (exit 0): truncated from stdin, with render.error.code', async () => {
    const r = await rubrica(
      ['inspect', '-', '--json'],
      readFileSync(fixture('truncated.txt'), 'utf8'),
    );
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.artifact.found).toBe(false);
    expect(j.artifact.error.code).toBe('truncated');
    expect(j.render.ok).toBe(false);
    expect(j.render.error.code).toBe('truncated');
  });

  it('flags the text-in-image hack, readable summary without --json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-inspect-'));
    const file = join(dir, 'hack.txt');
    writeFileSync(
      file,
      'Here:\n```svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="30" fill="#c00"/><text x="10" y="90">RED APPLE</text></svg>\n```\n',
    );
    const r = await rubrica(['inspect', file, '--prompt', 'a red apple']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/render +ok, 512×512/);
    expect(r.stdout).toMatch(/text_in_image YES \(red, apple\)/);
  });

  it('a missing file and bad flags exit 2', async () => {
    const missing = await rubrica(['inspect', '/nonexistent/completion.txt']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read/);
    const badSize = await rubrica(['inspect', fixture('empty.txt'), '--size', 'big']);
    expect(badSize.code).toBe(2);
    expect(badSize.stderr).toMatch(/--size/);
  });
});
