// The reward × domain matrix's fixtures: per domain one rollout that renders and one that
// fails (with the failure code that domain gives it), the rubrics of every preset for each
// domain's prompt, a judge double whose verdicts are fixed per criterion key, and the rewards
// those verdicts give, computed by hand below.
import type { DomainId } from '../../src/core/domain-ids.ts';
import { DOMAIN_FAMILY } from '../../src/reward/families.ts';
import { getPreset } from '../../src/rubric/presets.ts';
import type { PrismaItem, PrismaRubric } from '../../src/rubric/prisma-schema.ts';
import type { RubricRecord } from '../../src/rubric/schema.ts';
import { validateAuthorAnswer } from '../../src/rubric/validate.ts';
import { isCodeJudge, isDirectJudge, isVisionJudge } from '../prisma/fixtures.ts';
import { schemaKeys } from '../score/support/fixtures.ts';
import { type DoubleRequest, fillSchema, jsonAnswer } from '../support/model-double.ts';

const VL = 'https://vega.github.io/schema/vega-lite/v5.json';

/** Every domain that runs on this machine (Mermaid, the slowest render, last). */
export const MATRIX_DOMAINS: DomainId[] = [
  'svg',
  'python',
  'vega-lite',
  'html',
  'latex',
  'dot',
  'lilypond',
  'smiles',
  'mermaid',
];

/** A completion per domain whose code renders to a non-blank picture. */
export const GOOD: Record<DomainId, string> = {
  svg: '```svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="#fff"/><circle cx="50" cy="50" r="30" fill="#e53935"/></svg>\n```',
  python:
    "```python\nimport matplotlib.pyplot as plt\nplt.bar(['a', 'b', 'c'], [3, 1, 2])\nplt.title('Sales')\n```",
  'vega-lite': `\`\`\`vega-lite\n${JSON.stringify({
    $schema: VL,
    data: {
      values: [
        { a: 'x', b: 3 },
        { a: 'y', b: 5 },
      ],
    },
    mark: 'bar',
    encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } },
  })}\n\`\`\``,
  html: '```html\n<!doctype html><html><body style="margin:0"><h1 style="background:#36c;color:#fff;padding:40px">Hello</h1><p>A page.</p></body></html>\n```',
  latex:
    '```latex\n\\begin{tikzpicture}\\draw[fill=blue!20] (0,0) rectangle (3,2);\\node at (1.5,1) {A};\\end{tikzpicture}\n```',
  mermaid: '```mermaid\ngraph TD\n  A[Start] --> B[Stop]\n```',
  dot: '```dot\ndigraph { a -> b -> c }\n```',
  lilypond: "```lilypond\n\\version \"2.24.0\"\n{ c'4 d'4 e'4 f'4 }\n```",
  smiles: '```smiles\nCCO\n```',
};

/** A completion per domain whose code fails, and the failure code the domain gives it. */
export const BAD: Record<DomainId, { completion: string; code: string }> = {
  svg: {
    completion:
      '```svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5"</svg>\n```',
    code: 'parse_error',
  },
  python: {
    completion: '```python\nimport matplotlib.pyplot as plt\nraise ValueError("no")\n```',
    code: 'exec_error',
  },
  'vega-lite': {
    completion: `\`\`\`vega-lite\n{"$schema": "${VL}", "mark": "bar", "data": {"values": [}\n\`\`\``,
    code: 'exec_error',
  },
  html: { completion: '```html\n<!doctype html><html><body></body></html>\n```', code: 'blank' },
  latex: {
    completion: '```latex\n\\begin{tikzpicture}\\nosuchcommand\\end{tikzpicture}\n```',
    code: 'exec_error',
  },
  mermaid: { completion: '```mermaid\ngraph TD\n  A -->\n```', code: 'exec_error' },
  dot: { completion: '```dot\ndigraph { a -> }\n```', code: 'exec_error' },
  lilypond: {
    completion: '```lilypond\n\\version "2.24.0"\n{ c\'4 d\'4 \\nosuchcmd }\n```',
    code: 'exec_error',
  },
  smiles: { completion: '```smiles\nC1CC(\n```', code: 'exec_error' },
};

/** The judge's score per rubric key (ruler, rubric-s, universal), fixed so rewards can be computed. */
export const KEY_SCORE: Record<string, number> = {
  concept_recognisability: 0.9,
  key_parts: 0.8,
  silhouette_refinement: 0.7,
  composition: 0.5,
  finish_craftsmanship: 0.6,
  stylistic_coherence: 0.4,
  structural_completeness: 0.3,
  text_penalty: 0,
  prompt_fit: 0.9,
  visual_quality: 0.8,
  rendering_cleanliness: 0.6,
  style: 0.5,
};
/** The direct (holistic) judge's score. */
export const DIRECT = 0.62;

/** λc, λv, λh of each family (src/reward/families.ts, restated so a change there shows here). */
const FAMILY: Record<string, [number, number, number]> = {
  svg: [0.3, 0.7, 0],
  chart: [0.7, 0.3, 0],
  webui: [0.3, 0.5, 0.2],
  diagram: [0.5, 0.5, 0],
  default: [0.5, 0.5, 0],
};
const familyOfDomain = (d: DomainId) => DOMAIN_FAMILY[d] ?? 'default';

/**
 * The reward each kind gives a rollout that renders, from the double's verdicts:
 * - ruler: weights 5,5,5,4,5,5 on .9,.8,.7,.5,.6,.4 → 19/29;
 * - rubric-s: 5,5,5,5,4 on .9,.8,.3,.7,.5 and the −2 penalty on 0, over Σw>0 = 24 → 15.5/24;
 * - universal: five items of weight 1 on .9,.8,.5,.6,.5 → 3.3/5;
 * - prisma: every code item satisfied (S_code 1), no vision item (S_vision 0), the holistic
 *   term 0.62 → λc + λh·0.62 (λ of the domain's family);
 * - direct: 0.62; hybrid with λt = 0 (and no image terms): R_render = 1.
 */
export function expectedReward(kind: string, d: DomainId): number {
  const [c, v, h] = FAMILY[familyOfDomain(d)]!;
  const table: Record<string, number> = {
    ruler: 19 / 29,
    'rubric-s': 15.5 / 24,
    universal: 3.3 / 5,
    prisma: (c * 1 + v * 0 + h * DIRECT) / (c + v + h),
    direct: DIRECT,
    hybrid: 1,
  };
  return table[kind]!;
}

export const promptOf = (d: DomainId) => `a small picture in ${d}`;
export const promptId = (d: DomainId) => `p-${d}`;

function instanceRubric(preset: 'ruler' | 'rubric-s', d: DomainId): RubricRecord {
  const p = getPreset(preset);
  const answer = Object.fromEntries(
    p.items.map((it) => [
      it.key,
      {
        title: `${it.title} (${d})`,
        description: `${it.focus} For ${d}.`,
        bands: ['excellent', 'strong', 'partial', 'weak', 'absent'].map((b) => `${b} ${it.key}`),
      },
    ]),
  );
  const r = validateAuthorAnswer(p, promptOf(d), answer as never);
  if (!r.ok) throw new Error(r.message);
  return {
    id: promptId(d),
    prompt: promptOf(d),
    preset,
    items: r.items,
    ideal_svg: null,
    ideal_score: 0.95,
    ...(d === 'svg' ? {} : { domain: d }),
    kept: true,
    author: 'test:author',
    judge: 'test:judge',
    usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 },
  };
}

const item = (modality: 'code' | 'vision', i: number, criterion: string): PrismaItem => ({
  key: `specific_${i}`,
  modality,
  origin: 'specific',
  criterion,
  weight: i,
  count: 1,
});

function prismaRubricFor(d: DomainId): PrismaRubric {
  return {
    id: promptId(d),
    prompt: promptOf(d),
    preset: 'prisma',
    domain: d,
    family: familyOfDomain(d),
    difficulty: 1,
    code_items: [item('code', 1, 'The code draws the subject'), item('code', 2, 'Sizes set')],
    vision_items: [item('vision', 1, 'The subject is visible'), item('vision', 2, 'Centred')],
    kept: true,
    author: 'test:author',
    versions: { author: 'x', shared: 'x' },
    usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 },
  };
}

/** The rubrics file's lines: ruler, rubric-s and prisma rubrics for every domain's prompt. */
export function matrixRubrics(domains: DomainId[]): string {
  return domains
    .flatMap((d) => [instanceRubric('ruler', d), instanceRubric('rubric-s', d), prismaRubricFor(d)])
    .map((r) => JSON.stringify(r))
    .join('\n');
}

/** Per domain: `<d>-ok` (renders) and `<d>-bad` (fails). */
export function matrixRollouts(domains: DomainId[]) {
  return domains.flatMap((d) => [
    { id: `${d}-ok`, prompt_id: promptId(d), completion: GOOD[d] },
    { id: `${d}-bad`, prompt_id: promptId(d), completion: BAD[d].completion },
  ]);
}

/** The judge double: fixed scores per key; PrismaForge code items pass, vision items fail. */
export function matrixJudge(req: DoubleRequest) {
  if (isDirectJudge(req)) return jsonAnswer({ reasoning: 'overall', score: DIRECT });
  if (isCodeJudge(req) || isVisionJudge(req)) {
    const pass = isCodeJudge(req);
    return jsonAnswer(
      fillSchema(req.schema!, (kind, path) =>
        kind === 'boolean' ? pass : kind === 'string' ? `why ${String(path[0])}` : 0,
      ),
    );
  }
  const keys = schemaKeys(req);
  if (keys.length === 0 || keys.some((k) => KEY_SCORE[k] === undefined)) return { status: 400 };
  return jsonAnswer(
    Object.fromEntries(keys.map((k) => [k, { reasoning: `looked at ${k}`, score: KEY_SCORE[k] }])),
  );
}
