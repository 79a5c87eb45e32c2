// A reusable Chromium room: one browser process, a bounded set of pages, nothing loaded
// from outside. The chromium SVG renderer uses it, and so can any domain that needs a
// browser's picture (HTML, Mermaid, Vega).
//
//   const room = createBrowserRoom({ pages: 2 });
//   const r = await room.renderPage({ svg, viewport: { width: 512, height: 512 } });
//   const r = await room.renderPage({ html, javascript: true, waitForSelector: 'svg' });
//   if (r.ok) use(r.png); else log(r.error.code, r.error.message);
//   r.blockedRequests; r.consoleErrors; // on success and failure alike
//   await room.close();
//
// A job is `{ html }` (a whole document, set as the page's content) or `{ svg }` (an SVG
// document drawn as an `<img>` filling the viewport on `background`, default white — the
// way a web page shows a picture; an `<img>` never runs the SVG's scripts nor loads its
// external resources). `viewport` defaults to 512×512; `javascript` defaults to false
// (SVG jobs ignore it); `timeoutMs` (default: the room's, 10 000) bounds the whole job;
// `waitForSelector` waits for an element before the shot; `selector` shoots that element's
// box instead of the viewport. The result is a PNG of the viewport (or element) plus
// `blockedRequests` (every URL the page tried to load: all network is refused; only data:
// and blob: URLs load) and `consoleErrors` (console.error messages and uncaught errors).
// `measure` adds `layout` (the document's size against the viewport's, from DevTools);
// `fullPage: { maxHeight }` shoots the document's whole height (at the viewport's width),
// cut at maxHeight with `clipped: true`.
//
// Failures are values: `timeout` (the job passed its limit: its page and context are
// closed and replaced), `render_crash` (the page or the browser died: replaced; a dead
// browser is relaunched on the next job), `render_error` (the document could not be drawn,
// e.g. an SVG Chromium refuses, or a selector that never appeared). Only misuse throws
// (a closed room, a job with neither or both of html/svg).
//
// Healing (health.ts): a job's damage can outlive its page (a GPU process left busy makes
// every later job time out). After any timeout or crash the room draws a tiny page within a
// short limit before it takes the next job; a browser that cannot is killed with all its
// processes and the next job launches a fresh one. Launch flags keep WebGL off (launch.ts).
//
// Isolation: every page lives in its own browser context (no shared cookies, storage or
// cache). A script-free context is reused as is (setting new content replaces everything it
// held). A context that ran JavaScript is reused only after a reset (`resetScripted`): the
// page is navigated to a new about:blank document — a new window, so the job's globals,
// timers, workers, listeners and DOM are gone — and window.name, the one thing a browsing
// context carries across documents, is cleared; its documents have an opaque origin, so
// cookies, localStorage, sessionStorage and IndexedDB were never available to it. A reset
// that fails or times out, a failed job, and every JS_REUSE_LIMIT-th job throw the context
// away. Reuse keeps the page's renderer process: starting one costs about 1 CPU-s. No file:// (pages are
// about:blank, which may not load local files), no downloads, no popups, no service workers.
//
// Files (`{ html, files }`, the task's data for an html job): the document is served from an
// origin of its own, new for every job (http://job-<n>-<random>.rubrica.invalid/), by the
// room's router, which answers exactly the job's file names under it (`fetch('data.csv')`,
// `<img src="logo.png">`, `import './chart.js'`) and refuses every other URL as before. Such
// a document has a real origin, so it could use storage: the origin is never reused, and the
// page is reset (like a scripted one) before another job may use its context.
import { randomBytes } from 'node:crypto';
import pLimit from 'p-limit';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { type ErrorValue, makeError, RubricaError } from '../core/errors.ts';
import { HEALTH_PAGE, HEALTH_TIMEOUT_MS, HEALTH_VIEWPORT, killBrowserTree } from './health.ts';
import {
  type PageTraffic,
  PENDING_SCRIPT,
  SETTLE_MAX_MS,
  settleRequests,
  watchTraffic,
} from './settle.ts';
import { svgImagePage } from './svg-page.ts';

/**
 * One page to shoot: an HTML document or an SVG, with its viewport, time limit and what to
 * wait for or clip to.
 */
export interface PageJob {
  html?: string;
  svg?: string;
  viewport?: { width: number; height: number };
  javascript?: boolean;
  timeoutMs?: number;
  /** CSS colour under an SVG job's picture; default white. */
  background?: string;
  waitForSelector?: string;
  selector?: string;
  /**
   * Shoot the whole document, not just the viewport: the viewport's width and the
   * document's height, clipped at `maxHeight` px (the result says `clipped`).
   */
  fullPage?: { maxHeight: number };
  /** Also report the document's size against the viewport's (`layout`), e.g. for overflow. */
  measure?: boolean;
  /**
   * html jobs: files the page may load by name (relative URLs), served from the job's own
   * origin; every other URL is still refused. Names are plain relative paths (checked by the
   * caller: src/core/assets.ts).
   */
  files?: Readonly<Record<string, Buffer>>;
  /**
   * A warm page (javascript on; not with files): `html` is a shell loaded once per context and
   * kept across jobs with the same `key`; each job calls the shell's `__rubricaRun(arg)`, and after
   * the shot its `__rubricaReset()` must answer true (the page back as the shell left it) or
   * the context is thrown away. For a document whose scripts are costly to load (Mermaid's
   * 3.5 MB bundle) and whose job is data, never script.
   */
  warm?: { key: string; arg: unknown };
}

/** The laid-out document's size (CSS px) against the viewport's inner size. */
export interface PageLayout {
  documentWidth: number;
  documentHeight: number;
  viewportWidth: number;
  viewportHeight: number;
}

export type PageErrorCode = 'timeout' | 'render_crash' | 'render_error';

interface PageLogs {
  blockedRequests: string[];
  consoleErrors: string[];
  ms: number;
}

/**
 * A page job's outcome: the PNG and its size, or an error value (timeout, crash, …); the
 * page's console errors and timing either way.
 */
export type PageResult =
  | ({
      ok: true;
      png: Buffer;
      width: number;
      height: number;
      /** With `measure` or `fullPage`: the document's size. */
      layout?: PageLayout;
      /** With `fullPage`: the document was taller than `maxHeight` and was cut there. */
      clipped?: boolean;
      /** A scripted page still loading its own requests SETTLE_MAX_MS after `load`, shot as it stood. */
      stillLoading?: boolean;
    } & PageLogs)
  | ({ ok: false; error: ErrorValue<PageErrorCode> } & PageLogs);

/** How many pages render at once, their default time limit, and which Chromium to launch. */
export interface BrowserRoomOptions {
  /** Pages rendering at once; default 2. */
  pages?: number;
  /** Default limit per job, ms; default 10 000. */
  timeoutMs?: number;
  executablePath?: string;
  launchTimeoutMs?: number;
}

export interface BrowserRoomStats {
  launches: number;
  jobs: number;
  timeouts: number;
  crashes: number;
  /** Pages (with their contexts) created; each job that ran scripts or failed costs one. */
  pagesCreated: number;
  browserPid: number | undefined;
  /** Health checks run (one before the next job after each timeout or crash). */
  healthChecks: number;
  /** Browsers killed because they failed a health check. */
  replaced: number;
}

/**
 * One Chromium process whose pages are jobs with time limits: `renderPage` never rejects for
 * a bad page (it resolves an error value), `close()` ends the browser.
 */
export interface BrowserRoom {
  renderPage(job: PageJob): Promise<PageResult>;
  stats(): BrowserRoomStats;
  close(): Promise<void>;
}

export class BrowserRoomClosedError extends RubricaError<'browser_room_closed'> {
  constructor() {
    super('browser_room_closed', 'browser room is closed');
  }
}
export class BadPageJobError extends RubricaError<'bad_page_job'> {
  constructor(message: string) {
    super('bad_page_job', message);
  }
}

interface Slot {
  browser: Browser;
  /** The browser's process id, for a hard kill when it will not close a context. */
  pid: number | undefined;
  context: BrowserContext;
  page: Page;
  javascript: boolean;
  /** The logs of the job running in this slot; route and console handlers write here. */
  logs: PageLogs;
  /** Requests of the running job's page, started and ended (src/browser/settle.ts). */
  traffic: PageTraffic;
  /** The running job's origin and files, when it has files (answered by the router). */
  served: { origin: string; html: string; files: Readonly<Record<string, Buffer>> } | null;
  crashed: Promise<never>;
  /** Raw DevTools session: its screenshot is about twice as fast as page.screenshot. */
  cdp: CDPSession;
  /** Jobs this slot has served. */
  jobs: number;
  /** The warm shell this page holds (PageJob.warm.key), or null. */
  shell: string | null;
}

/**
 * Makes a page that ran a job's scripts fit for the next job: a fresh about:blank document
 * (a new window; the old one's timers and globals die with it) and window.name cleared.
 * False when the page would not reset in time: the caller throws the context away.
 */
async function resetScripted(slot: Slot): Promise<boolean> {
  const reset = (async () => {
    await slot.page.goto('about:blank', { timeout: RESET_TIMEOUT_MS });
    // A string: this file is compiled without the DOM's types.
    const clean = await slot.page.evaluate(
      "(window.name = '', document.documentElement.outerHTML.length < 100 && window.name === '')",
    );
    return clean === true;
  })();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((res) => {
    timer = setTimeout(() => res(false), RESET_TIMEOUT_MS);
  });
  try {
    return await Promise.race([reset.catch(() => false), late, slot.crashed.catch(() => false)]);
  } finally {
    clearTimeout(timer);
  }
}

const DEFAULT_VIEWPORT = { width: 512, height: 512 };
/** Jobs a scripted context serves (with a reset between each) before it is replaced. */
const JS_REUSE_LIMIT = 50;
/**
 * A warm page after its job: the shell's own reset must answer true within the limit, else
 * the caller throws the context away.
 */
async function resetWarm(slot: Slot): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((res) => {
    timer = setTimeout(() => res(false), RESET_TIMEOUT_MS);
  });
  const reset = slot.page.evaluate(() => {
    const g = globalThis as unknown as { __rubricaReset?: () => unknown };
    return typeof g.__rubricaReset === 'function' && g.__rubricaReset() === true;
  });
  try {
    return await Promise.race([reset.catch(() => false), late, slot.crashed.catch(() => false)]);
  } finally {
    clearTimeout(timer);
  }
}

/** A reset slower than this throws the context away instead. */
const RESET_TIMEOUT_MS = 2_000;
/** A context that will not close within this is abandoned with its browser. */
const CLOSE_GRACE_MS = 5_000;

class JobFailure extends Error {
  constructor(readonly value: ErrorValue<PageErrorCode>) {
    super(value.message);
  }
}

/** The document's laid-out size from DevTools (no page script runs, so none can lie). */
async function measureLayout(cdp: CDPSession): Promise<PageLayout> {
  const m = (await cdp.send('Page.getLayoutMetrics')) as {
    cssContentSize: { width: number; height: number };
    cssLayoutViewport: { clientWidth: number; clientHeight: number };
  };
  return {
    documentWidth: Math.ceil(m.cssContentSize.width),
    documentHeight: Math.ceil(m.cssContentSize.height),
    viewportWidth: m.cssLayoutViewport.clientWidth,
    viewportHeight: m.cssLayoutViewport.clientHeight,
  };
}

/** The browser process id, asked of the browser itself (playwright's launch hides it). */
async function browserPid(b: Browser): Promise<number | undefined> {
  try {
    const cdp = await b.newBrowserCDPSession();
    const info = (await cdp.send('SystemInfo.getProcessInfo')) as {
      processInfo: { type: string; id: number }[];
    };
    await cdp.detach();
    return info.processInfo.find((p) => p.type === 'browser')?.id;
  } catch {
    return undefined;
  }
}

/**
 * What a failed job's error means. Playwright reports a dead page as "Target closed" a
 * moment before the crash or disconnect event arrives: wait briefly for those before
 * calling it the document's fault.
 */
async function classify(
  err: unknown,
  slot: Slot | null,
  timeoutMs: number,
): Promise<ErrorValue<PageErrorCode>> {
  if (err instanceof JobFailure) return err.value;
  if (err instanceof Error && err.name === 'TimeoutError') {
    return makeError('timeout', `page took longer than ${timeoutMs} ms`);
  }
  if (!slot) {
    const message = err instanceof Error ? err.message : String(err);
    return makeError('render_crash', `browser unavailable: ${message.split('\n')[0]}`);
  }
  {
    const grace = new Promise<null>((res) => setTimeout(() => res(null), 500));
    const died = await Promise.race([slot.crashed.catch((e: JobFailure) => e.value), grace]);
    if (died) return died;
  }
  const message = err instanceof Error ? err.message : String(err);
  return makeError('render_error', message.split('\n')[0]!);
}

/**
 * Starts a browser room. Chromium is launched on the first job, not here, and relaunched if
 * it dies; a job that outlives its time limit gets its page killed and a `timeout` error.
 * @example
 * ```ts
 * const room = createBrowserRoom({ pages: 2 });
 * const shot = await room.renderPage({ html: '<h1>hi</h1>', timeoutMs: 5_000 });
 * if (shot.ok) console.log(shot.width, shot.png.length);
 * await room.close();
 * ```
 */
export function createBrowserRoom(options: BrowserRoomOptions = {}): BrowserRoom {
  const maxPages = Math.max(1, Math.floor(options.pages ?? 2));
  const defaultTimeout = options.timeoutMs ?? 10_000;
  const stats: BrowserRoomStats = {
    launches: 0,
    jobs: 0,
    timeouts: 0,
    crashes: 0,
    pagesCreated: 0,
    browserPid: undefined,
    healthChecks: 0,
    replaced: 0,
  };
  /** A job timed out or crashed since the last health check: check before the next job. */
  let suspect = false;
  let checking: Promise<void> | null = null;
  let browser: Promise<Browser> | null = null;
  const pids = new WeakMap<Browser, number | undefined>();
  /** Per browser: rejects when it disconnects, so a job waiting on it ends at once. */
  const deaths = new WeakMap<Browser, Promise<never>>();
  let closed = false;
  /** Jobs beyond maxPages wait here, first come first served. */
  const pages = pLimit(maxPages);
  const idle: Slot[] = [];

  const getBrowser = (): Promise<Browser> => {
    if (browser) return browser;
    stats.launches++;
    // playwright-core is loaded on first launch, not when a render pool is created: commands
    // that never draw with Chromium do not pay for it at start-up.
    const p = import('./launch.ts').then(async ({ launchChromium }) => {
      const b = await launchChromium(options);
      const pid = await browserPid(b);
      pids.set(b, pid);
      const death = new Promise<never>((_, reject) =>
        b.on('disconnected', () =>
          reject(new JobFailure(makeError('render_crash', 'browser process died'))),
        ),
      );
      death.catch(() => {});
      deaths.set(b, death);
      stats.browserPid = pid;
      b.on('disconnected', () => {
        if (browser === p) browser = null;
        for (let i = idle.length - 1; i >= 0; i--) if (idle[i]!.browser === b) idle.splice(i, 1);
      });
      return b;
    });
    p.catch(() => {
      if (browser === p) browser = null; // the next job tries again
    });
    browser = p;
    return p;
  };

  const openSlot = async (javascript: boolean): Promise<Slot> => {
    const b = await getBrowser();
    const context = await b.newContext({
      javaScriptEnabled: javascript,
      viewport: DEFAULT_VIEWPORT,
      deviceScaleFactor: 1,
      acceptDownloads: false,
      serviceWorkers: 'block',
      offline: true,
    });
    const slot = { browser: b, pid: pids.get(b), context, javascript, jobs: 0 } as Slot;
    slot.shell = null;
    slot.logs = { blockedRequests: [], consoleErrors: [], ms: 0 };
    slot.traffic = { started: 0, ended: 0 };
    slot.served = null;
    if (javascript) await context.addInitScript(PENDING_SCRIPT);
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      const answer = slot.served ? servedFile(slot.served, url) : null;
      if (answer) return route.fulfill(answer);
      slot.logs.blockedRequests.push(url);
      return route.abort('blockedbyclient');
    });
    await context.routeWebSocket(/.*/, (ws) => {
      slot.logs.blockedRequests.push(ws.url());
      void ws.close();
    });
    const page = await context.newPage();
    slot.page = page;
    // Registered after our page exists (the event fires for it too): window.open and
    // friends get closed.
    context.on('page', (p) => {
      if (p !== page) void p.close();
    });
    page.on('console', (m) => {
      if (m.type() === 'error') slot.logs.consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => slot.logs.consoleErrors.push(e.message));
    watchTraffic(page, () => slot.traffic);
    page.on('requestfailed', (r) => {
      const url = r.url();
      // file: and other schemes never reach the router; the browser refuses them itself.
      if (!/^(https?|wss?|data|blob):/.test(url)) slot.logs.blockedRequests.push(url);
    });
    const pageCrash = new Promise<never>((_, reject) => {
      page.on('crash', () => reject(new JobFailure(makeError('render_crash', 'page crashed'))));
    });
    slot.crashed = Promise.race([pageCrash, deaths.get(b)!]);
    slot.crashed.catch(() => {});
    slot.cdp = await context.newCDPSession(page);
    stats.pagesCreated++;
    return slot;
  };

  /** Close a slot's context; a browser that cannot close it in time is killed. */
  const dispose = (slot: Slot) => {
    const timer = setTimeout(() => {
      if (slot.pid) killBrowserTree(slot.pid);
    }, CLOSE_GRACE_MS);
    timer.unref();
    void slot.context
      .close()
      .catch(() => {})
      .finally(() => clearTimeout(timer));
  };

  const takeSlot = async (javascript: boolean, shell: string | null): Promise<Slot> => {
    // A warm job takes a page holding its shell if there is one, else a clean scripted page
    // (it loads the shell there); a page holding a shell serves only that shell's jobs.
    let i = idle.findIndex(
      (s) => s.javascript === javascript && s.shell === shell && s.browser.isConnected(),
    );
    if (i < 0 && shell !== null)
      i = idle.findIndex((s) => s.javascript && s.shell === null && s.browser.isConnected());
    if (i >= 0) return idle.splice(i, 1)[0]!;
    // Keep at most maxPages idle contexts: drop the oldest of the other kind.
    if (idle.length >= maxPages) dispose(idle.shift()!);
    return openSlot(javascript);
  };

  const draw = async (slot: Slot, job: PageJob, timeoutMs: number) => {
    const viewport = job.viewport ?? DEFAULT_VIEWPORT;
    const { page } = slot;
    const now = page.viewportSize();
    if (now?.width !== viewport.width || now.height !== viewport.height) {
      await page.setViewportSize(viewport);
    }
    const html =
      job.svg !== undefined
        ? svgImagePage(job.svg, viewport, job.background ?? 'white')
        : job.html!;
    if (job.warm) {
      if (slot.shell !== job.warm.key) {
        await page.setContent(html, { waitUntil: 'load', timeout: timeoutMs });
        slot.shell = job.warm.key;
      }
      await page.evaluate((arg) => {
        const g = globalThis as unknown as { __rubricaRun: (a: unknown) => void };
        g.__rubricaRun(arg);
      }, job.warm.arg);
    } else if (slot.served)
      await page.goto(slot.served.origin, { waitUntil: 'load', timeout: timeoutMs });
    else await page.setContent(html, { waitUntil: 'load', timeout: timeoutMs });
    // A scripted page that asked for anything draws when the answers arrive, after `load`;
    // the wait takes at most half the job's time, so a short limit still leaves the shot room.
    const stillLoading =
      slot.javascript && !job.warm && slot.traffic.started > 0
        ? !(await settleRequests(page, slot.traffic, Math.min(SETTLE_MAX_MS, timeoutMs / 2)))
        : false;
    if (job.svg !== undefined) {
      // A file Chromium refuses (no xmlns, not well-formed) is a broken <img>: say so
      // rather than return a blank picture.
      const drawn = await page.locator('img').evaluate((img) => {
        const i = img as unknown as { complete: boolean; naturalWidth: number };
        return i.complete && i.naturalWidth > 0;
      });
      if (!drawn)
        throw new JobFailure(makeError('render_error', 'Chromium could not draw the SVG'));
    }
    if (job.waitForSelector) {
      await page.waitForSelector(job.waitForSelector, { state: 'attached', timeout: timeoutMs });
    }
    const shot = {
      type: 'png',
      timeout: timeoutMs,
      animations: 'disabled',
      caret: 'hide',
    } as const;
    if (job.selector) {
      const el = page.locator(job.selector).first();
      const box = await el.boundingBox({ timeout: timeoutMs });
      const png = await el.screenshot(shot);
      return { png, width: Math.round(box?.width ?? 0), height: Math.round(box?.height ?? 0) };
    }
    const layout = job.measure || job.fullPage ? await measureLayout(slot.cdp) : undefined;
    // Full page: the viewport's width, the document's height up to the cap (never shorter
    // than the viewport, so a short page looks as it does on screen).
    const height = job.fullPage
      ? Math.max(viewport.height, Math.min(layout!.documentHeight, job.fullPage.maxHeight))
      : viewport.height;
    const { data } = (await slot.cdp.send('Page.captureScreenshot', {
      format: 'png',
      optimizeForSpeed: true,
      clip: { x: 0, y: 0, width: viewport.width, height, scale: 1 },
      ...(job.fullPage ? { captureBeyondViewport: true } : {}),
    })) as { data: string };
    return {
      png: Buffer.from(data, 'base64'),
      width: viewport.width,
      height,
      ...(layout ? { layout } : {}),
      ...(job.fullPage ? { clipped: layout!.documentHeight > job.fullPage.maxHeight } : {}),
      ...(stillLoading ? { stillLoading } : {}),
    };
  };

  const run = async (job: PageJob): Promise<PageResult> => {
    const t0 = performance.now();
    const timeoutMs = job.timeoutMs ?? defaultTimeout;
    const javascript = job.svg === undefined && job.javascript === true;
    const hasFiles = job.html !== undefined && Object.keys(job.files ?? {}).length > 0;
    let slot: Slot | null = null;
    let timer: NodeJS.Timeout | undefined;
    let reusable = false;
    try {
      // Launching the browser is not the job's time: a cold start on a loaded machine
      // takes seconds and must not be blamed on the document. A browser that died while
      // a page was being opened gets one more try.
      const shell = job.warm?.key ?? null;
      slot = await takeSlot(javascript, shell).catch(() => takeSlot(javascript, shell));
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new JobFailure(makeError('timeout', `page took longer than ${timeoutMs} ms`))),
          timeoutMs,
        );
      });
      timedOut.catch(() => {});
      slot.logs = { blockedRequests: [], consoleErrors: [], ms: 0 };
      slot.traffic = { started: 0, ended: 0 };
      slot.served = hasFiles ? { origin: jobOrigin(), html: job.html!, files: job.files! } : null;
      slot.jobs++;
      const shot = await Promise.race([draw(slot, job, timeoutMs), timedOut, slot.crashed]);
      // A page that had a real origin (files) is reset like a scripted one before reuse.
      // A warm page is reset by its shell (it keeps its scripts), any other scripted one by a
      // new document.
      reusable =
        (!javascript && !hasFiles) ||
        (slot.jobs < JS_REUSE_LIMIT &&
          (job.warm ? await resetWarm(slot) : await resetScripted(slot)));
      const ms = Math.round((performance.now() - t0) * 100) / 100;
      return { ok: true, ...shot, ...slot.logs, ms };
    } catch (err) {
      const ms = Math.round((performance.now() - t0) * 100) / 100;
      const logs = slot?.logs ?? { blockedRequests: [], consoleErrors: [] };
      const error = await classify(err, slot, timeoutMs);
      if (error.code === 'timeout') stats.timeouts++;
      if (error.code === 'render_crash') stats.crashes++;
      if (error.code !== 'render_error') suspect = true;
      return { ok: false, error, ...logs, ms };
    } finally {
      clearTimeout(timer);
      if (slot) slot.served = null;
      if (slot) {
        if (reusable && !closed && slot.browser.isConnected()) idle.push(slot);
        else dispose(slot);
      }
    }
  };

  /** Kill the current browser and all its processes; the next job launches a new one. */
  const replaceBrowser = async () => {
    const p = browser;
    browser = null;
    const b = await p?.catch(() => null);
    if (!b) return;
    for (let i = idle.length - 1; i >= 0; i--) if (idle[i]!.browser === b) idle.splice(i, 1);
    const pid = pids.get(b);
    if (pid) killBrowserTree(pid);
    else void b.close().catch(() => {});
    stats.replaced++;
  };

  /** The tiny page must draw in time, or the browser is replaced. */
  const healthCheck = async () => {
    suspect = false;
    stats.healthChecks++;
    const r = await run({
      html: HEALTH_PAGE,
      viewport: { ...HEALTH_VIEWPORT },
      timeoutMs: HEALTH_TIMEOUT_MS,
    });
    if (r.ok) return;
    // The check's own failure is no reason for another check: the browser goes.
    suspect = false;
    await replaceBrowser();
  };

  /** Resolves when the room is fit for the next job (no check pending, or one passed). */
  const ready = async () => {
    while (suspect && !closed) {
      checking ??= healthCheck().finally(() => {
        checking = null;
      });
      await checking;
    }
  };

  return {
    async renderPage(job) {
      if (closed) throw new BrowserRoomClosedError();
      if ((job.html === undefined) === (job.svg === undefined)) {
        throw new BadPageJobError('a page job needs exactly one of html or svg');
      }
      if (job.warm && (job.javascript !== true || job.svg !== undefined || job.files)) {
        throw new BadPageJobError('a warm page job is an html job with javascript, without files');
      }
      stats.jobs++;
      return pages(async () => {
        // After a timeout or crash, prove the browser still draws before this job uses it.
        await ready();
        // The room may have closed while this job waited for a page.
        if (closed) throw new BrowserRoomClosedError();
        return run(job);
      });
    },
    stats: () => ({ ...stats }),
    async close() {
      closed = true;
      idle.splice(0);
      const b = browser;
      browser = null;
      if (b) await (await b.catch(() => null))?.close().catch(() => {});
    },
  };
}

let jobCount = 0;
/** A fresh origin per job with files: no job ever sees another's storage or files. */
function jobOrigin(): string {
  jobCount++;
  return `http://job-${jobCount}-${randomBytes(6).toString('hex')}.rubrica.invalid/`;
}

const MIME: Readonly<Record<string, string>> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  txt: 'text/plain',
  json: 'application/json',
  js: 'text/javascript',
  mjs: 'text/javascript',
  css: 'text/css',
  html: 'text/html',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/**
 * What the router answers for `url` in a job with files: the document at the origin's root,
 * a file by its exact name under it (query and fragment ignored), else null (refused).
 */
function servedFile(
  served: NonNullable<Slot['served']>,
  url: string,
): { status: number; contentType: string; body: string | Buffer } | null {
  if (!url.startsWith(served.origin)) return null;
  // Cut at the first ? or # by search (a /[?#].*$/ replace retried from every ? and # of a
  // hostile page's URL: quadratic, in the parent).
  const tail = url.slice(served.origin.length);
  const cut = tail.search(/[?#]/);
  const rest = cut < 0 ? tail : tail.slice(0, cut);
  if (rest === '')
    return { status: 200, contentType: 'text/html; charset=utf-8', body: served.html };
  let name: string;
  try {
    name = decodeURIComponent(rest);
  } catch {
    return null;
  }
  if (!Object.hasOwn(served.files, name)) return null;
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return {
    status: 200,
    contentType: MIME[ext] ?? 'application/octet-stream',
    body: served.files[name]!,
  };
}
