import { describe, expect, it } from 'vitest';
import { parseRewardFlag, rewardNeeds } from './reward-flag.ts';
import { UsageError } from './usage-error.ts';

describe('--reward', () => {
  it('takes one reward or a comma list, in order, without repeats', () => {
    expect(parseRewardFlag('ruler')).toEqual(['ruler']);
    expect(parseRewardFlag(' ruler, hybrid ,ruler')).toEqual(['ruler', 'hybrid']);
  });

  it('refuses an unknown or empty reward as a usage error naming the choices', () => {
    expect(() => parseRewardFlag('ruler,clip')).toThrow(UsageError);
    expect(() => parseRewardFlag('ruler,clip')).toThrow(
      /one of ruler, universal, rubric-s, hybrid/,
    );
    expect(() => parseRewardFlag(' , ')).toThrow(/empty/);
  });

  it('says what the rewards need', () => {
    expect(rewardNeeds(['hybrid'])).toEqual({ judge: false, rubrics: false, hybrid: true });
    expect(rewardNeeds(['universal', 'hybrid'])).toEqual({
      judge: true,
      rubrics: false,
      hybrid: true,
    });
    expect(rewardNeeds(['rubric-s'])).toEqual({ judge: true, rubrics: true, hybrid: false });
    // PrismaForge: the elastic reward reads prisma rubrics; direct judging needs none.
    expect(rewardNeeds(['prisma'])).toEqual({ judge: true, rubrics: true, hybrid: false });
    expect(rewardNeeds(['direct'])).toEqual({ judge: true, rubrics: false, hybrid: false });
  });
});
