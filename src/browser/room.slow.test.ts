// The browser room against a real Chromium: it draws, it loads nothing from outside (a real
// HTTP server on loopback must see no request), scripts stay off unless asked for, a hung
// page is killed on time and replaced, and a dead browser is relaunched.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadPageJobError,
  type BrowserRoom,
  BrowserRoomClosedError,
  createBrowserRoom,
  type PageResult,
} from './room.ts';

let room: BrowserRoom;
let server: Server;
let base = '';
const hits: string[] = [];

beforeAll(async () => {
  room = createBrowserRoom({ pages: 2, timeoutMs: 20_000 });
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('x');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await room?.close();
  server?.close();
});

async function pixel(r: PageResult, x: number, y: number): Promise<number[]> {
  if (!r.ok) throw new Error(`not drawn: ${r.error.code} ${r.error.message}`);
  const { data, info } = await sharp(r.png)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 3;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

const NS = 'xmlns="http://www.w3.org/2000/svg"';

describe('browser room', () => {
  it('draws an SVG as an <img> filling the viewport on the background', async () => {
    const svg = `<svg ${NS} viewBox="0 0 10 10"><rect width="5" height="5" fill="hsl(120,100%,25%)"/><rect x="5" y="5" width="5" height="5" fill="#ff000080"/></svg>`;
    const r = await room.renderPage({ svg, viewport: { width: 200, height: 200 } });
    expect(r.ok && [r.width, r.height]).toEqual([200, 200]);
    expect(await pixel(r, 10, 10)).toEqual([0, 128, 0]);
    expect(await pixel(r, 150, 50)).toEqual([255, 255, 255]);
    const half = await pixel(r, 150, 150); // 50% red over white
    expect(half[0]).toBe(255);
    expect(Math.abs(half[1]! - 127)).toBeLessThanOrEqual(1);
  });

  it('refuses every request to the outside and says which', async () => {
    const html = `<html><body><img src="${base}/img"><link rel="stylesheet" href="${base}/css"><img src="file:///etc/hostname">
      <script>fetch('${base}/fetch').catch(()=>{}); try { new WebSocket('${base.replace('http', 'ws')}/ws') } catch {}
      document.body.append(Object.assign(document.createElement('p'), { id: 'done' }));</script></body></html>`;
    const r = await room.renderPage({ html, javascript: true, waitForSelector: '#done' });
    expect(r.ok).toBe(true);
    await new Promise((res) => setTimeout(res, 300)); // a late request would show up here
    expect(hits).toEqual([]);
    for (const path of ['/img', '/css', '/fetch']) expect(r.blockedRequests).toContain(base + path);
    expect(r.blockedRequests).toContain('file:///etc/hostname');
    expect(r.blockedRequests.some((u) => u.endsWith('/ws'))).toBe(true);
  });

  it('an SVG never runs scripts nor loads its references, even as its own <img>', async () => {
    const svg = `<svg ${NS} viewBox="0 0 10 10"><rect id="r" width="10" height="10" fill="blue"/><image href="${base}/svg-image" width="10" height="10"/><script>document.getElementById('r').setAttribute('fill','red')</script></svg>`;
    const r = await room.renderPage({ svg, javascript: true });
    // Chromium draws its broken-image icon where the <image> is; the rect around it stays
    // blue (the script would have made it red).
    expect(await pixel(r, 10, 250)).toEqual([0, 0, 255]);
    expect(hits).toEqual([]);
  });

  it('keeps scripts off in HTML unless asked', async () => {
    const html = `<html><body style="margin:0;background:white"><script>document.body.style.background='red'</script></body></html>`;
    const off = await room.renderPage({ html, viewport: { width: 50, height: 50 } });
    expect(await pixel(off, 5, 5)).toEqual([255, 255, 255]);
    const on = await room.renderPage({
      html,
      javascript: true,
      viewport: { width: 50, height: 50 },
    });
    expect(await pixel(on, 5, 5)).toEqual([255, 0, 0]);
  });

  it('reports console errors and uncaught exceptions', async () => {
    const html = `<script>console.error('first'); throw new Error('second')</script>`;
    const r = await room.renderPage({ html, javascript: true });
    expect(r.consoleErrors).toContain('first');
    expect(r.consoleErrors.some((m) => m.includes('second'))).toBe(true);
  });

  it('reuses a scripted page only after a reset: nothing of one job reaches the next', async () => {
    const one = createBrowserRoom({ pages: 1, timeoutMs: 20_000 });
    try {
      const first = await one.renderPage({
        javascript: true,
        html: `<script>window.leak = 1; window.name = 'left-behind'; history.pushState({}, '', '#x');
          setInterval(() => { const p = document.getElementById('probe'); if (p) p.textContent = 'LEAK' }, 5);
          try { localStorage.setItem('k', 'v') } catch {}</script>`,
      });
      expect(first.ok).toBe(true);
      const created = one.stats().pagesCreated;
      const second = await one.renderPage({
        javascript: true,
        waitForSelector: '#done',
        html: `<p id="probe">clean</p><script>setTimeout(() => {
          let stored = 'none';
          try { stored = String(localStorage.getItem('k')) } catch (e) { stored = e.name }
          console.error(JSON.stringify({ leak: typeof window.leak, name: window.name,
            probe: document.getElementById('probe').textContent, stored }));
          document.body.append(Object.assign(document.createElement('i'), { id: 'done' }));
        }, 300)</script>`,
      });
      expect(second.ok).toBe(true);
      expect(JSON.parse(second.consoleErrors[0]!)).toEqual({
        leak: 'undefined',
        name: '',
        probe: 'clean',
        stored: 'SecurityError', // an opaque origin: no storage at all
      });
      expect(one.stats().pagesCreated).toBe(created); // the same page, reset, not a new one
    } finally {
      await one.close();
    }
  });

  it('a scripted page that hangs when left cannot be reset: it is dropped', async () => {
    const one = createBrowserRoom({ pages: 1, timeoutMs: 20_000 });
    try {
      const first = await one.renderPage({
        javascript: true,
        // Hangs only when navigated away from: after its picture, during the reset.
        html: "<p>a</p><script>addEventListener('pagehide', () => { while (true) {} })</script>",
      });
      expect(first.ok).toBe(true);
      const next = await one.renderPage({ javascript: true, html: '<p>b</p><script></script>' });
      expect(next.ok).toBe(true);
      expect(one.stats()).toMatchObject({ pagesCreated: 2, launches: 1, crashes: 0 });
    } finally {
      await one.close();
    }
  });

  it('a hung page times out, is replaced, and the room goes on', async () => {
    const before = room.stats();
    const r = await room.renderPage({
      html: '<script>while (true) {}</script>',
      javascript: true,
      timeoutMs: 1500,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('timeout');
    expect(r.ms).toBeLessThan(5000);
    const next = await room.renderPage({ svg: `<svg ${NS}><rect width="9" height="9"/></svg>` });
    expect(next.ok).toBe(true);
    expect(room.stats().timeouts).toBe(before.timeouts + 1);
  });

  it('an SVG Chromium refuses is a render_error, not a blank picture', async () => {
    const r = await room.renderPage({ svg: '<svg viewBox="0 0 1 1"><rect/></svg>' });
    expect(!r.ok && r.error.code).toBe('render_error');
  });

  it('relaunches a browser that died, and fails the job it held as render_crash', async () => {
    const first = await room.renderPage({ svg: `<svg ${NS}><rect width="9" height="9"/></svg>` });
    expect(first.ok).toBe(true);
    const { browserPid, launches, pagesCreated } = room.stats();
    expect(browserPid).toBeGreaterThan(0);
    const held = room.renderPage({
      html: '<script>while (true) {}</script>',
      javascript: true,
      timeoutMs: 30_000,
    });
    // Kill once the job has its page (a death while opening one is retried, not failed).
    while (room.stats().pagesCreated === pagesCreated) await new Promise((r) => setTimeout(r, 20));
    await new Promise((res) => setTimeout(res, 300));
    process.kill(browserPid!, 'SIGKILL');
    const r = await held;
    expect(!r.ok && r.error.code).toBe('render_crash');
    const again = await room.renderPage({ svg: `<svg ${NS}><rect width="9" height="9"/></svg>` });
    expect(again.ok).toBe(true);
    expect(room.stats().launches).toBe(launches + 1);
    expect(room.stats().browserPid).not.toBe(browserPid);
  }, 120_000);

  it('runs at most `pages` jobs at once; one still waiting when the room closes is refused', async () => {
    const one = createBrowserRoom({ pages: 1, timeoutMs: 20_000 });
    // A page that takes 400 ms to show what the job waits for.
    const slow = {
      html: "<body><script>setTimeout(() => { document.body.innerHTML = '<i id=done>x</i>'; }, 400)</script></body>",
      javascript: true,
      waitForSelector: '#done',
    };
    try {
      await one.renderPage({ html: '<p>warm</p>' }); // the launch is not part of what is timed
      const t0 = performance.now();
      const [a, b] = await Promise.all([one.renderPage(slow), one.renderPage(slow)]);
      const wall = performance.now() - t0;
      expect(a.ok && b.ok).toBe(true);
      // One page: the second job ran after the first (each `ms` is its own run, not its wait).
      expect(wall).toBeGreaterThanOrEqual(a.ms + b.ms - 5);
      const settled = (p: Promise<PageResult>) =>
        p.then(
          (r) => r,
          (e: unknown) => e,
        );
      const running = settled(one.renderPage(slow));
      const waiting = settled(one.renderPage(slow));
      await new Promise((r) => setTimeout(r, 200)); // the first job holds the page now
      await one.close();
      expect(await waiting).toBeInstanceOf(BrowserRoomClosedError);
      // The job that held the page ends as a value (its browser went away), not a throw.
      expect(await running).toHaveProperty('ok');
    } finally {
      await one.close();
    }
  }, 120_000);

  it('refuses misuse by throwing', async () => {
    await expect(room.renderPage({})).rejects.toBeInstanceOf(BadPageJobError);
    await expect(room.renderPage({ html: 'x', svg: 'y' })).rejects.toBeInstanceOf(BadPageJobError);
  });
});
