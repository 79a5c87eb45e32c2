// `rubrica doctor`'s check of the vega-lite domain: a real start of the sandboxed vega runtime
// (runtime.ts, the way the renderer starts it) and one tiny chart through it. Never throws.
import { VegaRuntime } from './runtime.ts';

const PROBE_SPEC = JSON.stringify({
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  data: { values: [{ a: 1 }] },
  mark: 'point',
  encoding: { x: { field: 'a', type: 'quantitative' } },
});

/** Starts a runtime in its sandbox and renders one chart: ok, the wall time, and why not. */
export async function checkVegaRuntime(): Promise<{ ok: boolean; ms: number; why: string }> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  let rt: VegaRuntime | undefined;
  try {
    rt = new VegaRuntime({ heapMb: 256 });
    await rt.ready;
    const a = await rt.run({ spec: PROBE_SPEC, maxRows: 10 }, 30_000);
    if ('ok' in a && a.ok) return { ok: true, ms: ms(), why: '' };
    const why = 'failed' in a ? a.failed : a.message;
    return { ok: false, ms: ms(), why: `the sandboxed runtime did not render: ${why}` };
  } catch (e) {
    return { ok: false, ms: ms(), why: (e as Error).message };
  } finally {
    await rt?.close();
  }
}
