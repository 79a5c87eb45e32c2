// The live service the Python adapter tests (integrations/python/tests) run against, so that
// `python3 -m unittest` needs no environment set up by hand: a loopback judge double whose
// scores follow the picture, and a real `rubrica serve` process guarded by a token from
// RUBRICA_TOKEN, with rubrics "fox", "owl", "fail" (whose prompt makes the judge fail) and
// "mixed" (the judge fails on some pictures only).
//
//   node --import tsx test/support/adapter-stack.ts      (run from the repository root)
//
// A second serve whose default reward is "universal" (urlUniversal) lets the contract tests
// check that an adapter configured for another kind stops with a clear error; svgDir holds 16
// Fluent Emoji SVGs, the rollouts of the trainers' rhythm tests.
//
// Prints one JSON line {url, urlUniversal, token, svgA, svgB, svgDir} on stdout once both serves
// are ready, then runs
// until its stdin closes (the Python side's teardown) or it gets SIGTERM. It then stops
// serve with SIGTERM and exits with serve's exit code, so an unclean shutdown fails the test.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  judgeByImage,
  type ServeProcess,
  scoreForImage,
  spawnServe,
  tempDir,
  writeRubrics,
} from '../server/support.ts';
import { fluentEmoji } from './corpus.ts';
import { startModelDouble } from './model-double.ts';

const TOKEN = 'tok-adapters';
// Five serves start at once on two cores (each warms its render workers): give them time.
const START_MS = 120_000;

const dir = tempDir('py-adapters');
const rubrics = writeRubrics(dir, [
  ['fox', 'a red fox'],
  ['owl', 'an owl at night'],
  ['fail', 'JUDGE_FAILS on this prompt'],
  ['mixed', 'MIXED_GROUP a cat on a mat'],
  // ORS contract tests: a judge slower than the clients' 30 s silence limit, and one slow
  // enough to hold the ORS-open serve's two in-flight slots.
  ['slow', 'SLOW_JUDGE a slow fox'],
  ['hold', 'HOLD_JUDGE a held owl'],
  // OpenEnv contract tests: a judge slower than the client's 60 s per message.
  ['slow70', 'SLOW70_JUDGE a very slow fox'],
]);
const [iconA, iconB] = fluentEmoji(12);
const svgA = join(dir, 'a.svg');
const svgB = join(dir, 'b.svg');
writeFileSync(svgA, iconA!.svg);
writeFileSync(svgB, iconB!.svg);
const svgDir = join(dir, 'rollouts');
mkdirSync(svgDir);
for (const [i, icon] of fluentEmoji(64).slice(0, 16).entries()) {
  writeFileSync(join(svgDir, `${String(i).padStart(2, '0')}.svg`), icon.svg);
}

// Rubric "mixed": the judge fails on pictures it would score 0.3 or less, so one GRPO group
// holds measured rollouts and grader faults together (the fault imputation tests).
const byImage = judgeByImage();
const double = await startModelDouble({
  handler: (req) => {
    if (req.text.includes('MIXED_GROUP') && scoreForImage(req.images[0] ?? '') <= 0.3) {
      return { status: 500 };
    }
    const reply = byImage(req);
    if (req.text.includes('SLOW70_JUDGE')) return { ...reply, delayMs: 70_000 };
    if (req.text.includes('SLOW_JUDGE')) return { ...reply, delayMs: 35_000 };
    if (req.text.includes('HOLD_JUDGE')) return { ...reply, delayMs: 3_000 };
    return reply;
  },
});
// How many judge calls the double has answered, for tests that count them (ORS resumes).
const stats = createServer((_req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ judge_calls: double.requests.length }));
});
await new Promise<void>((resolve) => stats.listen(0, '127.0.0.1', resolve));
const statsUrl = `http://127.0.0.1:${(stats.address() as AddressInfo).port}`;
const serveArgs = (cache: string) => [
  '--rubrics',
  rubrics,
  '--judge',
  'openai-compatible:judge',
  '--judge-base-url',
  double.url,
  '--judge-retries',
  '0',
  '--cache',
  join(dir, cache),
  '--render-workers',
  '1',
];
// The ORS environment (`--ors`): one serve with the token, one without (short session TTL and
// two rollouts in flight, for the expiry and overload cases).
const started = await Promise.allSettled([
  spawnServe(serveArgs('cache.sqlite'), { RUBRICA_TOKEN: TOKEN }, START_MS),
  spawnServe(
    [...serveArgs('cache-universal.sqlite'), '--reward', 'universal'],
    { RUBRICA_TOKEN: TOKEN },
    START_MS,
  ),
  spawnServe([...serveArgs('cache-ors.sqlite'), '--ors'], { RUBRICA_TOKEN: TOKEN }, START_MS),
  spawnServe(
    [
      ...serveArgs('cache-ors-open.sqlite'),
      '--ors',
      '--ors-session-ttl-s',
      '2',
      '--max-in-flight',
      '2',
    ],
    {},
    START_MS,
  ),
  // The OpenEnv environment (`--openenv`), four episodes at once.
  spawnServe(
    [...serveArgs('cache-openenv.sqlite'), '--openenv', '--max-in-flight', '4'],
    {},
    START_MS,
  ),
]);
// A serve that did not start fails the stack; the ones that did must not be left running.
const notStarted = started.find((s) => s.status === 'rejected');
if (notStarted) {
  for (const s of started) if (s.status === 'fulfilled') s.value.child.kill('SIGKILL');
  await double.close();
  stats.close();
  throw notStarted.reason;
}
const procs = started.map((s) => (s as PromiseFulfilledResult<ServeProcess>).value);
const [serve, universal, ors, orsOpen, openenv] = procs as [
  ServeProcess,
  ServeProcess,
  ServeProcess,
  ServeProcess,
  ServeProcess,
];
const info = {
  url: serve.url,
  urlUniversal: universal.url,
  urlOrs: ors.url,
  urlOrsOpen: orsOpen.url,
  urlOpenEnv: openenv.url,
  statsUrl,
  token: TOKEN,
  svgA,
  svgB,
  svgDir,
};
process.stdout.write(`${JSON.stringify(info)}\n`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const p of procs) p.child.kill('SIGTERM');
  const codes = await Promise.all(procs.map((p) => p.exited));
  await double.close();
  stats.close();
  codes.forEach((code, i) => {
    if (code !== 0)
      process.stderr.write(`rubrica serve ${i} exited ${code}:\n${procs[i]!.stderr()}\n`);
  });
  const bad = codes.find((c) => c !== 0);
  process.exit(bad === undefined ? 0 : (bad ?? 1));
}
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.on('SIGTERM', stop);
process.stdin.resume();
