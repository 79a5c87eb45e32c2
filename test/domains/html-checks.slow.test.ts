// The html domain's checks and picture options on real pages in Chromium, through the same
// inspection the scorer runs: horizontal overflow, console errors, blocked requests, and the
// full-page picture (whole document at the viewport's width, cut at its cap and said so).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDomainRenderers, type DomainRenderers } from '../../src/domains/renderers.ts';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import type { Inspection } from '../../src/inspect/types.ts';
import { createRenderPool } from '../../src/render/pool.ts';
import type { Renderer } from '../../src/render/types.ts';

let svg: Renderer & { close(): Promise<void> };
let viewport: DomainRenderers;
let full: DomainRenderers;
beforeAll(() => {
  svg = createRenderPool({ workers: 1 });
  viewport = createDomainRenderers({ svgRenderer: svg, browserPages: 1 });
  full = createDomainRenderers({
    svgRenderer: svg,
    browserPages: 1,
    html: { fullPage: true, maxHeight: 2000 },
  });
});
afterAll(async () => {
  await viewport.close();
  await full.close();
  await svg.close();
});

const page = (body: string) =>
  `Here it is:\n\`\`\`html\n<!doctype html><html><body style="margin:0">${body}</body></html>\n\`\`\`\n`;
const check = (ins: Inspection, name: string) => ins.checks.find((c) => c.name === name);
const inspect = (completion: string, domains: DomainRenderers) =>
  inspectCompletion(completion, { renderer: svg, domains, domain: 'auto' });

describe('html checks on real pages', () => {
  it('a clean page flags nothing; a wide, noisy page flags overflow, console errors and requests', async () => {
    const clean = await inspect(page('<h1>Pricing</h1><p>Three plans.</p>'), viewport);
    expect(clean.render?.ok).toBe(true);
    expect(
      ['horizontal_overflow', 'console_errors', 'blocked_requests'].map(
        (n) => check(clean, n)?.flag,
      ),
    ).toEqual([false, false, false]);
    expect(check(clean, 'page_clipped')).toBeUndefined(); // viewport pictures are never cut

    const noisy = await inspect(
      page(
        '<div style="width:2000px;height:80px;background:#c33">banner</div>' +
          '<img src="https://cdn.example.com/logo.png"><link rel="stylesheet" href="https://fonts.example.com/a.css">' +
          '<script>console.error("missing config"); undefinedFunction();</script>',
      ),
      viewport,
    );
    expect(noisy.render?.ok).toBe(true);
    expect(check(noisy, 'horizontal_overflow')).toMatchObject({
      value: 720,
      flag: true,
      unit: 'px',
      detail: { documentWidth: 2000, viewportWidth: 1280 },
    });
    // The page's own two errors; the refused requests are counted once, below.
    expect(check(noisy, 'console_errors')).toMatchObject({ value: 2, flag: true });
    expect(String(check(noisy, 'console_errors')?.detail?.first)).toMatch(
      /missing config[\s\S]*undefinedFunction/,
    );
    expect(check(noisy, 'blocked_requests')).toMatchObject({ value: 2, flag: true });
  }, 180_000);

  it('full page: the whole document at 1280 wide; taller than the cap is cut and flagged', async () => {
    const short = await inspect(page('<h1>short</h1>'), full);
    expect(short.render?.ok && [short.render.width, short.render.height]).toEqual([1280, 720]);
    expect(check(short, 'page_clipped')?.flag).toBe(false);

    const tall = await inspect(
      page('<div style="height:1500px;background:linear-gradient(#fff,#236)">tall</div>'),
      full,
    );
    expect(tall.render?.ok && [tall.render.width, tall.render.height]).toEqual([1280, 1500]);
    expect(check(tall, 'page_clipped')).toMatchObject({ value: 1500, flag: false });
    // The same page in the default viewport mode is one screen.
    const first = await inspect(
      page('<div style="height:1500px;background:linear-gradient(#fff,#236)">tall</div>'),
      viewport,
    );
    expect(first.render?.ok && first.render.height).toBe(720);

    const huge = await inspect(
      page('<div style="height:9000px;background:linear-gradient(#fff,#236)">huge</div>'),
      full,
    );
    expect(huge.render?.ok && [huge.render.width, huge.render.height]).toEqual([1280, 2000]);
    expect(check(huge, 'page_clipped')).toMatchObject({
      value: 9000,
      flag: true,
      detail: { height: 2000, maxHeight: 2000 },
    });
  }, 180_000);
});
