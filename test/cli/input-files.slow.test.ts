// Issue 23 item 7: every command that reads an input file or folder answers a missing or
// unreadable one with ONE line on stderr naming the path, and exit 2 — never a stack trace
// (`select --scores missing.jsonl` died with an uncaught ENOENT). "Unreadable" is a folder
// given where a file is expected (portable: chmod 000 does not stop root), or a file where a
// folder is. The list of commands is read from src/cli/commands/index.ts, so a new command
// must be added here (the last test fails otherwise). Slow: render and inspect fork their
// render worker at start.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandTable } from '../../src/cli/commands/index.ts';
import { runCliInProcess } from '../support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'cli-inputs-'));
const p = (name: string) => join(dir, name);
const MISSING = p('missing.jsonl');
const A_DIR = p('a-folder.jsonl'); // a folder named like a file
const A_FILE = p('a-file'); // a file where a folder is expected
// A model server that is not there: every input check must come before any call to it.
const MODEL = 'openai-compatible:nobody';
const NO_SERVER = 'http://127.0.0.1:9/v1';

beforeAll(() => {
  mkdirSync(A_DIR);
  writeFileSync(A_FILE, 'x\n');
  const line = (o: object) => `${JSON.stringify(o)}\n`;
  writeFileSync(p('prompts.jsonl'), line({ id: 'p1', prompt: 'a red circle' }));
  writeFileSync(p('rubrics.jsonl'), line({ id: 'p1', prompt: 'a red circle' }));
  writeFileSync(p('rollouts.jsonl'), line({ id: 'r1', prompt_id: 'p1', completion: '<svg/>' }));
  writeFileSync(p('scores.jsonl'), line({ id: 'r1', prompt_id: 'p1', reward: 0.5 }));
  writeFileSync(p('train.jsonl'), line({ instruction: 'draw a red circle' }));
  writeFileSync(p('human.jsonl'), line({ id: 'r1', group: 'p1', score: 1 }));
  writeFileSync(p('system.txt'), 'You draw.\n');
  writeFileSync(p('study.json'), '{"kind":"rating"}\n');
  writeFileSync(p('c.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  mkdirSync(p('run'));
  writeFileSync(join(p('run'), 'results.jsonl'), '');
});

type Kind = 'file' | 'dir';
interface Case {
  /** What is wrong, as the test title shows it. */
  input: string;
  kind: Kind;
  args: (bad: string) => string[];
}
const file = (input: string, args: (bad: string) => string[]): Case => ({
  input,
  kind: 'file',
  args,
});
const folder = (input: string, args: (bad: string) => string[]): Case => ({
  input,
  kind: 'dir',
  args,
});
const out = () => p(`out-${Math.random().toString(36).slice(2)}`);

/** Per command, every input it reads, each with the other inputs good. */
const CASES: Record<string, Case[]> = {
  export: [
    file('verl --rubrics', (b) => ['export', 'verl', '--rubrics', b, '--out', `${out()}.parquet`]),
    file('verl --system', (b) => [
      'export',
      'verl',
      '--rubrics',
      p('rubrics.jsonl'),
      '--system',
      b,
      '--out',
      `${out()}.parquet`,
    ]),
    file('sft --rollouts', (b) => [
      'export',
      'sft',
      '--rollouts',
      b,
      '--scores',
      p('scores.jsonl'),
      '--min-reward',
      '0.5',
      '--out',
      `${out()}.jsonl`,
    ]),
    file('sft --scores', (b) => [
      'export',
      'sft',
      '--rollouts',
      p('rollouts.jsonl'),
      '--scores',
      b,
      '--min-reward',
      '0.5',
      '--out',
      `${out()}.jsonl`,
    ]),
    file('sft --prompts', (b) => [
      'export',
      'sft',
      '--rollouts',
      p('rollouts.jsonl'),
      '--scores',
      p('scores.jsonl'),
      '--min-reward',
      '0.5',
      '--prompts',
      b,
      '--out',
      `${out()}.jsonl`,
    ]),
  ],
  inspect: [file('<completion>', (b) => ['inspect', b])],
  align: [
    file('--human', (b) => ['align', '--pred', `j=${p('scores.jsonl')}`, '--human', b]),
    file('--pred', (b) => ['align', '--pred', `j=${b}`, '--human', p('human.jsonl')]),
  ],
  studio: [
    folder('--run', (b) => ['studio', '--run', b, '--port', '0']),
    file('--study', (b) => ['studio', '--run', p('run'), '--study', b, '--port', '0']),
  ],
  compare: [folder('<dirs...>', (b) => ['compare', p('run'), b])],
  models: [], // models check takes a model spec, no file
  doctor: [], // doctor reads no input file
  rescore: [
    // --in is a score output or an eval run folder: a folder without a run is refused too.
    file('--in', (b) => [
      'rescore',
      '--in',
      b,
      '--rollouts',
      p('rollouts.jsonl'),
      '--judge',
      MODEL,
      '--out',
      `${out()}.jsonl`,
    ]),
    file('--rollouts', (b) => [
      'rescore',
      '--in',
      p('scores.jsonl'),
      '--rollouts',
      b,
      '--judge',
      MODEL,
      '--out',
      `${out()}.jsonl`,
    ]),
  ],
  'judge-proxy': [], // reads no input file (a SQLite --cache is created)
  render: [file('<files...>', (b) => ['render', p('c.svg'), b, '--out-dir', out()])],
  serve: [file('--rubrics', (b) => ['serve', '--rubrics', b, '--judge', MODEL, '--port', '0'])],
  generate: [
    file('--prompts', (b) => [
      'generate',
      '--prompts',
      b,
      '--policy',
      MODEL,
      '--policy-base-url',
      NO_SERVER,
      '--out',
      out(),
    ]),
    file('--system', (b) => [
      'generate',
      '--prompts',
      p('prompts.jsonl'),
      '--policy',
      MODEL,
      '--policy-base-url',
      NO_SERVER,
      '--system',
      b,
      '--out',
      out(),
    ]),
  ],
  eval: [
    file('--prompts', (b) => [
      'eval',
      '--prompts',
      b,
      '--rollouts',
      p('rollouts.jsonl'),
      '--judge',
      MODEL,
      '--out',
      out(),
    ]),
    file('--rollouts', (b) => [
      'eval',
      '--prompts',
      p('prompts.jsonl'),
      '--rollouts',
      b,
      '--judge',
      MODEL,
      '--out',
      out(),
    ]),
    file('--rubrics', (b) => [
      'eval',
      '--prompts',
      p('prompts.jsonl'),
      '--rollouts',
      p('rollouts.jsonl'),
      '--rubrics',
      b,
      '--judge',
      MODEL,
      '--out',
      out(),
    ]),
    file('--system', (b) => [
      'eval',
      '--prompts',
      p('prompts.jsonl'),
      '--policy',
      MODEL,
      '--system',
      b,
      '--judge',
      MODEL,
      '--out',
      out(),
    ]),
  ],
  rubric: [
    file('synth --in', (b) => [
      'rubric',
      'synth',
      '--in',
      b,
      '--out',
      out(),
      '--preset',
      'universal',
    ]),
  ],
  probe: [
    file('--prompts', (b) => [
      'probe',
      '--prompts',
      b,
      '--rollouts',
      p('rollouts.jsonl'),
      '--judge',
      MODEL,
      '--out',
      out(),
    ]),
    file('--rollouts', (b) => [
      'probe',
      '--prompts',
      p('prompts.jsonl'),
      '--rollouts',
      b,
      '--judge',
      MODEL,
      '--out',
      out(),
    ]),
    file('--rubrics', (b) => [
      'probe',
      '--prompts',
      p('prompts.jsonl'),
      '--rollouts',
      p('rollouts.jsonl'),
      '--rubrics',
      b,
      '--judge',
      MODEL,
      '--out',
      out(),
    ]),
  ],
  select: [
    file('--scores', (b) => [
      'select',
      '--scores',
      b,
      '--prompts',
      p('prompts.jsonl'),
      '--out',
      out(),
      '--top-k',
      '1',
    ]),
    file('--prompts', (b) => [
      'select',
      '--scores',
      p('scores.jsonl'),
      '--prompts',
      b,
      '--out',
      out(),
      '--top-k',
      '1',
    ]),
  ],
  decontaminate: [
    file('--train', (b) => [
      'decontaminate',
      '--train',
      b,
      '--test',
      p('train.jsonl'),
      '--out',
      out(),
    ]),
    file('--test', (b) => [
      'decontaminate',
      '--train',
      p('train.jsonl'),
      '--test',
      b,
      '--out',
      out(),
    ]),
  ],
  curate: [
    file('--in', (b) => ['curate', '--in', b, '--out', out(), '--judge', MODEL]),
    file('--rubrics', (b) => [
      'curate',
      '--in',
      p('train.jsonl'),
      '--rubrics',
      b,
      '--out',
      out(),
      '--judge',
      MODEL,
    ]),
  ],
  merge: [
    file('<shard-outputs...>', (b) => ['merge', '--out', out(), b]),
    file('--in', (b) => ['merge', '--out', out(), p('scores.jsonl'), '--in', b]),
  ],
  score: [
    file('--in', (b) => ['score', '--in', b, '--out', out(), '--judge', MODEL]),
    file('--rubrics', (b) => [
      'score',
      '--in',
      p('rollouts.jsonl'),
      '--rubrics',
      b,
      '--out',
      out(),
      '--judge',
      MODEL,
    ]),
  ],
};

const rows = Object.entries(CASES).flatMap(([command, cases]) =>
  cases.flatMap((c) => [
    { command, input: c.input, what: 'missing', bad: MISSING, args: c.args },
    {
      command,
      input: c.input,
      what: c.kind === 'file' ? 'a folder' : 'a file',
      bad: c.kind === 'file' ? A_DIR : A_FILE,
      args: c.args,
    },
  ]),
);

describe('a missing or unreadable input: one line, exit 2, in every command', () => {
  it.each(rows)('$command $input: $what', async ({ args, bad }) => {
    const r = await runCliInProcess(args(bad));
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^rubrica: /);
    expect(lines[0]).toContain(bad);
    expect(lines[0]).not.toMatch(/\bat .*\(|node:internal/);
  });

  it('covers every command of the CLI', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(commandTable).sort());
  });
});
