import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STRATEGY } from '../judge/strategy.ts';
import { addJudgingFlags, judgingFromFlags } from './judging-flags.ts';
import { UsageError } from './usage-error.ts';

function parse(argv: string[]) {
  const cmd = addJudgingFlags(new Command('x').exitOverride());
  cmd.parse(argv, { from: 'user' });
  return judgingFromFlags(cmd.opts());
}

describe('judging flags', () => {
  it('default to the strategy defaults: absolute judging, level 0.9', () => {
    expect(parse([])).toEqual({ ...DEFAULT_STRATEGY, panel: [] });
    expect(parse([]).judging).toBe('absolute');
  });
  it('read --judge-scoring and --interval-level', () => {
    const s = parse(['--judge-scoring', 'expected', '--interval-level', '0.8']);
    expect(s.scoring).toBe('expected');
    expect(s.intervalLevel).toBe(0.8);
  });
  it('refuse bad values as usage errors', () => {
    expect(() => parse(['--judge-scoring', 'mean'])).toThrow(UsageError);
    expect(() => parse(['--interval-level', '1'])).toThrow(UsageError);
    expect(() => judgingFromFlags({ judging: 'triple' })).toThrow(UsageError);
    expect(() => judgingFromFlags({ pairs: 'some' })).toThrow(UsageError);
    expect(() => judgingFromFlags({ quorum: '0' })).toThrow(UsageError);
  });
  it('parse the relative-judging fields', () => {
    const s = judgingFromFlags({ judging: 'pairwise', pairs: 'all', quorum: '2' });
    expect(s).toMatchObject({ judging: 'pairwise', pairs: 'all', quorum: 2 });
  });
});
