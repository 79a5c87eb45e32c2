// A render worker forked before any pool exists (what `rubrica inspect` does first) is the
// one the first pool uses; one that died meanwhile is replaced; one never claimed does not
// keep its process alive.
import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { createRenderPool, type RenderPool } from './pool.ts';
import { prestartRenderWorker } from './prestart.ts';

const icon = fluentEmoji(1)[0]!.svg;
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let pool: RenderPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('prestartRenderWorker', () => {
  it('gives the first pool its worker, booted meanwhile (messages sent before the claim arrive)', async () => {
    const pid = prestartRenderWorker();
    expect(pid).toBeTypeOf('number');
    await sleep(1500); // long enough, usually, for the worker to say it is ready unclaimed
    pool = createRenderPool({ workers: 1 });
    const r = await pool.render(icon);
    expect(r.ok).toBe(true);
    expect(pool.stats().workers.map((w) => w.pid)).toEqual([pid]);
    expect(pool.stats().spawned).toBe(1);
  });

  it('replaces a prestarted worker that died before any pool claimed it', async () => {
    const pid = prestartRenderWorker() as number;
    process.kill(pid, 'SIGKILL');
    while (alive(pid)) await sleep(20);
    pool = createRenderPool({ workers: 1 });
    const r = await pool.render(icon);
    expect(r.ok).toBe(true);
    expect(pool.stats().workers[0]?.pid).not.toBe(pid);
  });

  it('does not keep its process alive when no pool claims it', async () => {
    const prestart = fileURLToPath(new URL('./prestart.ts', import.meta.url));
    const script = `import(${JSON.stringify(prestart)}).then((m) => console.log(m.prestartRenderWorker()))`;
    const started = Date.now();
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', '-e', script],
        { timeout: 30_000 },
        (err, stdout) => (err ? reject(err) : resolve(stdout)),
      ),
    );
    expect(Date.now() - started).toBeLessThan(30_000);
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    // The worker follows its parent out (it exits when the IPC channel closes).
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await sleep(50);
    expect(alive(pid)).toBe(false);
  });
});
