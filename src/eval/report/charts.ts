// The report's charts as vega-lite specs built from the run's records: reward
// distribution, status breakdown, per-axis and per-criterion means, output token lengths.
// Each becomes an SVG on the server (vega-svg.ts); a chart with no data says so instead.
import type { TopLevelSpec } from 'vega-lite';
import type { EvalRecord } from '../types.ts';
import { OUTCOME_LABELS, type Outcome, outcomeOf, statusLabel } from './outcome.ts';
import { kindColour, OUTCOME_COLOURS } from './palette.ts';
import { vegaLiteToSvg } from './vega-svg.ts';

export interface Chart {
  id: string;
  title: string;
  /** Inline SVG markup, or null when there was nothing to draw. */
  svg: string | null;
  note: string;
}

interface ChartSpec {
  id: string;
  title: string;
  spec: TopLevelSpec | null;
  note: string;
}

const OUTCOMES: Outcome[] = ['scored', 'not_judged', 'failed'];
const outcomeScale = {
  domain: OUTCOMES.map((o) => OUTCOME_LABELS[o]),
  range: OUTCOMES.map((o) => OUTCOME_COLOURS[o]),
};

function kindScale(kinds: string[]) {
  return { domain: kinds, range: kinds.map((k, i) => kindColour(k, i)) };
}

function rewardHistogram(records: EvalRecord[], kinds: string[]): ChartSpec {
  const values = records.flatMap((r) =>
    kinds.flatMap((kind) => {
      const s = r.scores[kind];
      if (!s) return [];
      const outcome = outcomeOf(s);
      // A rollout nobody judged has no reward to plot; failures count as 0 (as in "all samples").
      return outcome === 'not_judged'
        ? []
        : [{ kind, reward: s.reward, outcome: OUTCOME_LABELS[outcome] }];
    }),
  );
  const note =
    'Failures (no SVG, no render, blank) are drawn at 0; rollouts not judged are left out.';
  if (values.length === 0) return { id: 'reward', title: 'Reward distribution', spec: null, note };
  const layer = {
    mark: { type: 'bar', binSpacing: 1 },
    encoding: {
      x: {
        field: 'reward',
        type: 'quantitative',
        bin: { extent: [0, 1], step: 0.05 },
        title: 'reward',
      },
      y: { aggregate: 'count', type: 'quantitative', title: 'rollouts' },
      color: { field: 'outcome', type: 'nominal', scale: outcomeScale, title: null },
    },
  };
  const spec = {
    data: { values },
    facet: { row: { field: 'kind', type: 'nominal', title: null, sort: kinds } },
    spec: { width: 380, height: 120, ...layer },
  } as unknown as TopLevelSpec;
  return { id: 'reward', title: 'Reward distribution', spec, note };
}

function statusBars(records: EvalRecord[], kinds: string[]): ChartSpec {
  const values = records.flatMap((r) =>
    kinds.flatMap((kind) => {
      const s = r.scores[kind];
      return s ? [{ kind, status: statusLabel(s), outcome: OUTCOME_LABELS[outcomeOf(s)] }] : [];
    }),
  );
  const spec = {
    data: { values },
    width: 300,
    mark: 'bar',
    encoding: {
      y: { field: 'status', type: 'nominal', title: null, sort: '-x' },
      x: { aggregate: 'count', type: 'quantitative', title: 'rollouts' },
      color: { field: 'outcome', type: 'nominal', scale: outcomeScale, title: null },
      row:
        kinds.length > 1 ? { field: 'kind', type: 'nominal', title: null, sort: kinds } : undefined,
    },
  } as unknown as TopLevelSpec;
  return {
    id: 'status',
    title: 'Status of every rollout',
    spec: values.length ? spec : null,
    note: 'Why rollouts have no judge score, counted by reason.',
  };
}

function criterionValues(records: EvalRecord[], kinds: string[]) {
  return records.flatMap((r) =>
    kinds.flatMap((kind) =>
      (r.scores[kind]?.criteria ?? []).flatMap((c) =>
        c.score === null ? [] : [{ kind, axis: c.axis, key: c.key, score: c.score }],
      ),
    ),
  );
}

function axisBars(records: EvalRecord[], kinds: string[]): ChartSpec {
  const values = criterionValues(records, kinds);
  const spec = {
    data: { values },
    width: { step: 64 },
    height: 200,
    mark: 'bar',
    encoding: {
      x: { field: 'axis', type: 'nominal', title: null, axis: { labelAngle: 0 } },
      xOffset: { field: 'kind', type: 'nominal' },
      y: {
        aggregate: 'mean',
        field: 'score',
        type: 'quantitative',
        title: 'mean score',
        scale: { domain: [0, 1] },
      },
      color: { field: 'kind', type: 'nominal', scale: kindScale(kinds), title: 'reward' },
    },
  } as unknown as TopLevelSpec;
  return {
    id: 'axes',
    title: 'Mean score per axis',
    spec: values.length ? spec : null,
    note: 'Judged criteria only (rendered samples the judge scored).',
  };
}

function criterionBars(records: EvalRecord[], kinds: string[]): ChartSpec {
  const values = criterionValues(records, kinds);
  const spec = {
    data: { values },
    width: 300,
    mark: 'bar',
    encoding: {
      y: { field: 'key', type: 'nominal', title: null, sort: null },
      yOffset: { field: 'kind', type: 'nominal' },
      x: {
        aggregate: 'mean',
        field: 'score',
        type: 'quantitative',
        title: 'mean score',
        scale: { domain: [0, 1] },
      },
      color: { field: 'kind', type: 'nominal', scale: kindScale(kinds), title: 'reward' },
    },
  } as unknown as TopLevelSpec;
  return {
    id: 'criteria',
    title: 'Mean score per criterion',
    spec: values.length ? spec : null,
    note: 'In rubric order; instance rubrics share keys across prompts.',
  };
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, i)]!;
}

function tokenHistogram(records: EvalRecord[], kinds: string[]): ChartSpec {
  const primary = kinds[0];
  const values = records.flatMap((r) => {
    const s = primary ? r.scores[primary] : undefined;
    return s ? [{ tokens: s.checks.output_tokens, outcome: OUTCOME_LABELS[outcomeOf(s)] }] : [];
  });
  const sorted = values.map((v) => v.tokens).sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  const marks = [
    { label: `mean ${Math.round(mean)}`, tokens: mean },
    { label: `p90 ${quantile(sorted, 0.9)}`, tokens: quantile(sorted, 0.9) },
  ];
  const spec = {
    width: 380,
    height: 160,
    layer: [
      {
        data: { values },
        mark: 'bar',
        encoding: {
          x: {
            field: 'tokens',
            type: 'quantitative',
            bin: { maxbins: 24 },
            title: 'output tokens',
          },
          y: { aggregate: 'count', type: 'quantitative', title: 'rollouts' },
          color: { field: 'outcome', type: 'nominal', scale: outcomeScale, title: null },
        },
      },
      {
        data: { values: marks },
        mark: { type: 'rule', strokeDash: [4, 3], color: '#343a40' },
        encoding: { x: { field: 'tokens', type: 'quantitative' } },
      },
      // One text layer per marker, at different heights, so close values stay legible.
      ...marks.map((m, i) => ({
        data: { values: [m] },
        mark: {
          type: 'text',
          align: 'left',
          dx: 3,
          dy: -4 - 13 * i,
          baseline: 'bottom',
          color: '#343a40',
        },
        encoding: {
          x: { field: 'tokens', type: 'quantitative' },
          y: { value: 0 },
          text: { field: 'label' },
        },
      })),
    ],
  } as unknown as TopLevelSpec;
  return {
    id: 'tokens',
    title: 'Output length',
    spec: values.length ? spec : null,
    note: 'Completion tokens per rollout; long tails are a reward-hacking signal.',
  };
}

/** Builds and renders every chart; charts render one at a time (vega is CPU-bound). */
export async function renderCharts(records: EvalRecord[], kinds: string[]): Promise<Chart[]> {
  const specs = [
    rewardHistogram(records, kinds),
    statusBars(records, kinds),
    axisBars(records, kinds),
    criterionBars(records, kinds),
    tokenHistogram(records, kinds),
  ];
  const out: Chart[] = [];
  for (const c of specs) {
    out.push({
      id: c.id,
      title: c.title,
      note: c.note,
      svg: c.spec ? await vegaLiteToSvg(c.spec) : null,
    });
  }
  return out;
}
