// report.html at the sizes that matter: 300 drawings (the run: 6.3 MB before) must
// fit in 2 MB and open offline in Chromium; 10,000 rollouts must stay usable — the first
// page draws quickly, paging, sorting and filtering work — and the test prints both file sizes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../src/eval/report/report.ts';
import { loadThumbnails } from '../../src/eval/report/thumbnails.ts';
import { headlineTiles } from '../../src/eval/run-report.ts';
import { summarizeRun } from '../../src/eval/summary.ts';
import type { EvalRecord } from '../../src/eval/types.ts';
import { launchChromium } from './browser.ts';
import { buildScaleCorpus } from './scale-corpus.ts';

const MB = 1024 * 1024;
let root: string;
let browser: Browser;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rubrica-report-scale-'));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await rm(root, { recursive: true, force: true });
});

async function writeReport(
  dir: string,
  records: EvalRecord[],
  images: Map<string, string>,
): Promise<{ file: string; html: string }> {
  const summary = summarizeRun(records);
  const html = await renderReport({
    title: `scale ${records.length}`,
    records,
    kinds: ['universal'],
    images,
    headline: headlineTiles({
      kinds: ['universal'],
      rewards: summary.rewards,
      usage: { judge: summary.rewards.universal!.usage, policy: null },
    }),
    settings: { judge: 'vllm:Qwen/Qwen3-VL-8B-Instruct' },
    usage: [],
    notices: [],
    generatedAt: '2026-12-01T00:00:00Z',
  });
  const file = join(dir, 'report.html');
  await writeFile(file, html);
  return { file, html };
}

/** Bytes of the page by part, for the log. */
interface Breakdown {
  total: number;
  thumbnails: number;
  distinct_thumbnails: number;
  gallery_rows: number;
  packed_text: number;
}

function breakdown(html: string): Breakdown {
  const data = html.match(
    /<script type="application\/json" id="rubrica-data">([\s\S]*?)<\/script>/,
  )!;
  const text = html.match(
    /<script type="application\/octet-stream" id="rubrica-text">([\s\S]*?)<\/script>/,
  )!;
  const images = [...data[1]!.matchAll(/data:image\/webp;base64,[A-Za-z0-9+/=]+/g)];
  const imageBytes = images.reduce((a, m) => a + m[0].length, 0);
  return {
    total: Buffer.byteLength(html),
    thumbnails: imageBytes,
    distinct_thumbnails: images.length,
    gallery_rows: Buffer.byteLength(data[1]!) - imageBytes,
    packed_text: text[1]!.length,
  };
}

async function open(file: string): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url());
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { page, errors, requests };
}

const shownScores = (page: Page) =>
  page.evaluate<(number | null)[]>(
    `Array.from(document.querySelectorAll('article.card'), (c) => { const v = c.getAttribute('data-score-universal'); return v === null || v === '' ? null : Number(v); })`,
  );

describe('report.html for 300 drawings', () => {
  let file: string;
  let html: string;
  let records: EvalRecord[];

  beforeAll(async () => {
    const dir = join(root, 'r300');
    ({ records } = await buildScaleCorpus(dir, 300));
    ({ file, html } = await writeReport(dir, records, await loadThumbnails(dir, records)));
  }, 240_000);

  it('is at most 2 MB', () => {
    const parts = breakdown(html);
    console.log(`report.html, 300 drawings: ${JSON.stringify(parts)}`);
    expect(parts.distinct_thumbnails).toBe(
      new Set(records.filter((r) => r.image).map((r) => r.image)).size,
    );
    expect(parts.total).toBeLessThanOrEqual(2 * MB);
  });

  it('opens offline with every picture of the page decoded, and pages and sorts', async () => {
    const { page, errors, requests } = await open(file);
    try {
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      expect(await page.locator('article.card').count()).toBe(60);
      const widths = await page.evaluate<number[]>(
        `Array.from(document.querySelectorAll('article.card img'), (e) => e.complete ? e.naturalWidth : 0)`,
      );
      expect(widths.length).toBeGreaterThan(50);
      expect(widths.every((w) => w === 192)).toBe(true);
      expect(await page.locator('#visible').textContent()).toBe('showing 300 of 300');
      expect(await page.locator('#page-info').textContent()).toBe('page 1 of 5 · cards 1–60');
      const first = await page.locator('article.card code').first().textContent();
      await page.locator('button[name=next]').click();
      expect(await page.locator('#page-info').textContent()).toBe('page 2 of 5 · cards 61–120');
      expect(await page.locator('article.card code').first().textContent()).toBe(records[60]!.id);
      expect(first).toBe(records[0]!.id);

      // Sort by score, high first: the first page holds the best scores, not-judged last.
      await page.locator('select[name=sort]').selectOption('score-desc');
      expect(await page.locator('#page-info').textContent()).toBe('page 1 of 5 · cards 1–60');
      const scores = (await shownScores(page)) as number[];
      const judged = records
        .map((r) => r.scores.universal!)
        .filter((s) => s.reason !== 'judge_error')
        .map((s) => s.reward)
        .sort((a, b) => b - a);
      expect(scores).toEqual(judged.slice(0, 60));
      await page.locator('select[name=sort]').selectOption('score-asc');
      expect((await shownScores(page))[0]).toBe(0);
      // Sorted flat, each card names its prompt.
      expect(await page.locator('section.prompt').count()).toBe(0);
      expect(await page.locator('article.card .prompt-line').count()).toBe(60);
      // Status: failures first.
      await page.locator('select[name=sort]').selectOption('status');
      const outcomes = await page.evaluate<string[]>(
        `Array.from(document.querySelectorAll('article.card'), (c) => c.dataset.outcome)`,
      );
      const failed = records.filter((r) => !r.image).length;
      expect(outcomes.slice(0, failed).every((o) => o === 'failed')).toBe(true);
      expect(outcomes[failed]).toBe('not_judged');
      // Back to prompts: sections again.
      await page.locator('select[name=sort]').selectOption('prompt');
      expect(await page.locator('section.prompt').count()).toBe(6);
    } finally {
      await page.close();
    }
  });
});

describe('report.html for 10,000 rollouts', () => {
  let file: string;
  let html: string;
  let records: EvalRecord[];
  let unshared = 0;

  beforeAll(async () => {
    const dir = join(root, 'r10k');
    // 300 distinct drawings, each drawn by 33 rollouts: identical renders share one thumbnail.
    ({ records } = await buildScaleCorpus(dir, 10_000, 300));
    const images = await loadThumbnails(dir, records);
    ({ file, html } = await writeReport(dir, records, images));
    // What the page would weigh if every rollout had a picture of its own.
    const parts = breakdown(html);
    const perRecord = [...images.values()].reduce((a, uri) => a + uri.length, 0);
    unshared = parts.total - parts.thumbnails + perRecord;
  }, 600_000);

  it('reports its size', () => {
    const parts = breakdown(html);
    console.log(
      `report.html, 10,000 rollouts: ${JSON.stringify(parts)}; with 10,000 distinct pictures it would be about ${(unshared / MB).toFixed(1)} MB`,
    );
    expect(parts.total).toBeGreaterThan(0);
  });

  it('draws one page quickly and pages, sorts and filters', async () => {
    const t0 = performance.now();
    const { page, errors } = await open(file);
    const loadMs = performance.now() - t0;
    try {
      expect(errors).toEqual([]);
      // The DOM holds one page of cards, not 10,000.
      expect(await page.locator('article.card').count()).toBe(60);
      expect(await page.locator('#visible').textContent()).toBe('showing 10000 of 10000');
      expect(await page.locator('#page-info').textContent()).toBe('page 1 of 167 · cards 1–60');
      const timed = async (action: () => Promise<unknown>) => {
        const t = performance.now();
        await action();
        return performance.now() - t;
      };
      const nextMs = await timed(() => page.locator('button[name=next]').click());
      expect(await page.locator('#page-info').textContent()).toBe('page 2 of 167 · cards 61–120');
      const sortMs = await timed(() =>
        page.locator('select[name=sort]').selectOption('score-desc'),
      );
      const scores = (await shownScores(page)) as number[];
      const best = Math.max(
        ...records
          .filter((r) => r.scores.universal!.status === 'ok')
          .map((r) => r.scores.universal!.reward),
      );
      expect(scores[0]).toBe(best);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      const filterMs = await timed(() => page.locator('input[name=min]').fill('0.8'));
      const high = records.filter(
        (r) => r.scores.universal!.status === 'ok' && r.scores.universal!.reward >= 0.8,
      ).length;
      expect(await page.locator('#visible').textContent()).toBe(`showing ${high} of 10000`);
      await page.locator('select[name=size]').selectOption('240');
      expect(await page.locator('article.card').count()).toBe(Math.min(240, high));
      console.log(
        `10,000 rollouts in chromium: load ${Math.round(loadMs)} ms, next page ${Math.round(nextMs)} ms, sort ${Math.round(sortMs)} ms, filter ${Math.round(filterMs)} ms`,
      );
      // Generous bounds for a machine shared by many processes; the point is no multi-second stall.
      expect(loadMs).toBeLessThan(15_000);
      expect(Math.max(nextMs, sortMs, filterMs)).toBeLessThan(3_000);
    } finally {
      await page.close();
    }
  });
});
