// loopTurn lets one waiter go per event-loop iteration, so a timer that falls due while many
// rollouts each run a long synchronous stretch fires after one or two stretches, not after
// all of them (without it, every stretch chained by promises ran in one iteration: issue 38).
// Counts, not clock margins: how many stretches ran before the timer's callback.
import { describe, expect, it } from 'vitest';
import { loopTurn, loopTurnsWaiting } from './loop-turn.ts';

/** Holds the thread for `ms`, like extracting and checking a big picture. */
const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('loopTurn', () => {
  it('lets a due timer run between two long stretches, not after all 40', async () => {
    let ran = 0;
    let ranWhenFired = -1;
    const fired = new Promise<void>((r) =>
      setTimeout(() => {
        ranWhenFired = ran;
        r();
      }, 0),
    );
    await Promise.all(
      Array.from({ length: 40 }, async () => {
        await loopTurn();
        spin(5);
        ran++;
      }),
    );
    await fired;
    expect(ran).toBe(40);
    expect(ranWhenFired).toBeGreaterThanOrEqual(0);
    expect(ranWhenFired).toBeLessThan(5);
    expect(loopTurnsWaiting()).toBe(0);
  });

  it('lets waiters go in the order they came', async () => {
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        await loopTurn();
        order.push(i);
      }),
    );
    expect(order).toEqual([...Array(10).keys()]);
  });

  it('lets a connection be accepted between stretches', async () => {
    // libuv accepts one new connection per iteration: with every stretch in one iteration, a
    // connection made during the first stretch was accepted only after all of them. A worker
    // thread connects while this thread is busy and notes how many stretches had run.
    const { createServer } = await import('node:net');
    const { Worker } = await import('node:worker_threads');
    const shared = new Int32Array(new SharedArrayBuffer(8)); // [stretches run, run at connect]
    shared[1] = -1;
    let ranWhenAccepted = -1;
    const server = createServer((s) => {
      ranWhenAccepted = Atomics.load(shared, 0);
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const net = require('node:net');
       const shared = new Int32Array(workerData.buf);
       parentPort.once('message', () => {
         const s = net.connect(workerData.port, '127.0.0.1', () => {
           Atomics.store(shared, 1, Atomics.load(shared, 0));
           s.destroy();
         });
         s.on('error', () => {});
       });`,
      { eval: true, workerData: { port, buf: shared.buffer } },
    );
    await new Promise<void>((r) => worker.once('online', () => r()));
    worker.postMessage('go');
    await Promise.all(
      Array.from({ length: 40 }, async () => {
        await loopTurn();
        spin(10);
        Atomics.add(shared, 0, 1);
      }),
    );
    // Bounded: the connection was made; give the accept a moment if it came last.
    for (let i = 0; i < 100 && ranWhenAccepted < 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    await worker.terminate();
    await new Promise<void>((r) => server.close(() => r()));
    const connectedAt = Atomics.load(shared, 1);
    // The worker connected while the stretches were still running…
    expect(connectedAt).toBeGreaterThanOrEqual(0);
    expect(connectedAt).toBeLessThan(30);
    // …and the connection was accepted within a few stretches, not after the last.
    expect(ranWhenAccepted - connectedAt).toBeLessThan(5);
  });
});
