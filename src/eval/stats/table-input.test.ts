import { describe, expect, it } from 'vitest';
import { parseHuman, parsePredictions } from './align-input.ts';
import { formatOf, parseDelimited, readRecords, readWinner } from './table-input.ts';

describe('parseDelimited', () => {
  it('reads quoted fields with commas, doubled quotes and newlines, and a BOM', () => {
    const rows = parseDelimited('\ufeffa,b\r\n"x, y","say ""hi"""\n"two\nlines",3\n\n');
    expect(rows).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x, y', 'say "hi"'] },
      { line: 3, cells: ['two\nlines', '3'] },
    ]);
  });

  it('reads tab-separated text and keeps empty trailing cells', () => {
    expect(parseDelimited('a\tb\n1\t', '\t')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['1', ''] },
    ]);
  });
});

describe('readWinner', () => {
  it('reads the usual spellings, the item id first', () => {
    expect(readWinner('Left', 'x', 'y')).toBe('a');
    expect(readWinner(2, 'x', 'y')).toBe('b');
    expect(readWinner('DRAW', 'x', 'y')).toBe('tie');
    expect(readWinner('y', 'x', 'y')).toBe('b');
    // Items literally named "b" and "a": the id wins over the word.
    expect(readWinner('b', 'b', 'a')).toBe('a');
    expect(readWinner('maybe', 'x', 'y')).toBeNull();
  });
});

describe('CSV study files with column mapping', () => {
  it('reads human votes and judge choices under other column names', () => {
    const csv = 'prompt,left,right,choice,annotator\np1,m1.png,m2.png,right,ann1\np2,m3,m4,,ann1\n';
    const h = parseHuman(csv, 'votes.csv', {
      columns: { group: 'prompt', a: 'left', b: 'right', winner: 'choice', rater: 'annotator' },
    });
    expect(h.pairwise).toEqual([
      { group: 'p1', a: 'm1.png', b: 'm2.png', winner: 'b', rater: 'ann1' },
    ]);
    // The empty winner cell is a missing field: a bad line, counted with its line number.
    expect(h.issues.map((i) => [i.line, i.code])).toEqual([[3, 'bad_shape']]);
    expect(formatOf('x.CSV')).toBe('csv');
  });

  it('reads scores written as text in a CSV', () => {
    const p = parsePredictions('item,reward\na,0.5\nb,1e-1\n', {
      file: 'scores.csv',
      columns: { id: 'item', score: 'reward' },
    });
    expect([...p.scores]).toEqual([
      ['a', 0.5],
      ['b', 0.1],
    ]);
  });
});

describe('readRecords: numeric scores', () => {
  it('reads a score cell as a number, and a hostile digit run with junk as text in linear time', () => {
    const junk = `${'9'.repeat(100_000)}x`;
    const t = performance.now();
    const { lines } = readRecords(`id,score\na,0.75\nb,${junk}\n`, 'votes.csv');
    expect(performance.now() - t).toBeLessThan(1_000);
    expect((lines[0]!.value as { score: unknown }).score).toBe(0.75);
    expect((lines[1]!.value as { score: unknown }).score).toBe(junk);
  });
});
