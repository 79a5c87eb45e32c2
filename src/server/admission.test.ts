// Admission: a request's rollouts fit at once or are refused; draining refuses everything
// new while what is in flight finishes, and idle() says when it has.
import { describe, expect, it } from 'vitest';
import { createAdmission, resolveLimits } from './admission.ts';

describe('createAdmission', () => {
  it('admits whole requests under the bound and refuses the rest at once', () => {
    const a = createAdmission(8);
    expect(a.tryAcquire(5)).toBe(true);
    expect(a.tryAcquire(4)).toBe(false);
    expect(a.inFlight).toBe(5);
    a.release(5);
    expect(a.tryAcquire(8)).toBe(true);
    expect(a.max).toBe(8);
  });

  it('refuses new work once draining and resolves idle() when the last rollout ends', async () => {
    const a = createAdmission(8);
    a.tryAcquire(2);
    a.startDraining();
    expect(a.draining).toBe(true);
    expect(a.tryAcquire(1)).toBe(false);
    let idle = false;
    const done = a.idle().then(() => {
      idle = true;
    });
    a.release(1);
    await Promise.resolve();
    expect(idle).toBe(false);
    a.release(1);
    await done;
    expect(a.inFlight).toBe(0);
  });

  it('keeps a request that could never fit from being refused forever', () => {
    const l = resolveLimits({ maxInFlight: 10, maxItemsPerRequest: 50 });
    expect(l.maxItemsPerRequest).toBe(10);
  });
});
