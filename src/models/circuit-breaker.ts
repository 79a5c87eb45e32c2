// A circuit breaker per model client. When a model server keeps failing (refused
// connections, timeouts, 5xx), every further call would only wait out its retries and
// backoff — minutes for a batch — while hammering a server that may be restarting. After
// `failureThreshold` failed attempts in a row the circuit opens: calls fail at once with
// `circuit_open` (a grader fault, never a judgement of the drawing) for a cool-down; then one
// call is let through as a probe (half-open). Its success closes the circuit; its failure
// opens it again for twice as long (up to `maxCooldownMs`). A server that answered within
// the last `successWindowMs` is flaky, not dead: concurrent calls that time out together
// must not open the circuit while other calls are being answered.
import type { ModelCallError } from './types.ts';

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitOptions {
  /** Failed attempts in a row that open the circuit. Default 5. */
  failureThreshold?: number;
  /** First open period, ms. Default 10 000. */
  cooldownMs?: number;
  /** Longest open period after repeated failed probes, ms. Default 60 000. */
  maxCooldownMs?: number;
  /** A success this recent keeps the circuit closed whatever the failure count, ms. Default 5 000. */
  successWindowMs?: number;
  now?: () => number;
}

export interface CircuitEvent {
  state: CircuitState;
  /** Failed attempts in a row when it opened. */
  failures: number;
  lastError?: ModelCallError;
  /** When the next probe may go, ms from now (open only). */
  retryInMs?: number;
}

export interface CircuitHealth {
  state: CircuitState;
  consecutiveFailures: number;
  lastError?: ModelCallError;
  /** Date.now() of the last attempt the server answered, or null. */
  lastSuccessAt: number | null;
  retryInMs?: number;
}

export interface CircuitBreaker {
  /** True while the circuit is open and cooling down: a call now would be refused. */
  blocked(): boolean;
  /**
   * Claims the right to make one attempt. Closed: yes. Open and cooling down: no. Open and
   * cooled down: yes, as the one probe (half-open). Half-open with a probe on the wire:
   * waits for the probe's outcome and decides again — so the batch that is running when
   * the server comes back is not failed for arriving during the probe.
   */
  acquire(): Promise<boolean>;
  /** The outcome of an acquired attempt. */
  record(outcome: 'success' | 'failure' | 'neutral', error?: ModelCallError): void;
  health(): CircuitHealth;
}

/**
 * What an attempt's outcome says about the server. Refused connections, timeouts, 5xx and
 * malformed responses are the server failing; an answer that fails validation is the server
 * working; a caller's abort and other 4xx (bad key, unknown model: not retried anyway) say
 * nothing either way.
 */
export function circuitOutcome(
  error: ModelCallError | undefined,
): 'success' | 'failure' | 'neutral' {
  if (!error || error.code === 'invalid_answer') return 'success';
  switch (error.code) {
    case 'network':
    case 'timeout':
    case 'bad_response':
      return 'failure';
    case 'http_error':
      return error.status !== undefined && error.status >= 500 ? 'failure' : 'neutral';
    default:
      return 'neutral';
  }
}

// One closure over the breaker's state (~80 lines): the transitions share six variables and
// splitting them apart would only pass those around.
export function createCircuitBreaker(
  opts: CircuitOptions = {},
  onChange?: (e: CircuitEvent) => void,
): CircuitBreaker {
  const threshold = Math.max(1, opts.failureThreshold ?? 5);
  const baseCooldown = opts.cooldownMs ?? 10_000;
  const maxCooldown = Math.max(baseCooldown, opts.maxCooldownMs ?? 60_000);
  const now = opts.now ?? Date.now;
  const successWindow = opts.successWindowMs ?? 5000;
  const answeredLately = () => lastSuccessAt !== null && now() - lastSuccessAt < successWindow;
  let state: CircuitState = 'closed';
  let failures = 0;
  let cooldown = baseCooldown;
  let openUntil = 0;
  let probing = false;
  let lastError: ModelCallError | undefined;
  let lastSuccessAt: number | null = null;
  /** Callers waiting for the half-open probe's outcome. */
  let waiting: Array<() => void> = [];
  const settleProbe = () => {
    probing = false;
    const wake = waiting;
    waiting = [];
    for (const w of wake) w();
  };

  const open = () => {
    state = 'open';
    openUntil = now() + cooldown;
    settleProbe();
    onChange?.({ state, failures, ...(lastError ? { lastError } : {}), retryInMs: cooldown });
  };

  return {
    blocked() {
      return state === 'open' && now() < openUntil;
    },
    async acquire() {
      for (;;) {
        if (state === 'closed') return true;
        if (state === 'open') {
          if (now() < openUntil) return false;
          state = 'half-open';
          onChange?.({ state, failures });
        }
        if (!probing) {
          probing = true;
          return true;
        }
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    record(outcome, error) {
      if (outcome === 'neutral') {
        // An aborted probe proves nothing: let the next caller probe instead.
        if (state === 'half-open') settleProbe();
        return;
      }
      if (outcome === 'success') {
        lastSuccessAt = now();
        failures = 0;
        cooldown = baseCooldown;
        if (state !== 'closed') {
          state = 'closed';
          settleProbe();
          onChange?.({ state, failures: 0 });
        }
        return;
      }
      failures++;
      lastError = error;
      if (state === 'half-open') {
        cooldown = Math.min(maxCooldown, cooldown * 2);
        open();
      } else if (state === 'closed' && failures >= threshold && !answeredLately()) {
        open();
      }
    },
    health() {
      const h: CircuitHealth = { state, consecutiveFailures: failures, lastSuccessAt };
      if (lastError) h.lastError = lastError;
      if (state === 'open') h.retryInMs = Math.max(0, openUntil - now());
      return h;
    },
  };
}
