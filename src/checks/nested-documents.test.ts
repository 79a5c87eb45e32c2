// Monitors see what is drawn, wherever it is written: words and scribbles inside an
// embedded data:image/svg+xml document (issue 10 item 2) count in svg_stats,
// text_in_image and clutter exactly as if written in the outer document. Real renders
// through the real pool, on a real Fluent Emoji icon.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { extractArtifact } from '../artifact/extract.ts';
import { createRenderPool, type RenderPool } from '../render/index.ts';
import { runChecks, summarizeChecks } from './run-checks.ts';

let pool: RenderPool;
beforeAll(() => {
  pool = createRenderPool({ workers: 1 });
});
afterAll(async () => {
  await pool.close();
});

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const apple = () => fluentEmoji().find((c) => c.name === 'red-apple')!.svg;
const b64 = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
const pct = (svg: string) => `data:image/svg+xml,${encodeURIComponent(svg)}`;

/** The apple icon drawn as an <image> of a nested document holding `inner`. */
function hidden(inner: string, uri = b64, element = 'image'): string {
  const nested = `<svg ${NS} viewBox="0 0 32 32">${inner}</svg>`;
  if (element === 'feImage') {
    return apple().replace(
      '</svg>',
      `<filter id="n" x="0" y="0" width="1" height="1"><feImage href="${uri(nested)}"/></filter><rect width="32" height="32" fill="none" filter="url(#n)"/></svg>`,
    );
  }
  return apple().replace('</svg>', `<image width="32" height="32" href="${uri(nested)}"/></svg>`);
}

async function check(svg: string, prompt: string) {
  const artifact = await extractArtifact(`\`\`\`svg\n${svg}\n\`\`\``);
  const render = await pool.render(artifact.svg!);
  expect(render.ok, render.ok ? '' : render.error.message).toBe(true);
  const checks = runChecks(artifact, render, prompt);
  return { render, summary: summarizeChecks(artifact, render, checks) };
}

const LABEL = '<text x="2" y="8" font-size="5" fill="#000">red apple</text>';

describe('nested data:image/svg+xml documents are seen by the monitors', () => {
  it('"red apple" written inside a nested base64 document flags text_in_image', async () => {
    const { render, summary } = await check(hidden(LABEL), 'a red apple');
    expect(render.ok && render.code.texts).toContain('red apple');
    expect(summary.text_in_image).toBe(true);
  });

  it('the same inside a percent-encoded document, an feImage, and two levels deep', async () => {
    for (const svg of [
      hidden(LABEL, pct),
      hidden(LABEL, b64, 'feImage'),
      hidden(`<image width="32" height="32" href="${b64(`<svg ${NS}>${LABEL}</svg>`)}"/>`),
    ]) {
      const { summary } = await check(svg, 'a red apple');
      expect(summary.text_in_image).toBe(true);
    }
  });

  it('500 scribbles inside a nested document flag clutter', async () => {
    const scribbles = Array.from(
      { length: 500 },
      (_, i) =>
        `<path d="M${i % 30} 1 C 5 ${i % 29}, 20 3, 31 ${i % 31}" fill="none" stroke="#c33" stroke-width="0.2"/>`,
    ).join('');
    const { render, summary } = await check(hidden(scribbles), 'a red apple');
    expect(render.ok && render.code.strokedShapes).toBeGreaterThanOrEqual(500);
    expect(summary.clutter).toBe(true);
  });

  it('the icon with a harmless nested picture flags neither', async () => {
    const { summary } = await check(
      hidden('<circle cx="16" cy="16" r="3" fill="#fc0"/>'),
      'a red apple',
    );
    expect(summary.text_in_image).toBe(false);
    expect(summary.clutter).toBe(false);
  });
});
