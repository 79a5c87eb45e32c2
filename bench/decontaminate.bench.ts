// bench:decontaminate — 1,000,000 training instructions against 10,000 test instructions
// (the goal: under a minute on the project machine). The inputs are generated from
// a seeded vocabulary of 20,000 words (Zipf-like choice, 20–60 words an instruction, like
// real visual-code instructions), 1 in 1,000 training lines carrying a 15-word span copied
// from a test instruction; the run goes through decontaminateFiles exactly as the command
// does (streaming the files from disk) and checks every planted leak was dropped.
//   npm run bench:decontaminate [-- --train 1000000 --test 10000]
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decontaminateFiles } from '../src/curation/decontaminate.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const TRAIN = arg('train', 1_000_000);
const TEST = arg('test', 10_000);
const LEAK_EVERY = 1000;

let seed = 12345;
const rand = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const syll = [
  'ka',
  'lo',
  'mi',
  're',
  'tu',
  'sa',
  'ne',
  'po',
  'vi',
  'da',
  'gro',
  'chart',
  'bar',
  'ax',
];
const VOCAB = Array.from({ length: 20_000 }, (_, i) => {
  let w = '';
  let x = i + 1;
  while (x > 0) {
    w += syll[x % syll.length];
    x = Math.floor(x / syll.length);
  }
  return w;
});
const word = () => VOCAB[Math.floor(VOCAB.length * rand() ** 2.5)]!;
const sentence = () => {
  const n = 20 + Math.floor(rand() * 41);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(word());
  return out;
};

async function writeLines(path: string, count: number, line: (i: number) => string) {
  const s = createWriteStream(path);
  for (let i = 0; i < count; i++) {
    if (!s.write(`${line(i)}\n`)) await new Promise<void>((r) => s.once('drain', () => r()));
  }
  await new Promise<void>((r) => s.end(() => r()));
}

const dir = mkdtempSync(join(tmpdir(), 'bench-decon-'));
try {
  const tests = Array.from({ length: TEST }, sentence);
  await writeLines(join(dir, 'test.jsonl'), TEST, (i) =>
    JSON.stringify({ id: `t${i}`, instruction: `Draw ${tests[i]!.join(' ')}.` }),
  );
  let planted = 0;
  await writeLines(join(dir, 'train.jsonl'), TRAIN, (i) => {
    const words = sentence();
    if (i % LEAK_EVERY === 0) {
      const t = tests[i % TEST]!;
      const at = Math.floor(rand() * (t.length - 15));
      words.splice(5, 0, ...t.slice(at, at + 15));
      planted++;
    }
    return JSON.stringify({
      id: i,
      instruction: `Please write an SVG: ${words.join(' ')}`,
      code: '<svg/>',
    });
  });
  const mb = statSync(join(dir, 'train.jsonl')).size / 1e6;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = await decontaminateFiles({
    train: join(dir, 'train.jsonl'),
    tests: [join(dir, 'test.jsonl')],
    out: join(dir, 'kept.jsonl'),
    dropped: join(dir, 'dropped.jsonl'),
  });
  const secs = (performance.now() - t0) / 1000;
  const c1 = process.cpuUsage(c0);
  const cpu = (c1.user + c1.system) / 1e6;
  console.log(
    `decontaminate: ${TRAIN} train (${mb.toFixed(0)} MB) vs ${TEST} test, n=${r.n}: ` +
      `${secs.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU (index ${r.seconds.index.toFixed(1)} s, scan ${r.seconds.scan.toFixed(1)} s), ` +
      `${r.test_ngrams} test n-grams, dropped ${r.train.dropped} (planted ${planted})`,
  );
  if (r.train.dropped < planted) {
    console.error('decontaminate: a planted leak was not dropped');
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
