import { describe, expect, it } from 'vitest';
import { DOMAIN_IDS } from '../core/domain-ids.ts';
import { domainAuthoring, parseDomainAuthoring } from './domain-prompts.ts';

describe('what the author is told per domain', () => {
  it('every domain but svg has a name, fence, picture, rules and shared standards', () => {
    for (const d of DOMAIN_IDS) {
      if (d === 'svg') continue;
      const a = domainAuthoring(d);
      expect(a.domain).toBe(d);
      for (const field of [a.name, a.fence, a.picture]) expect(field.length, d).toBeGreaterThan(1);
      expect(a.rules, d).toMatch(/^- /);
      expect(a.criteria, d).toMatch(/^- .+\?/);
      expect(a.version, d).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(domainAuthoring('python').version).not.toBe(domainAuthoring('latex').version);
  });

  it('names the section that lacks a field', () => {
    expect(() => parseDomainAuthoring('## dot\nname: x\nfence: dot\n- a rule')).toThrow(
      /## dot has no "picture:" line/,
    );
  });
});
