// The CairoSVG side of a block-interleaved `bench:render --blocks B` without `--against`
// (compare-blocks.ts): P long-lived, warm Python processes (Debian python3-cairosvg) that
// render the blocks of files they are told, so CairoSVG and rubrica take turns on the same
// 25 files seconds apart instead of as whole runs a minute apart — the per-core ratio to
// CairoSVG then survives a shared machine's load swings as the --against ratio does.
// Same protocol as render-blocks.ts, one JSON line each way on stdio:
//   → {"from":0,"to":25}   ← {"files":25,"failed":0,"cpuS":0.31,"wallS":0.2}
//   ← {"ready":true} once every process is warm; stdin closed: the processes exit.
// CPU is the Python processes' own (every thread, to the nanosecond): this dispatcher's is
// left out, as the round-alternated mode's CairoSVG rows count only Python. Not a test.

import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fluentEmoji } from '../test/support/corpus.ts';
import { treeCpuPreciseSeconds } from './proc-cpu.ts';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : dflt;
};
const N = Number(arg('files', '300'));
const PROCS = Number(arg('procs', '1'));
const SIZE = Number(arg('size', '512'));

// Render-only, as render.bench.ts's CairoSVG rows: svg2png at SIZE² on white. Each line in
// is "lo hi"; each line out is the number of files that raised.
const PY = `
import sys, json, cairosvg
files = json.load(open(sys.argv[1]))
render = lambda s: cairosvg.svg2png(bytestring=s.encode('utf-8'), output_width=${SIZE},
                                    output_height=${SIZE}, background_color='white')
for s in files[:8]:
    render(s)  # warm up
print('ready', flush=True)
for line in sys.stdin:
    lo, hi = map(int, line.split())
    errors = 0
    for s in files[lo:hi]:
        try:
            render(s)
        except Exception:
            errors += 1
    print(errors, flush=True)
`;

const file = join(tmpdir(), `rubrica-cairosvg-blocks-${process.pid}.json`);
writeFileSync(file, JSON.stringify(fluentEmoji(N).map((i) => i.svg)));

interface Proc {
  child: ChildProcess;
  next: () => Promise<string>;
}

function startProc(): Proc {
  const child = spawn('/usr/bin/python3', ['-c', PY, file], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return {
    child,
    next: async () => {
      const r = await lines.next();
      if (r.done) throw new Error(`CairoSVG process ${child.pid} exited`);
      return r.value;
    },
  };
}

const procs = Array.from({ length: PROCS }, startProc);
try {
  await Promise.all(procs.map((p) => p.next()));
} finally {
  // Every process has read the corpus (or died): the file is no longer needed.
  rmSync(file, { force: true });
}
const cpuNow = () => procs.reduce((s, p) => s + treeCpuPreciseSeconds(p.child.pid!), 0);
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const { from, to } = JSON.parse(line) as { from: number; to: number };
  // Contiguous shares, one per process, as the round mode splits its files.
  const per = Math.ceil((to - from) / PROCS);
  const cpu0 = cpuNow();
  const t0 = performance.now();
  const errors = await Promise.all(
    procs.map(async (p, i) => {
      const lo = Math.min(to, from + i * per);
      const hi = Math.min(to, lo + per);
      if (hi <= lo) return 0;
      p.child.stdin!.write(`${lo} ${hi}\n`);
      return Number(await p.next());
    }),
  );
  const wallS = (performance.now() - t0) / 1000;
  const cpuS = cpuNow() - cpu0;
  const failed = errors.reduce((s, e) => s + e, 0);
  process.stdout.write(`${JSON.stringify({ files: to - from, failed, cpuS, wallS })}\n`);
}
for (const p of procs) p.child.stdin!.end();
