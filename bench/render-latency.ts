// Where one rollout's time goes between the pool and its worker (issue 36 item 2): renders
// the bench corpus through a one-worker pool with K requests in flight (default 1: one
// rollout alone) and prints, per file, the wall time of render() against the worker's own
// render time (r.ms, wall) and the CPU of parent and worker, the worker's per thread
// (schedstat, ns). Not a test.
//   node --import tsx bench/render-latency.ts [files] [inFlight]
import { readdirSync, readFileSync } from 'node:fs';
import pLimit from 'p-limit';
import { createRenderPool } from '../src/render/index.ts';
import { fluentEmoji } from '../test/support/corpus.ts';

const N = Number(process.argv[2] ?? '200');
const K = Number(process.argv[3] ?? '1');
const threadsCpuMs = (pid: number) => {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  }
  return ns / 1e6;
};
const pool = createRenderPool({ workers: 1, defaults: { renderer: 'librsvg', size: 512 } });
const icons = fluentEmoji(N + 16);
for (const i of icons.slice(N)) await pool.render(`${i.svg}<!-- warm -->`);
const pid = pool.stats().workers[0]!.pid!;
// CPU of each of the worker's threads (main, V8's platform threads, libuv's pool, libvips):
// what it spends outside its phases shows up here, not in r.ms.
const perThread = () =>
  new Map(
    readdirSync(`/proc/${pid}/task`).map((t) => [
      t,
      Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]) / 1e6,
    ]),
  );
const threads0 = perThread();
const w0 = threadsCpuMs(pid);
const p0 = threadsCpuMs(process.pid);
const gaps: number[] = [];
const walls: number[] = [];
let renderMs = 0;
const limit = pLimit(K);
const t0 = performance.now();
await Promise.all(
  icons.slice(0, N).map((i) =>
    limit(async () => {
      const t = performance.now();
      const r = await pool.render(i.svg);
      const wall = performance.now() - t;
      walls.push(wall);
      gaps.push(wall - r.ms);
      renderMs += r.ms;
    }),
  ),
);
const wallS = (performance.now() - t0) / 1000;
const w = (threadsCpuMs(pid) - w0) / N;
const p = (threadsCpuMs(process.pid) - p0) / N;
const threadLines = [...perThread()].map(([t, ms]) => {
  const comm = readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim();
  return `${comm} ${t}: ${((ms - (threads0.get(t) ?? 0)) / N).toFixed(2)}`;
});
await pool.close();
const q = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.floor(f * xs.length)]!;
console.log(
  `files ${N}, in flight ${K}, ${(N / wallS).toFixed(1)} files/s: render() p50 ${q(walls, 0.5).toFixed(2)} ms; ` +
    `worker's r.ms mean ${(renderMs / N).toFixed(2)}; gap (wall − r.ms) p50 ${q(gaps, 0.5).toFixed(2)} p90 ${q(gaps, 0.9).toFixed(2)} ms; ` +
    `CPU ms/file: worker ${w.toFixed(2)}, parent ${p.toFixed(2)}`,
);
console.log(`worker CPU ms/file by thread: ${threadLines.join('; ')}`);
