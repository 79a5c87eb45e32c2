// `rubrica inspect` on other domains: the domain is detected from the fence (or forced with
// --domain), rendered in its sandbox and reported; a bad --domain is a usage error.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'rubrica-cli-domains-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('rubrica inspect --domain', () => {
  it('detects a dot fence, renders it and prints the domain', async () => {
    const p = file('dot.txt', 'Graph:\n```dot\ndigraph { a -> b }\n```\n');
    const r = await runCliInProcess(['inspect', p, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.artifact).toMatchObject({ found: true, domain: 'dot', source: 'fence' });
    expect(j.render.ok).toBe(true);
    const text = await runCliInProcess(['inspect', p]);
    expect(text.stdout).toContain('domain    dot');
    // The code's tokens are labelled as code, not as an SVG.
    expect(text.stdout).toMatch(/tokens \(code \d+, reasoning/);
    expect(text.stdout).not.toMatch(/\(svg \d+/);
  }, 60_000);

  it('forces a domain and refuses an unknown one', async () => {
    const p = file('bare.txt', 'digraph { x -> y }');
    const forced = JSON.parse(
      (await runCliInProcess(['inspect', p, '--json', '--domain', 'dot'])).stdout,
    );
    expect(forced.render.ok).toBe(true);
    const none = JSON.parse(
      (await runCliInProcess(['inspect', p, '--json', '--domain', 'python'])).stdout,
    );
    expect(none.artifact.error.code).toBe('no_code');
    const bad = await runCliInProcess(['inspect', p, '--domain', 'cobol']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--domain must be auto or one of');
  }, 60_000);

  it('rubrica render --domain renders code files; a file that fails is exit 1', async () => {
    const g = file('g.dot', 'digraph { a -> b }');
    const bad = file('bad.dot', 'digraph { a -> ');
    const r = await runCliInProcess(['render', '--domain', 'dot', g, bad, '--json']);
    expect(r.code).toBe(1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.ok, l.error?.code ?? null])).toEqual([
      [true, null],
      [false, 'exec_error'],
    ]);
  }, 60_000);

  it('--html-full-page: inspect and render picture the whole document (default: the viewport)', async () => {
    const body = '<div style="height:1600px;background:linear-gradient(#fff,#246)">tall</div>';
    const html = `<!doctype html><html><body style="margin:0">${body}</body></html>`;
    const page = file('tall.html', html);
    const answer = file('tall.txt', `\`\`\`html\n${html}\n\`\`\`\n`);
    const full = JSON.parse(
      (await runCliInProcess(['inspect', answer, '--json', '--html-full-page'])).stdout,
    );
    expect([full.render.width, full.render.height]).toEqual([1280, 1600]);
    expect(full.checks.page_clipped).toMatchObject({ value: 1600, flag: false });
    expect(full.checks.horizontal_overflow.flag).toBe(false);
    const out = join(dir, 'tall.png');
    const r = await runCliInProcess(['render', '--domain', 'html', page, '--out', out, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, width: 1280, height: 720 });
    const rf = await runCliInProcess([
      'render',
      '--domain',
      'html',
      page,
      '--out',
      out,
      '--json',
      '--html-full-page',
    ]);
    expect(JSON.parse(rf.stdout)).toMatchObject({ ok: true, width: 1280, height: 1600 });
  }, 120_000);
});
