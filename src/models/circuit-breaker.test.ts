// The circuit breaker on a fake clock: opens after N failed attempts in a row, refuses while
// cooling down, lets exactly one probe through (others wait for its outcome), closes on its
// success, reopens for longer on its failure; what counts as a failure.
import { describe, expect, it } from 'vitest';
import { type CircuitEvent, circuitOutcome, createCircuitBreaker } from './circuit-breaker.ts';

function clock() {
  let t = 1000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}
const net = { code: 'network' as const, message: 'ECONNREFUSED' };

describe('createCircuitBreaker', () => {
  it('opens after the threshold, refuses while cooling, probes once, closes on success', async () => {
    const c = clock();
    const events: CircuitEvent[] = [];
    const b = createCircuitBreaker({ failureThreshold: 3, cooldownMs: 100, now: c.now }, (e) =>
      events.push(e),
    );
    for (let i = 0; i < 2; i++) {
      expect(await b.acquire()).toBe(true);
      b.record('failure', net);
    }
    expect(b.health().state).toBe('closed');
    b.record('success'); // a success in between resets the count
    for (let i = 0; i < 3; i++) b.record('failure', net);
    // …and while the server answered within the last 5 s it is flaky, not dead.
    expect(b.health().state).toBe('closed');
    c.advance(5000);
    b.record('failure', net);
    expect(b.health()).toMatchObject({ state: 'open', consecutiveFailures: 4, lastError: net });
    expect(events.at(-1)).toMatchObject({ state: 'open', failures: 4, retryInMs: 100 });
    expect(b.blocked()).toBe(true);
    expect(await b.acquire()).toBe(false);

    c.advance(100);
    expect(b.blocked()).toBe(false);
    expect(await b.acquire()).toBe(true); // the probe
    expect(b.health().state).toBe('half-open');
    let waiterGot: boolean | undefined;
    const waiter = b.acquire().then((v) => {
      waiterGot = v;
    });
    await Promise.resolve();
    expect(waiterGot).toBeUndefined(); // waits for the probe instead of failing
    b.record('success');
    await waiter;
    expect(waiterGot).toBe(true);
    expect(b.health().state).toBe('closed');
    expect(events.map((e) => e.state)).toEqual(['open', 'half-open', 'closed']);
  });

  it('a failed probe reopens for twice as long, capped', async () => {
    const c = clock();
    const b = createCircuitBreaker({
      failureThreshold: 1,
      cooldownMs: 100,
      maxCooldownMs: 300,
      now: c.now,
    });
    b.record('failure', net);
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      waits.push(b.health().retryInMs!);
      c.advance(b.health().retryInMs!);
      expect(await b.acquire()).toBe(true);
      const waiter = b.acquire();
      b.record('failure', net);
      expect(await waiter).toBe(false); // the waiter learns the probe failed
    }
    expect(waits).toEqual([100, 200, 300]);
  });

  it('an aborted probe lets the next caller probe', async () => {
    const c = clock();
    const b = createCircuitBreaker({ failureThreshold: 1, cooldownMs: 10, now: c.now });
    b.record('failure', net);
    c.advance(10);
    expect(await b.acquire()).toBe(true);
    const next = b.acquire();
    b.record('neutral');
    expect(await next).toBe(true);
  });
});

describe('circuitOutcome', () => {
  it('counts the server failing, not the model answering badly or the caller leaving', () => {
    expect(circuitOutcome({ code: 'network', message: '' })).toBe('failure');
    expect(circuitOutcome({ code: 'timeout', message: '' })).toBe('failure');
    expect(circuitOutcome({ code: 'bad_response', message: '' })).toBe('failure');
    expect(circuitOutcome({ code: 'http_error', status: 503, message: '' })).toBe('failure');
    expect(circuitOutcome({ code: 'http_error', status: 429, message: '' })).toBe('neutral');
    expect(circuitOutcome({ code: 'http_error', status: 404, message: '' })).toBe('neutral');
    expect(circuitOutcome({ code: 'aborted', message: '' })).toBe('neutral');
    expect(circuitOutcome({ code: 'invalid_answer', message: '' })).toBe('success');
    expect(circuitOutcome(undefined)).toBe('success');
  });
});
