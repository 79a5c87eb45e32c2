// The elastic scorer's arithmetic on the criterion tree, against the seed's worked example
// (a bar chart: λc 0.7, λv 0.3) — exactly, and with the seed's rounding of 2/3 to 0.67 —
// plus the λ table's overrides, switched-off groups and the holistic term.
import { describe, expect, it } from 'vitest';
import type { PrismaItem } from '../rubric/prisma-schema.ts';
import { elasticTree, itemLeaf } from './elastic.ts';
import {
  DEFAULT_FAMILY_LAMBDAS,
  familyOf,
  LambdaError,
  lambdasFor,
  parseLambdaOverrides,
} from './families.ts';
import { evaluateTree, nodeValue } from './tree.ts';

const item = (key: string, modality: 'code' | 'vision', weight: number, count = 1): PrismaItem => ({
  key,
  modality,
  origin: 'specific',
  criterion: key,
  weight,
  count,
});

function workedExample(twoThirds: number) {
  const code = [
    itemLeaf(item('bars_evenly_spaced', 'code', 0.5), { key: 'a', f: 1 }),
    itemLeaf(item('exact_bar_heights', 'code', 0.5, 3), { key: 'b', f: twoThirds }),
  ];
  const vision = [
    itemLeaf(item('no_overlap', 'vision', 0.6), { key: 'c', f: 1 }),
    itemLeaf(item('y_axis_label', 'vision', 0.4), { key: 'd', f: 0 }),
  ];
  return elasticTree({ code, vision }, DEFAULT_FAMILY_LAMBDAS.chart!);
}

describe('elastic scorer: the seed worked example', () => {
  it('gives S_code 0.8333…, S_vision 0.6, S 0.7633… with f = 2/3 exactly', () => {
    const tree = workedExample(2 / 3);
    const [code, vision] = tree.children;
    expect(nodeValue(code!)).toBeCloseTo(5 / 6, 15);
    expect(nodeValue(vision!)).toBeCloseTo(0.6, 15);
    // 0.7·5/6 + 0.3·0.6 = 0.58333… + 0.18 = 0.76333…
    expect(evaluateTree(tree)).toEqual({
      value: expect.closeTo(0.7633333333333333, 15),
      status: 'ok',
    });
  });

  it('gives the seed’s printed 0.835 and 0.7645 when 2/3 is rounded to 0.67', () => {
    const tree = workedExample(0.67);
    expect(nodeValue(tree.children[0]!)).toBeCloseTo(0.835, 15);
    expect(evaluateTree(tree).value).toBeCloseTo(0.7645, 15);
  });

  it('is unscored (grader fault) when one judged item has no verdict, never a 0', () => {
    const tree = elasticTree(
      {
        code: [itemLeaf(item('a', 'code', 1), { key: 'a', f: null, reason: 'judge_error' })],
        vision: [itemLeaf(item('b', 'vision', 1), { key: 'b', f: 1 })],
      },
      DEFAULT_FAMILY_LAMBDAS.svg!,
    );
    expect(evaluateTree(tree)).toMatchObject({
      value: null,
      status: 'grader_error',
      reason: 'judge_error',
    });
  });

  it('switches a rubric off with λ 0 and needs the holistic leaf when λh > 0', () => {
    const code = [itemLeaf(item('a', 'code', 1), { key: 'a', f: 0 })];
    const vision = [itemLeaf(item('b', 'vision', 1), { key: 'b', f: 1 })];
    expect(
      evaluateTree(elasticTree({ code, vision }, { code: 0, vision: 1, holistic: 0 })).value,
    ).toBe(1);
    const webui = DEFAULT_FAMILY_LAMBDAS.webui!;
    expect(evaluateTree(elasticTree({ code, vision }, webui))).toMatchObject({
      status: 'grader_error',
      reason: 'judge_error',
    });
    const holistic = { ...itemLeaf(item('holistic', 'vision', 1), { key: 'h', f: 0.5 }) };
    // 0.3·0 + 0.5·1 + 0.2·0.5
    expect(evaluateTree(elasticTree({ code, vision, holistic }, webui)).value).toBeCloseTo(0.6, 15);
  });
});

describe('λ table', () => {
  it('maps domains to families and falls back to the default row', () => {
    expect(familyOf('vega-lite')).toBe('chart');
    expect(familyOf('svg')).toBe('svg');
    expect(familyOf('svg', 'chart')).toBe('chart');
    expect(familyOf('asymptote')).toBe('default');
    expect(lambdasFor(DEFAULT_FAMILY_LAMBDAS, 'nope')).toEqual(DEFAULT_FAMILY_LAMBDAS.default);
  });

  it('parses command-line and JSON overrides, keeping the rows not named', () => {
    const t = parseLambdaOverrides('chart=0.6:0.4, webui=0.2:0.6:0.2,new=1:0');
    expect(t.chart).toEqual({ code: 0.6, vision: 0.4, holistic: 0 });
    expect(t.webui).toEqual({ code: 0.2, vision: 0.6, holistic: 0.2 });
    expect(t.new).toEqual({ code: 1, vision: 0, holistic: 0 });
    expect(t.svg).toEqual(DEFAULT_FAMILY_LAMBDAS.svg);
    const j = parseLambdaOverrides('{"svg": {"code": 0.1, "vision": 0.9}}');
    expect(j.svg).toEqual({ code: 0.1, vision: 0.9, holistic: 0 });
  });

  it('refuses malformed, out-of-range and all-zero rows', () => {
    expect(() => parseLambdaOverrides('chart=0.7')).toThrow(LambdaError);
    expect(() => parseLambdaOverrides('chart=1.5:0')).toThrow(/\[0,1\]/);
    expect(() => parseLambdaOverrides('chart=0:0')).toThrow(/all 0/);
    expect(() => parseLambdaOverrides('{"svg": {"code": 2, "vision": 0}}')).toThrow(LambdaError);
  });
});
