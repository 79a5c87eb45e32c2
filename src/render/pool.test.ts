// Kill-safety of the render pool with real worker processes: a render over its limit is
// killed and the next one works; a worker killed from outside is replaced; jobs queued
// behind a failed one are not lost; memory-based recycling; queue bound; idle pools do not
// keep a process alive.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import {
  createRenderPool,
  type RenderPool,
  RenderPoolClosedError,
  RenderQueueFullError,
} from './pool.ts';

const icons = fluentEmoji(8);
// A costly but legitimate drawing: a large canvas with blurred, overlapping shapes.
const heavy = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><filter id="b"><feGaussianBlur stdDeviation="3"/><feMorphology operator="dilate" radius="1"/></filter>${Array.from({ length: 40 }, (_, i) => `<circle cx="${(i * 7) % 100}" cy="${(i * 13) % 100}" r="30" fill="#${(i * 99991).toString(16).slice(-6).padStart(6, '3')}" opacity=".5" filter="url(#b)"/>`).join('')}</svg>`;

let pool: RenderPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('render pool', () => {
  it('kills a render over its time limit and the next render works', async () => {
    pool = createRenderPool({ workers: 1 });
    expect((await pool.render(icons[0]!.svg)).ok).toBe(true); // warm: the limit excludes boot
    const pid = pool.stats().workers[0]!.pid;
    const slow = await pool.render(heavy, { size: 2048, timeoutMs: 20 });
    expect(slow.ok).toBe(false);
    if (!slow.ok) expect(slow.error.code).toBe('timeout');
    expect(pool.stats().killedOnTimeout).toBe(1);
    const next = await pool.render(icons[1]!.svg);
    expect(next.ok).toBe(true);
    expect(pool.stats().workers[0]!.pid).not.toBe(pid);
  });

  it('retries a render whose worker was killed from outside once, in a fresh worker; jobs behind it still render', async () => {
    pool = createRenderPool({ workers: 1, pipeline: 3 });
    expect((await pool.render(icons[0]!.svg)).ok).toBe(true);
    const pid = pool.stats().workers[0]!.pid!;
    // Killed the moment it is sent: the worker dies with it in flight, whatever its size.
    const doomed = pool.render(icons[1]!.svg);
    const behind = [pool.render(icons[2]!.svg), pool.render(icons[3]!.svg)];
    expect(pool.stats().workers[0]!.inFlight).toBe(3);
    process.kill(pid, 'SIGKILL');
    // The SVG renders fine on its own: a killed worker is not the rollout's fault.
    const r = await doomed;
    expect(r.ok ? 'ok' : r.error).toBe('ok');
    for (const b of await Promise.all(behind)) expect(b.ok).toBe(true);
    expect(pool.stats()).toMatchObject({ crashed: 1, retriedAfterCrash: 1 });
    expect((await pool.render(icons[4]!.svg)).ok).toBe(true);
  });

  it('reports render_crash when the retry dies too', async () => {
    pool = createRenderPool({ workers: 1 });
    expect((await pool.render(icons[0]!.svg)).ok).toBe(true);
    const first = pool.stats().workers[0]!.pid!;
    const doomed = pool.render(heavy, { size: 2048 });
    process.kill(first, 'SIGKILL');
    // Wait for the fresh worker that holds the retry, then kill it as well.
    let second: number | undefined;
    for (let i = 0; i < 400 && !second; i++) {
      await new Promise((res) => setTimeout(res, 5));
      second = pool.stats().workers.find((w) => w.pid !== first && w.inFlight > 0)?.pid;
    }
    expect(second).toBeDefined();
    process.kill(second!, 'SIGKILL');
    const r = await doomed;
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('render_crash');
      expect(r.error.message).toContain('SIGKILL');
    }
    expect(pool.stats()).toMatchObject({ crashed: 2, retriedAfterCrash: 1 });
    expect((await pool.render(icons[4]!.svg)).ok).toBe(true);
  });

  it('recycles a worker whose memory passed the bound, without losing renders', async () => {
    pool = createRenderPool({ workers: 1, maxRssMb: 1 });
    const rs = await Promise.all(icons.slice(0, 3).map((i) => pool!.render(i.svg)));
    for (const r of rs) expect(r.ok).toBe(true);
    expect(pool.stats().recycled).toBeGreaterThanOrEqual(1);
  });

  it('bounds the queue and refuses work once closed', async () => {
    pool = createRenderPool({ workers: 1, pipeline: 1, maxQueue: 1 });
    const a = pool.render(icons[0]!.svg); // sent to the worker
    const b = pool.render(icons[1]!.svg); // waits in the queue
    await expect(pool.render(icons[2]!.svg)).rejects.toBeInstanceOf(RenderQueueFullError);
    expect((await a).ok && (await b).ok).toBe(true);
    await pool.close();
    await expect(pool.render(icons[0]!.svg)).rejects.toBeInstanceOf(RenderPoolClosedError);
  });

  it('an idle shared pool does not keep the process alive', async () => {
    const index = fileURLToPath(new URL('./index.ts', import.meta.url));
    const script = `import { renderSvg } from ${JSON.stringify(index)};
      const r = await renderSvg(${JSON.stringify(icons[0]!.svg)});
      console.log(r.ok ? 'rendered' : r.error.code);`;
    const t0 = performance.now();
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { timeout: 30_000 },
        (err, stdout) => (err ? reject(err) : resolve(stdout)),
      );
    });
    expect(out.trim()).toBe('rendered');
    expect(performance.now() - t0).toBeLessThan(30_000);
  });

  it('close without waiting for exit has already killed every worker when it resolves', async () => {
    pool = createRenderPool({ workers: 2 });
    await Promise.all(icons.slice(0, 2).map((i) => pool!.render(i.svg)));
    const pids = pool.stats().workers.map((w) => w.pid!);
    expect(pids).toHaveLength(2);
    await pool.close({ waitForExit: false });
    // Killed (SIGKILL sent) but maybe not reaped yet: each is gone or a zombie within moments.
    const deadOrZombie = (pid: number) => {
      try {
        return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return true;
      }
    };
    await expect.poll(() => pids.every(deadOrZombie), { timeout: 5000 }).toBe(true);
    await expect(pool.render(icons[0]!.svg)).rejects.toBeInstanceOf(RenderPoolClosedError);
  });
});
