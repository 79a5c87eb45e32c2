// Backpressure for the reward server. A request is admitted only when its rollouts fit under
// a fixed bound of rollouts in flight; otherwise it is refused at once (503 + Retry-After) so
// a trainer that floods the service gets a clear signal instead of an ever-growing queue.

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

export const DEFAULT_LIMITS: ServerLimits = {
  maxBodyBytes: 64 * 1024 * 1024,
  maxBodyBytesInFlight: 128 * 1024 * 1024,
  bodyIdleTimeoutMs: 30_000,
  maxItemsPerRequest: 4096,
  maxInFlight: 8192,
  retryAfterSeconds: 2,
};

export function resolveLimits(partial: Partial<ServerLimits> = {}): ServerLimits {
  const limits = { ...DEFAULT_LIMITS, ...partial };
  // A request that may never fit would be refused forever: keep the two bounds consistent.
  limits.maxItemsPerRequest = Math.min(limits.maxItemsPerRequest, limits.maxInFlight);
  // Likewise a body that may never fit in the shared budget.
  limits.maxBodyBytes = Math.min(limits.maxBodyBytes, limits.maxBodyBytesInFlight);
  return limits;
}

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

export function createAdmission(max: number): Admission {
  let inFlight = 0;
  let draining = false;
  let waiters: Array<() => void> = [];
  const wake = () => {
    if (inFlight !== 0) return;
    const ready = waiters;
    waiters = [];
    for (const w of ready) w();
  };
  return {
    max,
    get inFlight() {
      return inFlight;
    },
    get draining() {
      return draining;
    },
    tryAcquire(n) {
      if (draining || inFlight + n > max) return false;
      inFlight += n;
      return true;
    },
    release(n) {
      inFlight = Math.max(0, inFlight - n);
      wake();
    },
    startDraining() {
      draining = true;
    },
    idle() {
      if (inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}
