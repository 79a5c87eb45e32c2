// Backpressure for the reward server. A request is admitted only when its rollouts fit under
// a fixed bound of rollouts in flight; otherwise it is refused at once (503 + Retry-After) so
// a trainer that floods the service gets a clear signal instead of an ever-growing queue.
import { createBudget } from '../core/pool-budget.ts';

/** The service's bounds: body sizes, items per request, rollouts in flight, retry advice. */
export interface ServerLimits {
  /** Largest request body, bytes (413 above it). */
  maxBodyBytes: number;
  /** Bytes of request bodies being read and parsed at once, over all requests (503 above). */
  maxBodyBytesInFlight: number;
  /** A request body that sends nothing for this long is dropped (408), ms. */
  bodyIdleTimeoutMs: number;
  /** Most rollouts in one request (400 above it). */
  maxItemsPerRequest: number;
  /** Most rollouts being scored at once over all requests (503 above it). */
  maxInFlight: number;
  /** Seconds a refused client is told to wait before retrying. */
  retryAfterSeconds: number;
}

/** The service's default bounds (64 MiB bodies, 4,096 items a request, 8,192 in flight). */
export const DEFAULT_LIMITS: ServerLimits = {
  maxBodyBytes: 64 * 1024 * 1024,
  maxBodyBytesInFlight: 128 * 1024 * 1024,
  bodyIdleTimeoutMs: 30_000,
  maxItemsPerRequest: 4096,
  maxInFlight: 8192,
  retryAfterSeconds: 2,
};

/**
 * The default limits with `partial` applied, then made consistent: a request or a body that
 * could never be admitted is capped to what can.
 */
export function resolveLimits(partial: Partial<ServerLimits> = {}): ServerLimits {
  const limits = { ...DEFAULT_LIMITS, ...partial };
  // A request that may never fit would be refused forever: keep the two bounds consistent.
  limits.maxItemsPerRequest = Math.min(limits.maxItemsPerRequest, limits.maxInFlight);
  // Likewise a body that may never fit in the shared budget.
  limits.maxBodyBytes = Math.min(limits.maxBodyBytes, limits.maxBodyBytesInFlight);
  return limits;
}

/** The count of rollouts in flight over all requests, and whether the server is draining. */
export interface Admission {
  readonly max: number;
  readonly inFlight: number;
  readonly draining: boolean;
  /** Reserve n slots; false when they do not fit (or the server is draining). */
  tryAcquire(n: number): boolean;
  release(n: number): void;
  /** Refuse every new request from now on. */
  startDraining(): void;
  /** Resolves once nothing is in flight. */
  idle(): Promise<void>;
}

/**
 * An admission budget of `max` rollouts: a request fits at once or is refused (503), never
 * queued, so a flooding trainer gets a clear signal.
 */
export function createAdmission(max: number): Admission {
  // The rollouts in flight are a refusing budget (core/pool-budget.ts): a request either
  // fits at once or is answered 503, never queued.
  const budget = createBudget(max);
  let draining = false;
  return {
    max,
    get inFlight() {
      return budget.used;
    },
    get draining() {
      return draining;
    },
    tryAcquire(n) {
      return !draining && budget.tryAcquire(n);
    },
    release(n) {
      budget.release(n);
    },
    startDraining() {
      draining = true;
    },
    idle() {
      return budget.idle();
    },
  };
}
