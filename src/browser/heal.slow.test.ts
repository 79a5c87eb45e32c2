// A browser whose shared GPU process stays busy is replaced (issue 22, item 4). The damage is
// made directly, whatever page might cause it: the GPU process (which composites every
// page's picture) is stopped with SIGSTOP. A job then times out; the health check before
// the next job finds the browser cannot draw a tiny page, kills its whole process group,
// and the next job renders in a new browser, in time.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createBrowserRoom } from './room.ts';

const room = createBrowserRoom({ pages: 1 });
const stopped: number[] = [];
afterAll(async () => {
  for (const pid of stopped) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  await room.close();
});

/** Chromium's GPU process among the browser's process group, from /proc. */
function gpuProcess(browserPid: number): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgrp !== browserPid) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('--type=gpu-process')) {
        return Number(name);
      }
    } catch {}
  }
  return undefined;
}

/** Running or sleeping (not gone, not a zombie). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

const PAGE =
  '<!doctype html><html><body><h1>Hello</h1><script>document.body.append("js")</script></body></html>';

describe('browser room healing', () => {
  it('replaces a browser whose GPU process stays busy; the next job renders in time', async () => {
    const first = await room.renderPage({ html: PAGE, javascript: true, timeoutMs: 30_000 });
    expect(first.ok).toBe(true);
    const oldBrowser = room.stats().browserPid!;
    const gpu = gpuProcess(oldBrowser);
    expect(gpu).toBeDefined();
    process.kill(gpu!, 'SIGSTOP');
    stopped.push(gpu!);

    const stuck = await room.renderPage({ html: PAGE, javascript: true, timeoutMs: 3_000 });
    expect(stuck.ok || stuck.error.code).toBe('timeout');

    const next = await room.renderPage({ html: PAGE, javascript: true, timeoutMs: 10_000 });
    expect(next.ok || `${next.error.code}: ${next.error.message}`).toBe(true);
    expect(next.ms).toBeLessThan(10_000);
    const s = room.stats();
    expect(s.healthChecks).toBe(1);
    expect(s.replaced).toBe(1);
    expect(s.browserPid).not.toBe(oldBrowser);
    // The old browser went with all its processes, the stopped GPU process included.
    await new Promise((r) => setTimeout(r, 1_000));
    expect([alive(oldBrowser), alive(gpu!)]).toEqual([false, false]);

    // A plain timeout in a healthy browser costs one check and no relaunch.
    const loop = await room.renderPage({
      html: '<script>while (true) {}</script>',
      javascript: true,
      timeoutMs: 2_000,
    });
    expect(loop.ok || loop.error.code).toBe('timeout');
    expect((await room.renderPage({ html: PAGE, javascript: true, timeoutMs: 10_000 })).ok).toBe(
      true,
    );
    expect([room.stats().healthChecks, room.stats().replaced]).toEqual([2, 1]);
  }, 180_000);
});
