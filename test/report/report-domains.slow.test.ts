// report.html for non-SVG domains, in Chromium: a python or html rollout's card shows the
// code its domain rendered beside the picture (also when it failed to render), as text
// (model-written markup never runs), cut at MAX_CODE_CHARS; SVG cards stay as they were;
// the page still loads offline with no error, and the code costs the page little.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyUsage } from '../../src/core/usage.ts';
import { MAX_CODE_CHARS } from '../../src/eval/report/gallery-data.ts';
import { type ReportInput, renderReport } from '../../src/eval/report/report.ts';
import { loadThumbnails } from '../../src/eval/report/thumbnails.ts';
import type { EvalRecord } from '../../src/eval/types.ts';
import { launchChromium } from './browser.ts';
import { buildFixture } from './fixture.ts';

const PY = `import matplotlib.pyplot as plt\nplt.bar(["a", "b"], [3, 5])\nplt.title("</pre><script>window.__xss=7</script>")\n`;
const HOSTILE_HTML = `<!doctype html><html><body><h1>x</h1><img src=x onerror="window.__xss=8"></body></html>`;
const LONG_PY = `import matplotlib.pyplot as plt\n${'plt.plot([1, 2, 3])  # a long script line\n'.repeat(200)}`;

let dir: string;
let svgRecords: EvalRecord[];
let records: EvalRecord[];
let html: string;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];
const requests: string[] = [];

async function report(list: EvalRecord[]): Promise<string> {
  const input: ReportInput = {
    title: 'domains',
    records: list,
    kinds: ['universal'],
    images: await loadThumbnails(dir, list),
    headline: [],
    settings: {},
    usage: [{ role: 'judge', model: 'x', usage: emptyUsage() }],
    notices: [],
    generatedAt: '2026-12-01T00:00:00Z',
  };
  return renderReport(input);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rubrica-report-domains-'));
  const fixture = await buildFixture(dir);
  svgRecords = fixture.records.slice(4, 8);
  const withPic = svgRecords.find((r) => r.image)!;
  const failed = fixture.records.find((r) => !r.image)!;
  const as = (id: string, from: EvalRecord, domain: EvalRecord['domain'], completion: string) => ({
    ...from,
    id,
    prompt_id: 'charts',
    prompt: 'a bar chart',
    domain,
    completion,
  });
  records = [
    ...svgRecords,
    as('py-ok', withPic, 'python', `Here:\n\`\`\`python\n${PY}\`\`\`\n`),
    as('html-failed', failed, 'html', `\`\`\`html\n${HOSTILE_HTML}\n\`\`\``),
    as('py-long', withPic, 'python', `\`\`\`python\n${LONG_PY}\`\`\``),
    as('py-none', failed, 'python', 'I cannot draw that.'),
  ];
  html = await report(records);
  const file = join(dir, 'report.html');
  await writeFile(file, html);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url());
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await page.waitForFunction(
    `document.querySelectorAll('.src[data-ready]').length === document.querySelectorAll('.src').length`,
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

const card = (id: string) =>
  page.locator('article.card', { has: page.locator(`header code:text-is("${id}")`) });

describe('report.html: code beside the picture for non-SVG domains', () => {
  it('shows the domain code next to the picture, as text, in a two-column card', async () => {
    const py = card('py-ok');
    expect(await py.getAttribute('class')).toContain('wide');
    expect(await py.locator('.pair > figure.pic img').count()).toBe(1);
    expect(await py.locator('.pair > .src .lang').textContent()).toBe('python');
    expect(await py.locator('.pair > .src pre').textContent()).toBe(PY);
    // Side by side: the code's box starts to the right of the picture's, on the same row.
    const pic = (await py.locator('.pair > figure.pic').boundingBox())!;
    const code = (await py.locator('.pair > .src').boundingBox())!;
    expect(code.x).toBeGreaterThanOrEqual(pic.x + pic.width - 1);
    expect(Math.abs(code.y - pic.y)).toBeLessThan(2);
  });

  it('shows the code of a failed render beside its failure, and markup never runs', async () => {
    const h = card('html-failed');
    expect(await h.locator('.pair > .pic.missing').count()).toBe(1);
    expect((await h.locator('.pair > .src pre').textContent())?.trim()).toBe(HOSTILE_HTML);
    expect(await page.evaluate<unknown>('window.__xss')).toBeUndefined();
    expect(await page.locator('.src img, .src script, .src h1').count()).toBe(0);
    expect(await card('py-none').locator('.src pre').textContent()).toBe(
      '(no python code found in the answer)',
    );
  });

  it('cuts long code and leaves SVG cards as before', async () => {
    const long = (await card('py-long').locator('.src pre').textContent())!;
    expect(long.length).toBeLessThan(MAX_CODE_CHARS + 80);
    expect(long).toMatch(/… \(\d+ more characters in results\.jsonl\)$/);
    for (const r of svgRecords) {
      const c = card(r.id);
      expect(await c.getAttribute('class')).not.toContain('wide');
      expect(await c.locator('.src').count()).toBe(0);
    }
  });

  it('loads offline with no errors, and the code adds little to the page', async () => {
    expect(consoleErrors).toEqual([]);
    expect(requests).toEqual([]);
    // Same records without domains: the code shown is also in the completion, so the
    // gzip text blob grows by far less than the code itself (≈ 8.5 kB of python here).
    const plain = await report(records.map(({ domain: _d, ...r }) => r));
    const codeChars = PY.length + HOSTILE_HTML.length + Math.min(LONG_PY.length, MAX_CODE_CHARS);
    process.stdout.write(
      `report-domains: page ${html.length} B, ${html.length - plain.length} B for ${codeChars} chars of code\n`,
    );
    expect(html.length - plain.length).toBeGreaterThan(0);
    expect(html.length - plain.length).toBeLessThan(codeChars / 4);
  });
});

describe('an eval run of a non-SVG rollout', () => {
  it('records its domain, and the report marks the card for its code', async () => {
    const { runEval } = await import('../../src/eval/run.ts');
    const { inspectCompletion } = await import('../../src/inspect/inspect.ts');
    const { createRenderPool } = await import('../../src/render/pool.ts');
    const { createModelClient } = await import('../../src/models/client.ts');
    const { schemaAnswer, startModelDouble } = await import('../support/model-double.ts');
    const { readFile } = await import('node:fs/promises');
    const double = await startModelDouble({ handler: schemaAnswer() });
    const renderer = createRenderPool({ workers: 1 });
    const outDir = join(dir, 'run');
    try {
      await runEval({
        prompts: [{ id: 'g', prompt: 'a graph from a to b' }],
        rollouts: [
          {
            id: 'dot1',
            prompt_id: 'g',
            prompt: 'a graph from a to b',
            completion: '```dot\ndigraph { a -> b }\n```',
          },
          {
            id: 'svg1',
            prompt_id: 'g',
            prompt: 'a graph from a to b',
            completion:
              '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M1 1L9 9" stroke="black"/></svg>',
          },
        ],
        outDir,
        run: 'domains',
        judge: createModelClient('vllm:Qwen/Qwen3-VL-8B-Instruct', {
          role: 'judge',
          baseUrl: double.url,
          maxRetries: 0,
          env: {},
        }),
        renderer,
        inspect: inspectCompletion,
        cache: false,
        concurrency: 2,
      });
    } finally {
      await renderer.close();
      await double.close();
    }
    const lines = (await readFile(join(outDir, 'results.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as EvalRecord);
    expect(lines.map((l) => [l.id, l.domain ?? null, !!l.image])).toEqual([
      ['dot1', 'dot', true],
      ['svg1', null, true],
    ]);
    const page = await readFile(join(outDir, 'report.html'), 'utf8');
    const data = JSON.parse(page.match(/id="rubrica-data">([^<]*)<\/script>/)![1]!);
    expect(data.rollouts.map((r: { id: string; d?: string }) => [r.id, r.d ?? null])).toEqual([
      ['dot1', 'dot'],
      ['svg1', null],
    ]);
  }, 120_000);
});
