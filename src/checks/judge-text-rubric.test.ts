// judge_text finds the rubric's own item titles and keys written into an answer (issue 41
// item 1): drawn, hidden in a comment or <desc>, in a Python string; never a term the prompt
// itself holds, nor a short or generic one, nor an id that names a part.
import { describe, expect, it } from 'vitest';
import type { Artifact } from '../artifact/types.ts';
import { judgeText } from './judge-text.ts';
import { rubricHit, rubricTerms } from './judge-text-rubric.ts';
import { resolveCheckOptions } from './thresholds.ts';

const TERMS = [
  'Instantly readable (a flat icon of apple)',
  'concept_recognisability',
  'Balanced layout',
  'composition',
  'The stem and the leaf are drawn',
];
const PROMPT = 'a flat icon of apple';

function run(code: string, domain: 'svg' | 'python', terms: string[] = TERMS, prompt = PROMPT) {
  const artifact = {
    found: true,
    code,
    svg: domain === 'svg' ? code : undefined,
    domain,
    reasoning: '',
    dwt: { stages: [], valid: false },
    tokens: { completion: 0, svg: 0, reasoning: 0 },
  } as unknown as Artifact;
  return judgeText({
    artifact,
    render: null,
    prompt,
    rubricTerms: terms,
    options: resolveCheckOptions(),
  });
}

const svg = (inner: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="30" fill="red"/>${inner}</svg>`;

describe('judge_text: the rubric’s own words', () => {
  it.each([
    [
      'a caption of a title',
      svg('<text x="5" y="95">Instantly readable (a flat icon of apple)</text>'),
    ],
    [
      'a title split over tspans',
      svg(
        '<text><tspan x="1" y="9">THE STEM AND THE</tspan><tspan x="1" y="19">LEAF ARE DRAWN</tspan></text>',
      ),
    ],
    ['a key in a comment', svg('<!-- concept_recognisability: yes -->')],
    ['a criterion in <desc>', svg('<desc>The stem and the leaf are drawn.</desc>')],
  ])('flags %s', (_, code) => {
    const r = run(code, 'svg');
    expect(r.flag).toBe(true);
    expect((r.detail!.findings as { family: string }[]).map((f) => f.family)).toContain('rubric');
  });

  it('flags a title in a Python string', () => {
    const r = run(
      'import matplotlib.pyplot as plt\nplt.title("Balanced layout and then some")\n',
      'python',
      ['Balanced layout and then some'],
    );
    expect(r.flag).toBe(true);
  });

  it('does not flag without a rubric, generic or short terms, ids, or terms the prompt holds', () => {
    const plain = svg(
      '<text>Balanced layout</text><g id="concept_recognisability"/><text>composition</text>',
    );
    expect(run(plain, 'svg').flag).toBe(false);
    expect(run(svg('<text>Instantly readable (a flat icon of apple)</text>'), 'svg', []).flag).toBe(
      false,
    );
    // The prompt asks for the words: they are the drawing's, not a message to the judge.
    const asked = 'a sign that reads the stem and the leaf are drawn';
    expect(run(svg('<text>The stem and the leaf are drawn</text>'), 'svg', TERMS, asked).flag).toBe(
      false,
    );
  });

  it('matches whole words only', () => {
    const terms = rubricTerms(['key_parts'], '');
    expect(rubricHit('monkey_parts_list', terms)).toBeNull();
    expect(rubricHit('see key_parts here', terms)).not.toBeNull();
  });
});
