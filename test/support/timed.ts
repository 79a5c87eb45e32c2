// A call's result and its wall time in ms: for the tests that hold a pattern or a scan linear
// on hostile input (a generous bound against a quadratic's seconds, not a benchmark).
export function timed<T>(run: () => T): { value: T; ms: number } {
  const t = performance.now();
  const value = run();
  return { value, ms: performance.now() - t };
}
