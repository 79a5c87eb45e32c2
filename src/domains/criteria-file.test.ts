import { describe, expect, it } from 'vitest';
import { DOMAIN_IDS } from '../core/domain-ids.ts';
import { DomainCriteriaError, loadDomainCriteria, parseDomainCriteria } from './criteria-file.ts';

describe('domain criteria files', () => {
  it('every shipped prompts/domains/<d>/criteria.md parses, with code and vision items', () => {
    for (const d of DOMAIN_IDS) {
      const c = loadDomainCriteria(d);
      expect(c.code.length, d).toBeGreaterThan(0);
      expect(c.vision.length, d).toBeGreaterThan(0);
      for (const item of [...c.code, ...c.vision]) {
        expect(item.weight, `${d}.${item.key}`).toBeGreaterThanOrEqual(1);
        expect(item.question, `${d}.${item.key}`).toMatch(/\?$/);
      }
    }
    expect(loadDomainCriteria('html').vision[3]).toEqual({
      key: 'fits_viewport',
      weight: 1,
      question: 'Does the page fit the viewport width without horizontal scrolling?',
    });
  });

  it('names the file and line of a line out of format', () => {
    expect(() => parseDomainCriteria('x.md', '## code\n- ok (1): Fine?\n* bad line')).toThrow(
      /x\.md:3: expected/,
    );
    expect(() => parseDomainCriteria('x.md', '- early (1): Before a section?')).toThrow(
      DomainCriteriaError,
    );
    expect(() => parseDomainCriteria('x.md', '## pictures')).toThrow(/unknown section/);
  });
});
