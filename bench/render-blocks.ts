// One side of a block-interleaved `bench:render --against REF --blocks B` (compare-blocks.ts):
// a long-lived process holding a warm render pool of the side's src/ (`--src DIR`), that
// runs the whole per-rollout path (completion → extractArtifact → render → runChecks → data
// URI) on the block of files it is told, and answers with that block's CPU (this process and
// its workers, to the nanosecond) and wall time. Protocol, one JSON line each way on stdio:
//   → {"from":0,"to":25}   ← {"files":25,"failed":0,"cpuS":0.31,"wallS":0.2,"respawned":0}
//   ← {"ready":true} once warm; stdin closed: the pool is closed and the process exits.
// Not a test, not run by itself.

import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pLimit from 'p-limit';
import { fluentEmoji } from '../test/support/corpus.ts';
import { treeCpuPreciseSeconds } from './proc-cpu.ts';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : dflt;
};
const N = Number(arg('files', '300'));
const WORKERS = Number(arg('workers', '1'));
const IN_FLIGHT = Number(arg('in-flight', '4'));
// Files per worker rendered before the first block, not measured (render.bench.ts --warmup).
const WARMUP = Math.max(1, Number(arg('warmup', '8')));
const RENDERER = arg('renderer', 'auto');
const SRC = resolve(arg('src', fileURLToPath(new URL('..', import.meta.url))));
const fromSrc = (p: string) => pathToFileURL(join(SRC, p)).href;
const { extractArtifact } = (await import(
  fromSrc('src/artifact/extract.ts')
)) as typeof import('../src/artifact/extract.ts');
const { runChecks } = (await import(
  fromSrc('src/checks/run-checks.ts')
)) as typeof import('../src/checks/run-checks.ts');
const { createRenderPool, pngDataUri } = (await import(
  fromSrc('src/render/index.ts')
)) as typeof import('../src/render/index.ts');

// The same corpus and completions as render.bench.ts's whole-path rows.
const icons = fluentEmoji(N);
const prompts = icons.map((i) => `a flat icon of ${i.name.replace(/-/g, ' ')}`);
const completions = icons.map((i, k) => `Here is ${prompts[k]}:\n\n\`\`\`svg\n${i.svg}\n\`\`\`\n`);
const pool = createRenderPool({
  workers: WORKERS,
  defaults: { renderer: RENDERER as 'auto' },
});
const limit = pLimit(WORKERS * IN_FLIGHT);

/** The whole path for one completion; false when any step gave no picture. */
async function one(completion: string, prompt: string | undefined): Promise<boolean> {
  const art = await extractArtifact(completion);
  if (!art.svg) return false;
  const r = await pool.render(art.svg, { size: 512 });
  if (!r.ok) return false;
  runChecks(art, r, prompt);
  return pngDataUri(r.png).length > 0;
}

// Warm-up, not measured: boot the workers, the tokenizer, the JIT (as render.bench.ts, on
// files outside the measured ones' text).
const warm = fluentEmoji(WORKERS * WARMUP + 7).slice(-WORKERS * WARMUP);
await Promise.all(
  warm.map((i) =>
    limit(() => one(`Warm-up:\n\n\`\`\`svg\n${i.svg}<!-- warm -->\n\`\`\`\n`, undefined)),
  ),
);
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const { from, to } = JSON.parse(line) as { from: number; to: number };
  // A worker started during the block (a recycle or a crash) would leave its exited
  // predecessor's CPU out of the reading: the block says so and is not counted.
  const spawned0 = pool.stats().spawned;
  const cpu0 = treeCpuPreciseSeconds(process.pid);
  const t0 = performance.now();
  let failed = 0;
  await Promise.all(
    completions.slice(from, to).map((c, k) =>
      limit(async () => {
        if (!(await one(c, prompts[from + k]))) failed++;
      }),
    ),
  );
  const wallS = (performance.now() - t0) / 1000;
  const cpuS = treeCpuPreciseSeconds(process.pid) - cpu0;
  const respawned = pool.stats().spawned - spawned0;
  process.stdout.write(`${JSON.stringify({ files: to - from, failed, cpuS, wallS, respawned })}\n`);
}
await pool.close();
