// Waiting for a scripted page's own loads before its picture is taken.
//
// `load` fires once the document, its images and its classic scripts are in; it does not wait
// for what scripts ask for afterwards — `fetch('data.csv').then(draw)` (the way d3.csv and
// most chart code load data) or a module's top-level `await fetch(…)`. Shot at `load`, such a
// page was shot before it drew on a loaded machine (an empty chart, or a `blank` failure):
// 1 job in 30 of a module page even on an idle 2-core VM, 3 in 10 of a fetch chain. So after
// `load` the room waits until the page is quiet, then shoots; a page still loading after
// SETTLE_MAX_MS is shot as it stands, and says so.
//
// Quiet is read from both sides, because neither sees it all:
// - from Playwright's request events: every request the page made has ended (answered, or
//   refused by the router), and none started within QUIET_MS after a frame — this covers
//   every kind of request (an image made by script, a dynamic import) but only after the fact;
// - from inside the page (PENDING_SCRIPT, run before the page's own scripts): the fetch calls,
//   body reads and XMLHttpRequests not yet settled. What the page does with an answer runs in
//   the same task as the answer's settling, so at a later task a count of 0 means every
//   answer was handled and any request it led to was already counted. Request events alone
//   missed that gap when the page's own processing took longer than QUIET_MS (a fetch chain
//   under load: 1 blank picture in 6 test runs).
// A hostile page can rewrite the count: it then only changes when its own picture is taken,
// within SETTLE_MAX_MS.
import type { Page } from 'playwright-core';

/** Longest wait after `load` for a page's own requests: a page polling forever is not hung. */
export const SETTLE_MAX_MS = 2_000;

/** How long after a quiet frame a request event may still arrive (see settleRequests). */
const QUIET_MS = 15;

/** The page's global holding its unsettled fetches, body reads and XHRs. */
const PENDING = '__rubricaPending';

/**
 * Counts a page's unsettled fetch calls, response body reads and XMLHttpRequests in
 * `window.__rubricaPending`. Runs before the page's scripts in every document (addInitScript).
 */
export const PENDING_SCRIPT = `(() => {
  const w = window;
  if (w.${PENDING} !== undefined) return;
  w.${PENDING} = 0;
  // The page gets a promise derived from the real one, so a rejection it never handles is
  // still reported (a console error) as it would be without us.
  const track = (p) => {
    w.${PENDING}++;
    return p.then(
      (v) => { w.${PENDING}--; return v; },
      (e) => { w.${PENDING}--; throw e; },
    );
  };
  if (typeof w.fetch === 'function') {
    const fetch = w.fetch;
    w.fetch = function (...a) { return track(fetch.apply(this, a)); };
  }
  if (w.Response) {
    for (const m of ['text', 'json', 'arrayBuffer', 'blob', 'formData']) {
      const read = w.Response.prototype[m];
      if (typeof read === 'function')
        w.Response.prototype[m] = function (...a) { return track(read.apply(this, a)); };
    }
  }
  if (w.XMLHttpRequest) {
    const send = w.XMLHttpRequest.prototype.send;
    w.XMLHttpRequest.prototype.send = function (...a) {
      w.${PENDING}++;
      this.addEventListener('loadend', () => { w.${PENDING}--; }, { once: true });
      return send.apply(this, a);
    };
  }
})();`;

/** Requests a page started and ended during one job (Playwright's request events). */
export interface PageTraffic {
  started: number;
  ended: number;
}

export function watchTraffic(page: Page, traffic: () => PageTraffic): void {
  page.on('request', () => {
    traffic().started++;
  });
  const end = () => {
    traffic().ended++;
  };
  page.on('requestfinished', end);
  page.on('requestfailed', end);
}

/** One frame of the page, then one task; answers the page's count of unsettled loads. */
const oneFrame = (page: Page) =>
  page.evaluate(
    (name) =>
      new Promise<number>((done) => {
        // (runs in the page: the DOM's requestAnimationFrame, not a Node global)
        const w = globalThis as unknown as Record<string, unknown> & {
          requestAnimationFrame: (f: () => void) => void;
        };
        w.requestAnimationFrame(() =>
          setTimeout(() => {
            // (a page may have made the count a throwing getter: read as nothing pending)
            let n: unknown = 0;
            try {
              n = w[name];
            } catch {}
            done(typeof n === 'number' ? n : 0);
          }, 0),
        );
      }),
    PENDING,
  );

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the page's requests have all ended, its own loads are settled and a frame
 * passed with no request started. True when it settled, false when it was still loading
 * after `maxMs`.
 */
export async function settleRequests(
  page: Page,
  traffic: PageTraffic,
  maxMs = SETTLE_MAX_MS,
): Promise<boolean> {
  const until = performance.now() + maxMs;
  while (performance.now() < until) {
    const seen = traffic.started;
    // (≥, not =: a request of the job before, ending late, is counted in no job's start)
    if (traffic.ended < seen) {
      await pause(5);
      continue;
    }
    // The frame has the wait's own deadline: a page that replaced requestAnimationFrame, or
    // never yields, would otherwise hold the job to its whole time limit.
    const left = until - performance.now();
    const pending = await Promise.race([
      oneFrame(page).catch(() => NaN),
      pause(Math.max(0, left)).then(() => NaN),
    ]);
    if (Number.isNaN(pending)) return false;
    if (pending > 0) continue;
    // A request the page started in that frame reaches us as a DevTools event that may come
    // after the frame's answer: give it QUIET_MS to arrive before calling the page quiet.
    await pause(QUIET_MS);
    if (traffic.started === seen && traffic.ended >= seen) return true;
  }
  return false;
}
