// Reference-counted sharing of one in-flight call: a waiter leaving does not stop the call
// for the others; the call is aborted only when every waiter has left; the earliest waiter
// still present owns the result.
import { describe, expect, it } from 'vitest';
import { createSharedCalls } from './shared-calls.ts';

/** A call that resolves when told to, and records whether its signal fired. */
function controllable() {
  let finish!: (v: string) => void;
  const seen: { signal?: AbortSignal; starts: number } = { starts: 0 };
  const start = (signal: AbortSignal) => {
    seen.starts++;
    seen.signal = signal;
    return new Promise<string>((resolve, reject) => {
      finish = resolve;
      signal.addEventListener('abort', () => reject(new Error('aborted')));
    });
  };
  return { start, seen, finish: (v: string) => finish(v) };
}

describe('createSharedCalls', () => {
  it('one leaving waiter does not abort the call; the one still waiting gets it and owns it', async () => {
    const shared = createSharedCalls<string>();
    const call = controllable();
    const a = new AbortController();
    const first = shared.run('k', call.start, a.signal);
    const second = shared.run('k', call.start, new AbortController().signal);
    await Promise.resolve();
    a.abort();
    expect(await first).toEqual({ aborted: true });
    expect(call.seen.signal?.aborted).toBe(false);
    call.finish('answer');
    expect(await second).toEqual({ value: 'answer', owner: true });
    expect(call.seen.starts).toBe(1);
  });

  it('aborts the call once every waiter is gone, and a later caller starts afresh', async () => {
    const shared = createSharedCalls<string>();
    const call = controllable();
    const a = new AbortController();
    const b = new AbortController();
    const pa = shared.run('k', call.start, a.signal);
    const pb = shared.run('k', call.start, b.signal);
    await Promise.resolve();
    a.abort();
    expect(call.seen.signal?.aborted).toBe(false);
    b.abort();
    expect(await pa).toEqual({ aborted: true });
    expect(await pb).toEqual({ aborted: true });
    expect(call.seen.signal?.aborted).toBe(true);
    expect(shared.size).toBe(0);
    const later = controllable();
    const pc = shared.run('k', later.start);
    await Promise.resolve();
    later.finish('fresh');
    expect(await pc).toEqual({ value: 'fresh', owner: true });
  });

  it('the first waiter owns the result, the others share it', async () => {
    const shared = createSharedCalls<string>();
    const call = controllable();
    const all = [1, 2, 3].map(() => shared.run('k', call.start));
    await Promise.resolve();
    call.finish('v');
    expect(await Promise.all(all)).toEqual([
      { value: 'v', owner: true },
      { value: 'v', owner: false },
      { value: 'v', owner: false },
    ]);
  });

  it('a caller whose signal already fired does not start a call', async () => {
    const shared = createSharedCalls<string>();
    const call = controllable();
    const out = await shared.run('k', call.start, AbortSignal.abort());
    expect(out).toEqual({ aborted: true });
    await Promise.resolve();
    expect(call.seen.starts).toBe(0);
  });
});
