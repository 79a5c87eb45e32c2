import { describe, expect, it } from 'vitest';
import { DOMAIN_IDS } from '../core/domain-ids.ts';
import { REWARD_KINDS } from '../core/record.ts';
import { rewardDomainProblem, rewardsRestricted } from './applies.ts';

describe('which reward applies to which domain', () => {
  it('every reward applies to svg; only the think-weighted hybrid is refused elsewhere', () => {
    for (const k of REWARD_KINDS) expect(rewardDomainProblem(k, 'svg')).toBeNull();
    for (const d of DOMAIN_IDS.filter((x) => x !== 'svg')) {
      for (const k of REWARD_KINDS.filter((x) => x !== 'hybrid'))
        expect(rewardDomainProblem(k, d), `${k} × ${d}`).toBeNull();
      expect(rewardDomainProblem('hybrid', d)).toBe(
        `reward hybrid does not apply to domain ${d}: its think term scores Drawing-with-Thought, a plan for drawing SVG (use --lambda-think 0, or another reward)`,
      );
      expect(rewardDomainProblem('hybrid', d, { hybridThink: 0 })).toBeNull();
    }
  });

  it('says when rollout domains need to be read at all', () => {
    expect(rewardsRestricted(['ruler', 'prisma', 'direct', 'universal', 'rubric-s'])).toBe(false);
    expect(rewardsRestricted(['ruler', 'hybrid'])).toBe(true);
    expect(rewardsRestricted(['hybrid'], { hybridThink: 0 })).toBe(false);
  });
});
