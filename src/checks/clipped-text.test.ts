// `clipped` on a poster whose title runs off both sides (issue 40): the flag fires on the
// text, `detail.cut` says so, and the value is the share of the line the frame hides — a
// title losing a letter at each end reads smaller than one losing a word. The same poster
// with a title that fits is not flagged. Real renders through the pool.
import { afterAll, describe, expect, it } from 'vitest';
import { extractArtifact } from '../artifact/extract.ts';
import { createRenderPool } from '../render/index.ts';
import { runChecks } from './run-checks.ts';

const pool = createRenderPool({ workers: 1 });
afterAll(() => pool.close());

async function clipped(title: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 500"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ff6f00"/><stop offset="1" stop-color="#6a1b9a"/></linearGradient></defs><rect width="500" height="500" fill="url(#g)"/><circle cx="250" cy="280" r="110" fill="#ffd54f"/><text x="250" y="92" text-anchor="middle" font-family="Impact, sans-serif" font-weight="bold" font-size="50" fill="#fff">${title}</text></svg>`;
  const artifact = await extractArtifact(`\`\`\`svg\n${svg}\n\`\`\``);
  const render = await pool.render(artifact.svg!);
  return runChecks(artifact, render, 'a festival poster').find((c) => c.name === 'clipped')!;
}

describe('clipped: text running off the frame', () => {
  it('flags a bold title wider than the frame as text, valued by the share hidden', async () => {
    const wide = await clipped('SUMMER FESTIVAL');
    expect(wide.flag).toBe(true);
    expect(wide.detail).toMatchObject({ cut: 'text', textsOff: ['SUMMER FESTIVAL'] });
    // 532 wide centred on 250: 16 past each side, 6 % of the line.
    expect(wide.value).toBeCloseTo(0.061, 2);
    const wider = await clipped('SUMMER MUSIC FESTIVAL');
    expect(wider.value).toBeGreaterThan(0.25);
  });

  it('does not flag the same poster with a title that fits', async () => {
    const fits = await clipped('FESTIVAL');
    expect(fits.flag).toBe(false);
    expect(fits.detail?.cut).toBe('none');
  });
});
