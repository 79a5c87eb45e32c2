// Waiting for a scripted page's own loads before its picture is taken.
//
// `load` fires once the document, its images and its classic scripts are in; it does not wait
// for what scripts ask for afterwards — `fetch('data.csv').then(draw)` (the way d3.csv and
// most chart code load data) or a module's top-level `await fetch(…)`. Shot at `load`, such a
// page was shot before it drew on a loaded machine (an empty chart, or a `blank` failure):
// 1 job in 30 of a module page even on an idle 2-core VM, 3 in 10 of a fetch chain. So after
// `load` the room waits until every request the page made has ended (answered, or refused by
// the router) and the page has run through one frame since, with no new request in between;
// a page still loading after SETTLE_MAX_MS is shot as it stands, and says so.
import type { Page } from 'playwright-core';

/** Longest wait after `load` for a page's own requests: a page polling forever is not hung. */
export const SETTLE_MAX_MS = 2_000;

/** How long a frame with no request must stay quiet (see settleRequests). */
const QUIET_MS = 15;

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

/** One frame of the page, then one task: what waited on a response has run. */
const oneFrame = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((done) => {
        // (runs in the page: the DOM's requestAnimationFrame, not a Node global)
        const page = globalThis as unknown as { requestAnimationFrame: (f: () => void) => void };
        page.requestAnimationFrame(() => setTimeout(done, 0));
      }),
  );

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the page's requests have all ended and a frame passed with none started.
 * True when it settled, false when it was still loading after `maxMs`.
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
    await oneFrame(page);
    // A request the page started in that frame reaches us as a DevTools event that may come
    // after the frame's answer: give it QUIET_MS to arrive before calling the page quiet.
    await pause(QUIET_MS);
    if (traffic.started === seen && traffic.ended >= seen) return true;
  }
  return false;
}
