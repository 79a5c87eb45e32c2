// node --import tsx bench/domains-split.ts [--src DIR] [--only latex,dot,python,lilypond-warm,smiles]
//   [--warmup W]
// Where a warm pool's CPU goes per job: this node process (spawning the sandbox, reading its
// output, pngResult's decode, crop and encode) against the processes under it (bwrap, the
// tool, the zygote's children). Eight corpus files after W warm-up files (default 1), per
// domain; the node share is process.cpuUsage (its libvips threads included), the rest the
// process tree's CPU from /proc minus it. --src measures another checkout's src/ (e.g. /work/main) with the
// same corpus. A benchmark, not a test: nothing is asserted (issue 36 item 3).
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  dotCorpus,
  latexCorpus,
  lilypondCorpus,
  pythonCorpus,
  smilesCorpus,
} from '../test/support/domain-corpus.ts';
import { treeCpuSeconds } from './proc-cpu.ts';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : dflt;
};
const SRC = resolve(arg('src', join(import.meta.dirname, '..')));
const from = (p: string) => import(pathToFileURL(join(SRC, p)).href);
type Renderer = import('../src/domains/types.ts').DomainRenderer;

const DOMAINS: Record<string, { make: () => Promise<Renderer>; corpus: (n: number) => string[] }> =
  {
    latex: {
      make: async () => (await from('src/domains/latex/renderer.ts')).createLatexRenderer(),
      corpus: latexCorpus,
    },
    dot: {
      make: async () => (await from('src/domains/dot/renderer.ts')).createDotRenderer(),
      corpus: dotCorpus,
    },
    python: {
      make: async () =>
        (await from('src/domains/python/renderer.ts')).createPythonRenderer({ poolSize: 1 }),
      corpus: pythonCorpus,
    },
    'lilypond-warm': {
      make: async () =>
        (await from('src/domains/lilypond/renderer.ts')).createLilypondRenderer({
          pool: true,
          poolSize: 1,
        }),
      corpus: lilypondCorpus,
    },
    smiles: {
      make: async () => (await from('src/domains/smiles/renderer.ts')).createSmilesRenderer(),
      corpus: smilesCorpus,
    },
  };

const N = 8;
const WARMUP = Math.max(1, Number(arg('warmup', '1')));
console.log(`src ${SRC}`);
for (const name of arg('only', Object.keys(DOMAINS).join(',')).split(',')) {
  const d = DOMAINS[name];
  if (!d) throw new Error(`unknown domain ${name}`);
  const r = await d.make();
  const files = d.corpus(N + WARMUP);
  // Warm-up: the pool's start (and with more files, V8 compiling node's side), not jobs.
  for (const f of files.slice(N)) await r.render(f, {});
  const self0 = process.cpuUsage();
  const tree0 = treeCpuSeconds(process.pid);
  let drawn = 0;
  for (const f of files.slice(0, N)) if ((await r.render(f, {})).ok) drawn++;
  const self = process.cpuUsage(self0);
  const nodeMs = (self.user + self.system) / 1000 / N;
  const totalMs = ((treeCpuSeconds(process.pid) - tree0) * 1000) / N;
  const line = `${name.padEnd(14)} ${drawn}/${N} drawn; CPU-ms a job: ${totalMs.toFixed(0)} in all`;
  console.log(
    `${line}, node ${nodeMs.toFixed(1)} (${((100 * nodeMs) / totalMs).toFixed(0)} %), tools ${(totalMs - nodeMs).toFixed(0)}`,
  );
  await r.close();
}
