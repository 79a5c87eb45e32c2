// Warm pages (PageJob.warm, issue 36): the shell stays loaded across jobs of its key, each
// job is data handed to the shell's __rubricaRun, and a page whose __rubricaReset does not
// answer true is thrown away, never handed to the next job.
import { afterEach, describe, expect, it } from 'vitest';
import { BadPageJobError, type BrowserRoom, createBrowserRoom } from './room.ts';

/** A shell that counts its loads and jobs; its reset answers what the job asked for. */
const SHELL = `<!doctype html><html><body><div id="out"></div><script>
var jobs = 0, cleanNext = true;
window.__rubricaRun = function (a) {
  jobs++; cleanNext = a.clean;
  var out = document.getElementById('out');
  out.textContent = 'job ' + jobs + ' ' + a.text;
  out.setAttribute('data-done', '1');
  console.error('jobs=' + jobs);
};
window.__rubricaReset = function () {
  document.getElementById('out').replaceChildren();
  document.getElementById('out').removeAttribute('data-done');
  return cleanNext;
};
</script></body></html>`;

const job = (text: string, clean = true) => ({
  html: SHELL,
  javascript: true,
  warm: { key: 'test-shell', arg: { text, clean } },
  waitForSelector: '#out[data-done]',
  timeoutMs: 30_000,
});

let room: BrowserRoom;
afterEach(async () => {
  await room.close();
});

describe('browser room warm pages', () => {
  it('keeps the shell across jobs, and throws a page away when its reset fails', async () => {
    room = createBrowserRoom({ pages: 1 });
    const seen: string[] = [];
    for (const [text, clean] of [
      ['a', true],
      ['b', false],
      ['c', true],
      ['d', true],
    ] as const) {
      const r = await room.renderPage(job(text, clean));
      expect(r.ok).toBe(true);
      seen.push(r.consoleErrors.join(','));
    }
    // One page for a and b (the shell kept its count), a new one after b's failed reset.
    expect(seen).toEqual(['jobs=1', 'jobs=2', 'jobs=1', 'jobs=2']);
    expect(room.stats().pagesCreated).toBe(2);
  }, 120_000);

  it('never hands a warm page to a plain scripted job', async () => {
    room = createBrowserRoom({ pages: 1 });
    expect((await room.renderPage(job('a'))).ok).toBe(true);
    const plain = await room.renderPage({
      html: '<script>console.error(typeof window.__rubricaRun)</script>',
      javascript: true,
      timeoutMs: 30_000,
    });
    expect(plain.ok && plain.consoleErrors).toEqual(['undefined']);
    const again = await room.renderPage(job('b'));
    expect(again.ok && again.consoleErrors).toEqual(['jobs=1']);
  }, 120_000);

  it('refuses a warm job without scripts or with files', async () => {
    room = createBrowserRoom({ pages: 1 });
    await expect(room.renderPage({ ...job('a'), javascript: false })).rejects.toThrow(
      BadPageJobError,
    );
    await expect(
      room.renderPage({ ...job('a'), files: { 'a.csv': Buffer.from('x') } }),
    ).rejects.toThrow(BadPageJobError);
  }, 60_000);
});
