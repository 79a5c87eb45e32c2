// Decontamination: the documented normalisation, the n-gram boundary (13 shared words drop,
// 12 do not), and the file pass — kept lines unchanged, dropped lines with the test
// instruction and n-gram that matched, counts per test set.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decontaminateFiles } from './decontaminate.ts';
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
    });
  });

  it('does not match 12 shared words, nor the same words out of order', () => {
    expect(index.match(`x ${words.slice(3, 15).join(' ')} y`)).toBeNull();
    const swapped = [...words.slice(0, 13)];
    [swapped[5], swapped[6]] = [swapped[6]!, swapped[5]!];
    expect(index.match(swapped.join(' '))).toBeNull();
  });

  it('honours another n, and texts shorter than n have no n-gram', () => {
    const small = new TestNgramIndex(3);
    small.add({ id: 'a', set: 's', text: 'red round apple' });
    small.add({ id: 'b', set: 's', text: 'pear' });
    expect(small.match('a Red, round APPLE pie')?.test_id).toBe('a');
    expect(small.match('pear')).toBeNull();
    expect(small.perSet.get('s')).toEqual({ texts: 2, tooShort: 1 });
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
      { id: 4, note: 'no instruction here' },
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
    expect(kept).toEqual([
      JSON.stringify({ id: 2, instruction: 'Draw a cat', code: '<svg/>' }),
      JSON.stringify({ id: 4, note: 'no instruction here' }),
    ]);
    const dropped = readFileSync(join(dir, 'dropped.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(dropped.map((d) => [d.id, d.line, d.test_set, d.test_id])).toEqual([
      [1, 1, 'chartbench', 'c1'],
      [3, 3, 'chartbench', 'c1'],
    ]);
    expect(r.train).toEqual({ lines: 4, kept: 2, dropped: 2, unreadable: 1 });
    expect(r.test_sets).toEqual({
      chartbench: { instructions: 2, shorter_than_n: 1, train_dropped: 2, test_hit: 1 },
      svgbench: { instructions: 1, shorter_than_n: 0, train_dropped: 0, test_hit: 0 },
    });
  });
});
