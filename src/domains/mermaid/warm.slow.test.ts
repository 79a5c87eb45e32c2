// The warm Mermaid page (issue 36): one page keeps the 3.5 MB bundle loaded across jobs and
// is reset between them. Every job must come out exactly as from a page of its own (the
// one-shot `mermaidPage`): same picture, same code. The sequence is chosen so that a leak
// shows in the picture: job 1 sets a dark theme and its own CSS through %%{init}%% and a
// classDef (Mermaid scopes them to the SVG's id, the same `#diagram` in every job), a refused
// diagram leaves #out marked done, and a plain diagram follows each.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRoom, createBrowserRoom } from '../../browser/room.ts';
import type { DomainRender } from '../types.ts';
import { createMermaidRenderer, mermaidPage, mermaidShell } from './renderer.ts';

const DARK = [
  '%%{init: {"theme": "dark", "themeCSS": ".node rect { fill: #ff0000 !important; }"}}%%',
  'flowchart LR',
  '  S[SECRET-ONE-42] --> T[other]:::loud',
  '  classDef loud fill:#00ff00,stroke:#0000ff,stroke-width:6px',
].join('\n');
const PLAIN = 'flowchart LR\n  A[Start] --> B[other]';
const SEQ = 'sequenceDiagram\n  Alice->>Bob: hi\n  Bob-->>Alice: ok';
const BROKEN = 'sequenceDiagram\n  Alice->>';
const JOBS = [DARK, PLAIN, BROKEN, PLAIN, SEQ, DARK, SEQ];

const outcome = (r: DomainRender) => (r.ok ? 'ok' : r.error.code);

async function pixels(png: Buffer): Promise<string> {
  const { data, info } = await sharp(png)
    .flatten({ background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return `${info.width}x${info.height}:${data.toString('base64')}`;
}

let room: BrowserRoom;
beforeAll(() => {
  room = createBrowserRoom({ pages: 1 });
});
afterAll(async () => {
  await room.close();
});

describe('mermaid warm page', () => {
  it('draws each job of a sequence as a page of its own would, on one page', async () => {
    // One page per diagram first (the one-shot way), in a room of their own.
    const fresh = createBrowserRoom({ pages: 1 });
    const expected = new Map<string, { code: string; pixels?: string }>();
    try {
      for (const code of [DARK, PLAIN, SEQ, BROKEN]) {
        const r = await fresh.renderPage({
          html: mermaidPage(code),
          javascript: true,
          viewport: { width: 1200, height: 900 },
          timeoutMs: 90_000,
          waitForSelector: '#out[data-done]',
          selector: '#out[data-done]',
        });
        expect(r.ok).toBe(true);
        const refused = r.consoleErrors.some((m) => m.startsWith('rubrica-mermaid-failed:'));
        expected.set(
          code,
          refused
            ? { code: 'exec_error' }
            : { code: 'ok', pixels: r.ok ? await pixels(r.png) : '' },
        );
      }
    } finally {
      await fresh.close();
    }
    expect(expected.get(BROKEN)!.code).toBe('exec_error');
    // The leak this guards against is visible: the dark, restyled diagram differs.
    expect(expected.get(DARK)!.pixels).not.toBe(expected.get(PLAIN)!.pixels);

    const mermaid = createMermaidRenderer({ room, timeoutMs: 90_000 });
    for (const [i, code] of JOBS.entries()) {
      const r = await mermaid.render(code);
      const want = expected.get(code)!;
      expect(`${i}:${outcome(r)}`).toBe(`${i}:${want.code}`);
      if (r.ok) expect((await pixels(r.png)) === want.pixels, `job ${i} pixels`).toBe(true);
    }
    // Every job ran on the one warm page: the bundle was loaded once, not per job.
    expect(room.stats().pagesCreated).toBe(1);
  }, 300_000);
});

const STATE = `[document.head.innerHTML,
  Array.prototype.map.call(document.body.childNodes, function (n) {
    return n.nodeName === 'SCRIPT' ? 'script' : n.outerHTML || n.textContent;
  }).join(''),
  'sheets=' + document.styleSheets.length, 'ids=' + document.querySelectorAll('[id]').length].join('|')`;

describe('mermaid warm page reset', () => {
  it('leaves nothing of job 1 in the page: no text, ids, styles or extra elements', async () => {
    const { launchChromium } = await import('../../browser/launch.ts');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.setContent(mermaidShell(), { waitUntil: 'load', timeout: 90_000 });
      // The page's state outside its own scripts (whose text names what they look for).
      const state = async () => String(await page.evaluate(STATE));
      const before = await state();
      // A tooltip makes Mermaid add an element of its own to the body, outside #out.
      const job1 = `${DARK}\n  click S "https://example.invalid/" "SECRET-TIP-7"`;
      await page.evaluate((t) => {
        (globalThis as unknown as { __rubricaRun: (t: string) => void }).__rubricaRun(t);
      }, job1);
      await page.waitForSelector('#out[data-done]', { state: 'attached', timeout: 90_000 });
      const during = await state();
      expect(during).toContain('SECRET-ONE-42');
      expect(await page.evaluate('window.__rubricaReset()')).toBe(true);
      const after = await state();
      for (const trace of ['SECRET-ONE-42', 'SECRET-TIP-7', 'id="diagram"', '#ff0000', 'data-done'])
        expect(after, trace).not.toContain(trace);
      expect(after).toBe(before);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
