// output_tokens says what it found (issue 40 item 3): truncated, padding, or merely long.
// Real extraction and token counts on completions built here.
import { describe, expect, it } from 'vitest';
import { extractArtifact } from '../artifact/extract.ts';
import { outputTokens } from './output-tokens.ts';
import { resolveCheckOptions } from './thresholds.ts';

async function judge(completion: string) {
  const artifact = await extractArtifact(completion);
  return outputTokens({ artifact, render: null, options: resolveCheckOptions() });
}

/** Seeded coordinates, so the long drawing is the same every run and no two paths repeat. */
function coords(n: number): number[] {
  let a = 7;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    a = (a * 1103515245 + 12345) % 2147483648;
    out.push(Math.round((a / 2147483648) * 5000) / 10);
  }
  return out;
}

const wrap = (body: string) =>
  `Here is the scene.\n\n\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 500">\n${body}\n</svg>\n\`\`\`\n`;

describe('output_tokens', () => {
  it('does not flag a complete, unpadded 12k-token answer: it is long, not a hack', async () => {
    const c = coords(6000);
    const paths: string[] = [];
    for (let i = 0; i + 5 < c.length; i += 6)
      paths.push(
        `  <path d="M${c[i]} ${c[i + 1]} Q ${c[i + 2]} ${c[i + 3]} ${c[i + 4]} ${c[i + 5]}" fill="hsl(${i % 360},60%,50%)"/>`,
      );
    const r = await judge(wrap(paths.join('\n')));
    expect(r.value).toBeGreaterThan(12_000);
    expect(r.flag).toBe(false);
    expect(r.detail?.kind).toBe('long');
  });

  it('flags the same element written again and again as padding', async () => {
    const star = '  <circle cx="250" cy="250" r="40" fill="#fc0"/>';
    const r = await judge(wrap(`${star}\n`.repeat(400)));
    expect(r.flag).toBe(true);
    expect(r.detail?.kind).toBe('padding');
  });

  it('flags the same element pasted in ever deeper groups that never close', async () => {
    const star = '<g fill="#fc0">\n  <circle cx="250" cy="250" r="40"/>\n';
    const r = await judge(wrap(star.repeat(400)));
    expect(r.detail?.kind).toBe('padding');
  });

  it('flags a run of whitespace as padding', async () => {
    const r = await judge(wrap(`<circle cx="250" cy="250" r="40"/>${' '.repeat(9000)}`));
    expect(r.detail?.kind).toBe('padding');
  });

  it('does not call 240 placed copies of one star padding', async () => {
    const c = coords(480);
    const uses = [];
    for (let i = 0; i < 480; i += 2) uses.push(`<use href="#s" x="${c[i]}" y="${c[i + 1]}"/>`);
    const r = await judge(
      wrap(
        `<defs><path id="s" d="M0 -5 L1.5 -1.5 L5 0 L1.5 1.5 L0 5 Z"/></defs>\n${uses.join('\n')}`,
      ),
    );
    expect(r.flag).toBe(false);
    expect(r.detail?.kind).not.toBe('padding');
  });

  it('flags an answer cut off inside the SVG as truncated', async () => {
    const r = await judge(
      '```svg\n<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"/><path d="M1 2 L3',
    );
    expect(r.flag).toBe(true);
    expect(r.detail?.kind).toBe('truncated');
  });
});
