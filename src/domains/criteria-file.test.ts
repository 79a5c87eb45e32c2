import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOMAIN_IDS } from '../core/domain-ids.ts';
import {
  DomainCriteriaError,
  loadDomainCriteria,
  parseDomainCriteria,
  readDomainCriteriaText,
} from './criteria-file.ts';

describe('domain criteria files', () => {
  it('every shipped prompts/domains/<d>/criteria.md parses, with code and vision items', () => {
    for (const d of DOMAIN_IDS) {
      const c = loadDomainCriteria(d);
      expect(c.code.length, d).toBeGreaterThan(1);
      expect(c.vision.length, d).toBeGreaterThan(1);
      for (const item of [...c.code, ...c.vision]) {
        expect(item.weight, `${d}.${item.key}`).toBeGreaterThanOrEqual(1);
        expect(item.weight, `${d}.${item.key}`).toBeLessThanOrEqual(3);
        expect(item.question, `${d}.${item.key}`).toMatch(/\?$/);
      }
    }
    expect(loadDomainCriteria('html').vision[2]).toEqual({
      key: 'layout_holds',
      weight: 2,
      question:
        'Does the layout hold at the viewport: nothing overflows horizontally, overlaps or is cut off?',
    });
  });

  it('gives each domain its own list: no two domains share a question', () => {
    const seen = new Map<string, string>();
    for (const d of DOMAIN_IDS) {
      const c = loadDomainCriteria(d);
      for (const item of [...c.code, ...c.vision]) {
        expect(seen.get(item.question), `${d}: ${item.question}`).toBeUndefined();
        seen.set(item.question, d);
      }
    }
  });

  it('names the file and line of a line out of format', () => {
    const ok = '## code\n- a (1): A?\n## vision\n- b (2): B?\n';
    expect(parseDomainCriteria('x.md', `# Title\nSome prose.\n\n${ok}`)).toEqual({
      code: [{ key: 'a', weight: 1, question: 'A?' }],
      vision: [{ key: 'b', weight: 2, question: 'B?' }],
    });
    expect(() => parseDomainCriteria('x.md', '## code\n- ok (1): Fine?\n* bad line')).toThrow(
      /x\.md:3: expected/,
    );
    expect(() => parseDomainCriteria('x.md', '- early (1): Before a section?')).toThrow(
      DomainCriteriaError,
    );
    expect(() => parseDomainCriteria('x.md', '## pictures')).toThrow(/unknown section/);
    expect(() => parseDomainCriteria('x.md', `${ok}- a (1): Again?`)).toThrow(/x\.md:5: key "a"/);
    expect(() => parseDomainCriteria('x.md', '## code\n- a (1): A?\n')).toThrow(
      /no items under ## vision/,
    );
  });

  it('a known domain without its file, or an unknown domain, is missing_domain_criteria', () => {
    const root = mkdtempSync(join(tmpdir(), 'criteria-'));
    mkdirSync(join(root, 'domains', 'svg'), { recursive: true });
    writeFileSync(join(root, 'domains', 'svg', 'criteria.md'), '## code\n- a (1): A?\n');
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as DomainCriteriaError).code;
      }
      return 'no error';
    };
    expect(code(() => readDomainCriteriaText('python', root))).toBe('missing_domain_criteria');
    expect(() => readDomainCriteriaText('python', root)).toThrow(/python\/criteria\.md/);
    expect(code(() => readDomainCriteriaText('cobol'))).toBe('missing_domain_criteria');
    expect(readDomainCriteriaText('svg', root).text).toBe('## code\n- a (1): A?\n');
  });
});
