// Decontamination: the documented normalisation, the n-gram boundary (13 shared words drop,
// 12 do not), short test instructions matched as whole texts, every line shape rubrica reads
// or writes (instruction / prompt / text, chat messages as in curate's kept.jsonl, curate's
// decisions.jsonl), malformed lines (an error naming file and line, or skipped and counted),
// and the file pass — kept lines unchanged, dropped lines with the test instruction and
// n-gram that matched, counts per test set.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonlLineError } from '../store/jsonl-values.ts';
import { decontaminateFiles, instructionOf } from './decontaminate.ts';
import { normaliseWords, TestNgramIndex } from './ngrams.ts';

const TEST =
  'Draw a bar chart showing the quarterly revenue of three product lines with a legend in the top right corner';

describe('normaliseWords', () => {
  it('folds width and case and splits on everything that is not a letter or digit', () => {
    expect(normaliseWords('  Ｄｒａｗ a <svg>-BAR, chart!! 3D ﬁne  ')).toEqual([
      'draw',
      'a',
      'svg',
      'bar',
      'chart',
      '3d',
      'fine',
    ]);
    expect(normaliseWords('...')).toEqual([]);
    expect(normaliseWords('Ünïcödé café')).toEqual(['ünïcödé', 'café']);
  });
});

const words = normaliseWords(TEST);

describe('TestNgramIndex', () => {
  const index = new TestNgramIndex(13);
  index.add({ id: 't1', set: 'bench', text: TEST });

  it('matches a training text sharing 13 consecutive words, whatever the punctuation and case', () => {
    const train = `Please: ${words.slice(3, 16).join(' ').toUpperCase()}, then add a title.`;
    expect(index.match(train)).toEqual({
      test_id: 't1',
      test_set: 'bench',
      ngram: words.slice(3, 16).join(' '),
      rule: 'ngram',
    });
  });

  it('does not match 12 shared words, nor the same words out of order', () => {
    expect(index.match(`x ${words.slice(3, 15).join(' ')} y`)).toBeNull();
    const swapped = [...words.slice(0, 13)];
    [swapped[5], swapped[6]] = [swapped[6]!, swapped[5]!];
    expect(index.match(swapped.join(' '))).toBeNull();
  });

  it('honours another n; a text shorter than n matches only as a whole normalised text', () => {
    const small = new TestNgramIndex(3);
    small.add({ id: 'a', set: 's', text: 'red round apple' });
    small.add({ id: 'b', set: 's', text: 'Pear tree' });
    small.add({ id: 'c', set: 's', text: '...' }); // no words: matches nothing
    expect(small.match('a Red, round APPLE pie')?.test_id).toBe('a');
    expect(small.match('  PEAR-tree! ')).toEqual({
      test_id: 'b',
      test_set: 's',
      ngram: 'pear tree',
      rule: 'whole_text',
    });
    // Containing the short text, or a part of it, is not a copy of it.
    expect(small.match('a pear tree in bloom')).toBeNull();
    expect(small.match('pear')).toBeNull();
    expect(small.match('')).toBeNull();
    expect(small.perSet.get('s')).toEqual({ texts: 3, tooShort: 2 });
  });

  it('a verbatim copy of a short test instruction is dropped at the default n = 13', () => {
    const index13 = new TestNgramIndex(13);
    index13.add({
      id: 'q',
      set: 'charts',
      text: 'Plot sin(x) from 0 to 2π with a dashed red line.',
    });
    expect(index13.match('plot SIN X from 0 to 2π, with a dashed red line')?.rule).toBe(
      'whole_text',
    );
    expect(index13.match('Plot sin(x) from 0 to 2π with a dashed blue line.')).toBeNull();
  });
});

describe('instructionOf', () => {
  it('reads instruction, prompt, text, and the user turns of chat messages', () => {
    expect(instructionOf({ instruction: 'a', prompt: 'b' })).toBe('a');
    expect(instructionOf({ prompt: 'b', text: 'c' })).toBe('b');
    expect(instructionOf({ text: 'c' })).toBe('c');
    // curate's kept.jsonl: the user turn is the instruction, the assistant's code is not.
    expect(
      instructionOf({
        messages: [
          { role: 'system', content: 'You write code.' },
          { role: 'user', content: 'draw a cat' },
          { role: 'assistant', content: '```svg\n<svg/>\n```' },
          { role: 'user', content: [{ type: 'text', text: 'now a dog' }, { type: 'image_url' }] },
        ],
        meta: { id: 'k1' },
      }),
    ).toBe('draw a cat\nnow a dog');
    expect(instructionOf({ messages: [{ role: 'assistant', content: 'x' }] })).toBeNull();
    expect(instructionOf({ instruction: 42 })).toBeNull();
    expect(instructionOf({ id: 'x' })).toBeNull();
    expect(instructionOf('draw')).toBeNull();
  });
});

describe('decontaminateFiles', () => {
  it('writes kept lines unchanged, dropped lines with why, and counts per test set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decon-'));
    const f = (name: string, lines: object[]) => {
      const p = join(dir, name);
      writeFileSync(p, lines.map((l) => JSON.stringify(l)).join('\n'));
      return p;
    };
    const train = f('train.jsonl', [
      { id: 1, instruction: `Now ${TEST.toLowerCase()}` },
      { id: 2, instruction: 'Draw a cat', code: '<svg/>' },
      { id: 3, prompt: words.slice(0, 13).join('   ') },
    ]);
    const a = f('chartbench.jsonl', [
      { id: 'c1', instruction: TEST },
      { id: 'c2', instruction: 'short' },
    ]);
    const b = f('svgbench.jsonl', [
      {
        id: 's1',
        prompt: 'Draw a cat sitting on a mat under a tree in the rain at night with stars',
      },
    ]);
    const r = await decontaminateFiles({
      train,
      tests: [a, b],
      out: join(dir, 'kept.jsonl'),
      dropped: join(dir, 'dropped.jsonl'),
    });
    const kept = readFileSync(join(dir, 'kept.jsonl'), 'utf8').trim().split('\n');
    expect(kept).toEqual([JSON.stringify({ id: 2, instruction: 'Draw a cat', code: '<svg/>' })]);
    const dropped = readFileSync(join(dir, 'dropped.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(dropped.map((d) => [d.id, d.line, d.test_set, d.test_id])).toEqual([
      [1, 1, 'chartbench', 'c1'],
      [3, 3, 'chartbench', 'c1'],
    ]);
    expect(r.train).toEqual({ lines: 3, kept: 1, dropped: 2, malformed: 0 });
    const set = (o: object) => ({
      malformed: 0,
      train_dropped_whole_text: 0,
      train_dropped: 0,
      test_hit: 0,
      ...o,
    });
    expect(r.test_sets).toEqual({
      chartbench: set({ instructions: 2, shorter_than_n: 1, train_dropped: 2, test_hit: 1 }),
      svgbench: set({ instructions: 1, shorter_than_n: 0 }),
    });
  });
});

describe('decontaminateFiles: every shape, malformed lines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'decon-shapes-'));
  const f = (name: string, lines: (object | string)[]) => {
    const p = join(dir, name);
    writeFileSync(p, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
    return p;
  };
  const SHORT = 'Plot the monthly rainfall of Lima as bars';
  const test = f('bench.jsonl', [
    // a test set in chat form, like curate's kept.jsonl
    {
      messages: [
        { role: 'user', content: TEST },
        { role: 'assistant', content: 'x' },
      ],
    },
    { id: 'short', text: SHORT },
  ]);
  // curate's kept.jsonl and decisions.jsonl (src/curation/outputs.ts, curate.ts)
  const kept = (id: string, instruction: string) => ({
    messages: [
      { role: 'user', content: instruction },
      { role: 'assistant', content: '```svg\n<svg/>\n```' },
    ],
    meta: { id, source: 'github', domain: 'svg', decision: 'kept', score: 1, rounds: 0 },
  });
  const decision = (id: string, instruction: string) => ({
    id,
    source: 'github',
    domain: 'svg',
    instruction,
    code: '<svg/>',
    decision: 'kept',
    reason: null,
    initial_score: 1,
    final_score: 1,
    rounds: [],
    usage: {},
  });

  it('reads chat messages and decisions, drops verbatim short copies, counts them', async () => {
    const train = f('kept.jsonl', [
      kept('k1', `Please ${TEST}`),
      kept('k2', 'draw a cat'),
      kept('k3', `${SHORT}.`),
      decision('d1', TEST.toUpperCase()),
      decision('d2', 'plot the monthly rainfall of Lima as bars in a dark theme'),
    ]);
    const r = await decontaminateFiles({
      train,
      tests: [test],
      out: join(dir, 'clean.jsonl'),
      dropped: join(dir, 'dropped.jsonl'),
    });
    expect(r.train).toEqual({ lines: 5, kept: 2, dropped: 3, malformed: 0 });
    expect(r.test_sets.bench).toEqual({
      instructions: 2,
      shorter_than_n: 1,
      malformed: 0,
      train_dropped: 3,
      train_dropped_whole_text: 1,
      test_hit: 2,
    });
    expect(r.short_rule).toMatch(/shorter than n words/);
    const ids = readFileSync(join(dir, 'clean.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).meta?.id ?? JSON.parse(l).id);
    expect(ids).toEqual(['k2', 'd2']);
    const dropped = readFileSync(join(dir, 'dropped.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(dropped.map((d) => [d.line, d.test_id, d.rule])).toEqual([
      [1, 'bench:1', 'ngram'],
      [3, 'short', 'whole_text'],
      [4, 'bench:1', 'ngram'],
    ]);
  });

  it('a malformed line is an error naming file and line; --skip-malformed counts it', async () => {
    const train = f('bad.jsonl', [
      { instruction: 'draw a cat' },
      '{"instruction": "torn',
      { id: 'no-instruction', code: '<svg/>' },
      { instruction: TEST },
    ]);
    const out = join(dir, 'bad-out.jsonl');
    const err = await decontaminateFiles({ train, tests: [test], out }).catch((e) => e);
    expect(err).toBeInstanceOf(JsonlLineError);
    expect(err.message.startsWith(`${train}:2: `), err.message).toBe(true);
    expect(() => readFileSync(out)).toThrow(); // no half-written output
    const r = await decontaminateFiles({ train, tests: [test], out, skipMalformed: true });
    expect(r.train).toEqual({ lines: 4, kept: 1, dropped: 1, malformed: 2 });
    expect(readFileSync(out, 'utf8')).toBe(`${JSON.stringify({ instruction: 'draw a cat' })}\n`);
    // A malformed test line is the same error, naming the test file.
    const badTest = f('badtest.jsonl', [{ instruction: 'x' }, { nothing: true }]);
    const e2 = await decontaminateFiles({ train: test, tests: [badTest], out }).catch((e) => e);
    expect(e2.message).toContain(`${badTest}:2: no instruction`);
    const r2 = await decontaminateFiles({
      train: test,
      tests: [badTest],
      out,
      skipMalformed: true,
    });
    expect(r2.test_sets.badtest!.malformed).toBe(1);
  });
});
