// The refusing budget behind the server's admission and body limits: all-or-nothing
// reservations, no negative balance, idle() resolving when the last unit comes back.
import { describe, expect, it } from 'vitest';
import { createBudget } from './pool-budget.ts';

describe('createBudget', () => {
  it('reserves n units at once or none, up to max', () => {
    const b = createBudget(10);
    expect(b.tryAcquire(6)).toBe(true);
    expect(b.tryAcquire(5)).toBe(false); // would be 11: nothing is reserved
    expect(b.used).toBe(6);
    expect(b.tryAcquire(4)).toBe(true);
    expect(b.used).toBe(10);
    expect(b.tryAcquire(1)).toBe(false);
    b.release(3);
    expect(b.tryAcquire(3)).toBe(true);
    expect(b.max).toBe(10);
  });

  it('never goes below zero on an extra release', () => {
    const b = createBudget(4);
    b.tryAcquire(2);
    b.release(5);
    expect(b.used).toBe(0);
    expect(b.tryAcquire(4)).toBe(true);
    expect(b.tryAcquire(1)).toBe(false);
  });

  it('idle() resolves at once when empty, else when the last unit is released', async () => {
    const b = createBudget(8);
    await b.idle();
    b.tryAcquire(3);
    const order: string[] = [];
    const both = Promise.all([b.idle(), b.idle()]).then(() => order.push('idle'));
    b.release(2);
    await Promise.resolve();
    order.push('one left');
    b.release(1);
    await both;
    expect(order).toEqual(['one left', 'idle']);
    // Waiters are woken once: a later reservation does not leave a stale waiter behind.
    b.tryAcquire(1);
    let resolved = false;
    void b.idle().then(() => {
      resolved = true;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(resolved).toBe(false);
    b.release(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(resolved).toBe(true);
  });
});
