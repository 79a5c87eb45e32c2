// npm run bench:judge-proxy — what one more hop costs: the same judge call (a ~37 KB body, the
// size of a judge request with its picture) straight to the loopback double and through
// `rubrica judge-proxy` (src/proxy/), sequentially, the double answering at once. Unique
// bodies, so every proxied call goes upstream; then the same bodies again (kept answers).
// Three rounds, each the p50 of 200 calls per path; the added latency is proxy − direct.
import { availableParallelism, loadavg } from 'node:os';
import { startProxy } from '../src/proxy/server.ts';
import { startModelDouble } from '../test/support/model-double.ts';

const double = await startModelDouble({ handler: (r) => ({ content: `ok ${r.text.length}` }) });
const proxy = await startProxy({ upstream: double.url, port: 0 });
const pad = 'x'.repeat(37_000);
const body = (i: number) =>
  JSON.stringify({ model: 'judge', messages: [{ role: 'user', content: `${i} ${pad}` }] });

async function p50(base: string, from: number, n: number): Promise<number> {
  const ms: number[] = [];
  for (let i = from; i < from + n; i++) {
    const t0 = performance.now();
    const r = await fetch(`${base}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body(i),
    });
    await r.text();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return ms[Math.floor(ms.length / 2)]!;
}

await p50(double.url, 0, 50); // warm-up of both paths
await p50(`${proxy.url}/v1`, 50, 50);
const rounds = [];
for (let k = 0; k < 3; k++) {
  const direct = await p50(double.url, 1000 * (k + 1), 200);
  const proxied = await p50(`${proxy.url}/v1`, 1000 * (k + 1) + 500, 200);
  const kept = await p50(`${proxy.url}/v1`, 1000 * (k + 1) + 500, 200);
  const r = (x: number) => Number(x.toFixed(2));
  rounds.push({
    direct_p50_ms: r(direct),
    proxy_p50_ms: r(proxied),
    proxy_kept_p50_ms: r(kept),
    added_ms: r(proxied - direct),
  });
}
await proxy.close();
await double.close();
console.log(
  JSON.stringify(
    { cores: availableParallelism(), load: loadavg().map((l) => l.toFixed(1)), rounds },
    null,
    2,
  ),
);
