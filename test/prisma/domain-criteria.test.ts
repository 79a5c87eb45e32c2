// Issue 23 item 3: every domain's rubrics carry that domain's own shared criteria, read from
// its one file (prompts/domains/<d>/criteria.md) on both synthesis paths — a PrismaForge
// rubric's shared items and what its author is shown, and the RULER author's rubric prompt —
// and never another domain's list (the python rubric used to get SVG's or a generic 2 + 2).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DOMAIN_IDS, type DomainId } from '../../src/core/domain-ids.ts';
import { loadDomainCriteria } from '../../src/domains/criteria-file.ts';
import { getPreset } from '../../src/rubric/presets.ts';
import { loadSharedCriteria, SharedCriteriaError } from '../../src/rubric/shared-criteria.ts';
import { authorRubricCode } from '../../src/synth/author.ts';
import { domainAuthoring } from '../../src/synth/domain-prompts.ts';
import { createPrismaSynthesizer } from '../../src/synth/prisma.ts';
import { authorClient } from '../score/support/fixtures.ts';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../support/model-double.ts';

let author: ModelDouble;
beforeAll(async () => {
  author = await startModelDouble();
});
afterAll(() => author.close());
beforeEach(() => author.reset());

const item = (criterion: string) => ({ criterion, weight: 1, count: 1 });
/** Difficulty 1: 2 specific code items and 3 vision items (src/rubric/prisma-budget.ts). */
const scriptPrismaAuthor = () =>
  author.script((req) =>
    req.schemaName === 'difficulty'
      ? jsonAnswer({ reasoning: 'simple', difficulty: 1 })
      : jsonAnswer({
          code_items: [item('code one'), item('code two')],
          vision_items: [item('vision one'), item('vision two'), item('vision three')],
        }),
  );

const questions = (d: DomainId) => {
  const c = loadDomainCriteria(d);
  return { code: c.code.map((i) => i.question), vision: c.vision.map((i) => i.question) };
};
const others = (d: DomainId) =>
  DOMAIN_IDS.filter((o) => o !== d).flatMap((o) => [...questions(o).code, ...questions(o).vision]);

describe('domain-shared criteria on the PrismaForge path', () => {
  it.each(DOMAIN_IDS)(
    '%s: the rubric carries its domain file’s items and no other domain’s',
    async (d) => {
      scriptPrismaAuthor();
      const r = await createPrismaSynthesizer({ author: authorClient(author.url) }).synthesize({
        id: `p-${d}`,
        prompt: `an instruction in ${d}`,
        domain: d,
      });
      expect(r.kept, r.drop_message).toBe(true);
      const file = loadDomainCriteria(d);
      const shared = (m: 'code' | 'vision') =>
        (m === 'code' ? r.code_items : r.vision_items)
          .filter((i) => i.origin === 'shared')
          .map((i) => ({ key: i.key, weight: i.weight, criterion: i.criterion, count: i.count }));
      for (const m of ['code', 'vision'] as const)
        expect(shared(m)).toEqual(
          file[m].map((c) => ({
            key: `shared_${c.key}`,
            weight: c.weight,
            criterion: c.question,
            count: 1,
          })),
        );
      expect(r.versions.shared).toBe(loadSharedCriteria(d).version);
      // The author was shown this domain's shared items (so it does not repeat them), no other's.
      const step2 = author.requests[1]!.text;
      for (const q of [...questions(d).code, ...questions(d).vision]) expect(step2).toContain(q);
      const criteria = [...r.code_items, ...r.vision_items].map((i) => i.criterion);
      for (const q of others(d)) {
        expect(step2).not.toContain(q);
        expect(criteria).not.toContain(q);
      }
    },
  );

  it('the python rubric has python’s items (the script makes the figure, the legend), not SVG’s', () => {
    const py = loadSharedCriteria('python');
    const keys = [...py.code, ...py.vision].map((i) => i.key);
    expect(keys).toContain('shared_script_makes_figure');
    expect(keys).toContain('shared_legend_matches');
    expect(keys).not.toContain('shared_viewbox');
    expect(keys).not.toContain('shared_drawn_not_written');
    expect(JSON.stringify(py)).not.toMatch(/SVG|<svg>|viewBox/);
  });

  it('an unknown domain is an error with a stable code, not SVG’s list or a generic one', () => {
    expect(() => loadSharedCriteria('cobol')).toThrow(SharedCriteriaError);
    try {
      loadSharedCriteria('cobol');
    } catch (e) {
      expect((e as SharedCriteriaError).code).toBe('missing_shared_criteria');
    }
  });
});

describe('domain-shared criteria on the RULER synth path', () => {
  // SVG's RULER author prompt (prompts/author/rubric.md) predates the criteria files and is
  // left as it is; every other domain's author prompt lists its file's vision standards.
  const OTHER = DOMAIN_IDS.filter((d): d is Exclude<DomainId, 'svg'> => d !== 'svg');
  it.each(OTHER)(
    '%s: the rubric author’s prompt carries its domain’s vision standards',
    async (d) => {
      author.script(() => jsonAnswer({}));
      const preset = getPreset('ruler');
      await authorRubricCode(
        authorClient(author.url),
        preset,
        'a chart',
        domainAuthoring(d),
        'x',
        null,
      );
      const text = author.requests[0]!.text;
      for (const q of questions(d).vision) expect(text).toContain(q);
      for (const q of others(d)) expect(text).not.toContain(q);
    },
  );
});
