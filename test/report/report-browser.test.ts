// report.html in a real browser (Debian chromium via playwright-core): it loads from
// file:// without console errors or network requests, every picture decodes, the charts
// are there, the filters change which cards are visible, and hostile text stays text.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyUsage } from '../../src/core/usage.ts';
import { renderReport } from '../../src/eval/report/report.ts';
import { loadThumbnails } from '../../src/eval/report/thumbnails.ts';
import { launchChromium } from './browser.ts';
import { buildFixture, type ReportFixture, XSS_PROMPT } from './fixture.ts';

let dir: string;
let fixture: ReportFixture;
let html: string;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];
const requests: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rubrica-report-'));
  fixture = await buildFixture(dir);
  html = await renderReport({
    title: 'fixture <run>',
    records: fixture.records,
    kinds: ['universal', 'ruler'],
    images: await loadThumbnails(dir, fixture.records),
    headline: [{ label: 'render success', value: '81%', hint: '13 of 16' }],
    settings: { judge: 'ollama:qwen3-vl:8b', concurrency: 4, cache: true },
    usage: [{ role: 'judge', model: 'ollama:qwen3-vl:8b', usage: { ...emptyUsage(), calls: 3 } }],
    notices: ['judge <unreachable>'],
    generatedAt: '2026-11-30T00:00:00Z',
  });
  const file = join(dir, 'report.html');
  await writeFile(file, html);
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url());
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
});

afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

const visibleCards = () => page.locator('article.card:not(.hidden)').count();

describe('report.html in chromium', () => {
  it('is one file with no external reference', async () => {
    expect(html).toContain('Content-Security-Policy');
    expect(html).not.toMatch(/<link\b|<script\s+src|<iframe|@import/i);
    // Every URL-bearing attribute in the live DOM is a data: URI or a same-page anchor.
    // Page scripts are strings: this project compiles without the DOM typings.
    const refs = await page.evaluate<string[]>(`(() => {
      const out = [];
      for (const el of document.querySelectorAll('*')) {
        for (const a of el.attributes) {
          if (/^(src|srcset|href|xlink:href|action|poster|data)$/i.test(a.name)) out.push(a.value);
        }
      }
      return out;
    })()`);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((v) => !v.startsWith('data:') && !v.startsWith('#'))).toEqual([]);
  });

  it('loads with no console errors and no network requests', () => {
    expect(consoleErrors).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('shows every picture, decoded', async () => {
    const imgs = page.locator('article.card img');
    expect(await imgs.count()).toBe(fixture.withImage.length);
    const widths = await page.evaluate<(number | false)[]>(
      `Array.from(document.querySelectorAll('article.card img'), (e) => e.complete && e.naturalWidth)`,
    );
    expect(widths.every((w) => typeof w === 'number' && w > 0)).toBe(true);
    // Cards without a picture say why.
    const missing = await page.locator('.pic.missing').allTextContents();
    expect(missing.length).toBe(fixture.records.length - fixture.withImage.length);
    expect(missing.join(' ')).toContain('no SVG in the answer');
  });

  it('has the server-rendered charts as inline SVG', async () => {
    for (const id of ['reward', 'status', 'axes', 'criteria', 'tokens']) {
      expect(await page.locator(`#chart-${id} svg`).count(), id).toBe(1);
    }
  });

  it('keeps model-written text as text', async () => {
    expect(await page.evaluate<unknown>('window.__xss')).toBeUndefined();
    expect(await page.locator('section.prompt h3').first().textContent()).toBe(XSS_PROMPT);
    // The hostile rationale is shown literally inside its <details>.
    const why = page.locator('details.why').first();
    await why.locator('summary').click();
    // Rationales are unpacked from the compressed text blob on first open.
    await page.waitForSelector('details.why[data-ready]');
    expect(await why.textContent()).toContain('<svg onload=');
    const code = page.locator('details.code').first();
    await code.locator('summary').click();
    await page.waitForSelector('details.code[data-ready]');
    expect(await code.locator('pre').textContent()).toContain('<script>window.__xss=4</script>');
    expect(await page.evaluate<unknown>('window.__xss')).toBeUndefined();
    expect(await page.locator('details.why svg').count()).toBe(0);
    expect(await page.locator('details.why b', { hasText: 'bold?' }).count()).toBe(0);
  });

  it('filters cards by check flag, with the count of each flag', async () => {
    const total = fixture.records.length;
    const has = (check: 'clutter' | 'text_in_image') =>
      fixture.records.filter((r) => r.scores.universal!.checks[check] === true).length;
    expect(has('clutter')).toBeGreaterThan(0);
    expect(has('text_in_image')).toBe(2);
    const options = await page.locator('select[name=flag] option').allTextContents();
    expect(options).toContain(`clutter (${has('clutter')})`);
    expect(options).toContain('text in image (2)');
    await page.locator('select[name=flag]').selectOption('clutter');
    expect(await visibleCards()).toBe(has('clutter'));
    // Every card shown carries the chip.
    const chips = await page
      .locator('article.card:not(.hidden)')
      .evaluateAll((cs) => cs.map((c) => (c.textContent ?? '').includes('clutter')));
    expect(chips.every(Boolean)).toBe(true);
    await page.locator('select[name=flag]').selectOption('text in image');
    expect(await visibleCards()).toBe(2);
    const none = fixture.records.filter((r) => {
      const c = r.scores.universal!.checks;
      return !c.clutter && !c.text_in_image && !c.blank && !c.clipped;
    }).length;
    await page.locator('select[name=flag]').selectOption('-none');
    expect(await visibleCards()).toBe(none);
    await page.locator('select[name=flag]').selectOption('');
    expect(await visibleCards()).toBe(total);
  });

  it('filters cards by outcome, reason and score', async () => {
    const total = fixture.records.length;
    expect(await visibleCards()).toBe(total);
    expect(await page.locator('#visible').textContent()).toBe(`showing ${total} of ${total}`);

    const failed = fixture.records.filter(
      (r) => r.scores.universal?.status === 'unscoreable' && !r.image,
    ).length;
    await page.locator('input[name=outcome][value=failed]').uncheck();
    expect(await visibleCards()).toBe(total - failed);
    await page.locator('input[name=outcome][value=failed]').check();

    await page.locator('select[name=reason]').selectOption('judge_error');
    const notJudged = fixture.records.filter(
      (r) => r.scores.universal?.reason === 'judge_error',
    ).length;
    expect(await visibleCards()).toBe(notJudged);
    await page.locator('select[name=reason]').selectOption('');

    await page.locator('input[name=min]').fill('0.5');
    const high = fixture.records.filter((r) => {
      const s = r.scores.universal!;
      return s.reason !== 'judge_error' && s.reward >= 0.5;
    }).length;
    expect(high).toBeGreaterThan(0);
    expect(high).toBeLessThan(total);
    expect(await visibleCards()).toBe(high);
    // Sections whose cards are all hidden disappear with them.
    const sections = await page.locator('section.prompt:not(.hidden)').count();
    const promptsWithHigh = new Set(
      fixture.records
        .filter(
          (r) => r.scores.universal!.reason !== 'judge_error' && r.scores.universal!.reward >= 0.5,
        )
        .map((r) => r.prompt_id),
    );
    expect(sections).toBe(promptsWithHigh.size);
    // Under the other reward the same range selects other cards.
    await page.locator('select[name=kind]').selectOption('ruler');
    const highRuler = fixture.records.filter((r) => {
      const s = r.scores.ruler!;
      return s.reason !== 'judge_error' && s.reward >= 0.5;
    }).length;
    expect(highRuler).not.toBe(high);
    expect(await visibleCards()).toBe(highRuler);
    await page.locator('select[name=kind]').selectOption('universal');
    await page.locator('input[name=min]').fill('0');
    expect(await visibleCards()).toBe(total);
  });

  it('orders prompts hardest first and sorts cards by score', async () => {
    const means = new Map<string, number[]>();
    for (const r of fixture.records) {
      const s = r.scores.universal!;
      if (s.reason === 'judge_error') continue;
      means.set(r.prompt_id, [...(means.get(r.prompt_id) ?? []), s.reward]);
    }
    const order = [...means]
      .map(([p, v]) => [p, v.reduce((a, b) => a + b, 0) / v.length] as const)
      .sort((a, b) => a[1] - b[1])
      .map(([p]) => p);
    await page.locator('select[name=sort]').selectOption('prompt-hard');
    const shown = await page.evaluate<string[]>(
      `Array.from(document.querySelectorAll('section.prompt'), (s) => s.dataset.prompt)`,
    );
    expect(shown).toEqual(order);
    expect(order).not.toEqual([...order].sort());
    await page.locator('select[name=sort]').selectOption('score-desc');
    const scores = await page.evaluate<string[]>(
      `Array.from(document.querySelectorAll('article.card'), (c) => c.getAttribute('data-score-universal'))`,
    );
    const judged = scores.filter((v) => v !== '').map(Number);
    expect(judged).toEqual([...judged].sort((a, b) => b - a));
    // Rollouts not judged have no score and come last.
    expect(scores.slice(judged.length).every((v) => v === '')).toBe(true);
    await page.locator('select[name=sort]').selectOption('prompt');
  });
});
