// The live service the Python adapter tests (integrations/python/tests) run against, so that
// `python3 -m unittest` needs no environment set up by hand: a loopback judge double whose
// scores follow the picture, and a real `rubrica serve` process guarded by a token from
// RUBRICA_TOKEN, with rubrics "fox", "owl" and "fail" (whose prompt makes the judge fail).
//
//   node --import tsx test/support/adapter-stack.ts      (run from the repository root)
//
// Prints one JSON line {url, token, svgA, svgB} on stdout once serve is ready, then runs
// until its stdin closes (the Python side's teardown) or it gets SIGTERM. It then stops
// serve with SIGTERM and exits with serve's exit code, so an unclean shutdown fails the test.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { judgeByImage, spawnServe, tempDir, writeRubrics } from '../server/support.ts';
import { fluentEmoji } from './corpus.ts';
import { startModelDouble } from './model-double.ts';

const TOKEN = 'tok-adapters';

const dir = tempDir('py-adapters');
const rubrics = writeRubrics(dir, [
  ['fox', 'a red fox'],
  ['owl', 'an owl at night'],
  ['fail', 'JUDGE_FAILS on this prompt'],
]);
const [iconA, iconB] = fluentEmoji(12);
const svgA = join(dir, 'a.svg');
const svgB = join(dir, 'b.svg');
writeFileSync(svgA, iconA!.svg);
writeFileSync(svgB, iconB!.svg);

const double = await startModelDouble({ handler: judgeByImage() });
const serve = await spawnServe(
  [
    '--rubrics',
    rubrics,
    '--judge',
    'openai-compatible:judge',
    '--judge-base-url',
    double.url,
    '--judge-retries',
    '0',
    '--cache',
    join(dir, 'cache.sqlite'),
    '--render-workers',
    '1',
  ],
  { RUBRICA_TOKEN: TOKEN },
);
process.stdout.write(`${JSON.stringify({ url: serve.url, token: TOKEN, svgA, svgB })}\n`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  serve.child.kill('SIGTERM');
  const code = await serve.exited;
  await double.close();
  if (code !== 0) process.stderr.write(`rubrica serve exited ${code}:\n${serve.stderr()}\n`);
  process.exit(code ?? 1);
}
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.on('SIGTERM', stop);
process.stdin.resume();
