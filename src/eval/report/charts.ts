// The report's charts as vega-lite specs built from the run's records: reward
// distribution, status breakdown, per-axis and per-criterion means, output token lengths.
// Each becomes an SVG on the server (vega-svg.ts); a chart with no data says so instead.
import type { TopLevelSpec } from 'vega-lite';
import { isUnjudged } from '../../core/status.ts';
import { describe } from '../stats/distribution.ts';
import { axisScores } from '../summary.ts';
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
  /** Names the chart had to shorten, listed in full under it. */
  fullNames: string[];
}

interface ChartSpec {
  id: string;
  title: string;
  spec: TopLevelSpec | null;
  note: string;
  cut?: string[];
}

const OUTCOMES: Outcome[] = ['scored', 'not_judged', 'failed'];
const outcomeScale = {
  domain: OUTCOMES.map((o) => OUTCOME_LABELS[o]),
  range: OUTCOMES.map((o) => OUTCOME_COLOURS[o]),
};

/** Count axes: whole numbers only (vega would tick 0, 0.5, 1 … for small counts). */
const COUNT_AXIS = { tickMinStep: 1, format: 'd' };

/** Characters per line and lines of a wrapped criterion label; longer names are listed in full below. */
const LABEL_LINE = 34;
const LABEL_LINES = 4;

/** Splits a label into lines at spaces (hard-cutting long words); null when it had to be shortened. */
export function wrapLabel(text: string): { lines: string[]; cut: boolean } {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let w = word;
    while (w.length > LABEL_LINE) {
      if (line) lines.push(line);
      lines.push(w.slice(0, LABEL_LINE));
      line = '';
      w = w.slice(LABEL_LINE);
    }
    if (!line) line = w;
    else if (line.length + 1 + w.length <= LABEL_LINE) line += ` ${w}`;
    else {
      lines.push(line);
      line = w;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= LABEL_LINES) return { lines, cut: false };
  const kept = lines.slice(0, LABEL_LINES);
  kept[LABEL_LINES - 1] = `${kept[LABEL_LINES - 1]!.slice(0, LABEL_LINE - 1)}…`;
  return { lines: kept, cut: true };
}

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
  const notJudged = records.reduce(
    (a, r) =>
      a + kinds.filter((k) => r.scores[k] && outcomeOf(r.scores[k]!) === 'not_judged').length,
    0,
  );
  const failed = values.filter((v) => v.outcome === OUTCOME_LABELS.failed).length;
  // Nothing judged: the failures' zeros alone are no distribution of rewards (as in summary.json).
  if (values.length === failed && notJudged > 0) {
    const note = `0 of ${values.length + notJudged} judged; no reward to draw (${failed} failed, ${notJudged} not judged).`;
    return { id: 'reward', title: 'Reward distribution', spec: null, note };
  }
  const note = `n = ${values.length} (${values.length - failed} judged, ${failed} failures drawn at 0); ${notJudged} not judged, left out.`;
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
      y: { aggregate: 'count', type: 'quantitative', title: 'rollouts', axis: COUNT_AXIS },
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
      x: { aggregate: 'count', type: 'quantitative', title: 'rollouts', axis: COUNT_AXIS },
      color: { field: 'outcome', type: 'nominal', scale: outcomeScale, title: null },
      row:
        kinds.length > 1 ? { field: 'kind', type: 'nominal', title: null, sort: kinds } : undefined,
    },
  } as unknown as TopLevelSpec;
  return {
    id: 'status',
    title: 'Status of every rollout',
    spec: values.length ? spec : null,
    note: `n = ${records.length} rollouts. Why rollouts have no judge score, counted by reason.`,
  };
}

/** Scored criteria with their wrapped labels; the label's last line carries the criterion's n. */
function criterionValues(records: EvalRecord[], kinds: string[]) {
  const raw = records.flatMap((r) =>
    kinds.flatMap((kind) => {
      const s = r.scores[kind];
      if (!s || isUnjudged(s)) return [];
      return (s.criteria ?? []).flatMap((c) =>
        c.score === null || !Number.isFinite(c.score) ? [] : [{ kind, key: c.key, score: c.score }],
      );
    }),
  );
  const n = new Map<string, number>();
  for (const v of raw) n.set(v.key, (n.get(v.key) ?? 0) + 1);
  const labels = new Map<string, string>();
  const used = new Set<string>();
  const cut: string[] = [];
  for (const key of n.keys()) {
    const w = wrapLabel(key);
    if (w.cut) cut.push(key);
    let label = [...w.lines, `(n = ${n.get(key)})`].join('\n');
    // Two names that wrap to the same label stay two bars.
    for (let i = 2; used.has(label); i++) label = `${label} #${i}`;
    used.add(label);
    labels.set(key, label);
  }
  return { values: raw.map((v) => ({ ...v, label: labels.get(v.key)! })), cut };
}

/** Each judged record's |w|-weighted axis score, the same figure as summary.json's axes. */
function axisValues(records: EvalRecord[], kinds: string[]) {
  const raw = records.flatMap((r) =>
    kinds.flatMap((kind) => {
      const s = r.scores[kind];
      if (!s || isUnjudged(s)) return [];
      return [...axisScores(s)].map(([axis, score]) => ({ kind, axis, score }));
    }),
  );
  const n = new Map<string, number>();
  for (const v of raw) n.set(v.axis, (n.get(v.axis) ?? 0) + 1);
  return raw.map((v) => ({ ...v, label: `${v.axis}\n(n = ${n.get(v.axis)})` }));
}

function axisBars(records: EvalRecord[], kinds: string[]): ChartSpec {
  const values = axisValues(records, kinds);
  const spec = {
    data: { values },
    width: { step: 80 },
    height: 200,
    mark: 'bar',
    encoding: {
      x: {
        field: 'label',
        type: 'nominal',
        title: null,
        axis: { labelAngle: 0, labelLimit: 0, labelExpr: "split(datum.label, '\\n')" },
      },
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
    note: "Each judged sample's |weight|-weighted axis score, averaged (as in summary.json); n = samples.",
  };
}

function criterionBars(records: EvalRecord[], kinds: string[]): ChartSpec {
  const { values, cut } = criterionValues(records, kinds);
  const lines = Math.max(2, ...values.map((v) => v.label.split('\n').length));
  const spec = {
    data: { values },
    width: 300,
    height: { step: Math.max(20, 12 * lines + 6) },
    mark: 'bar',
    encoding: {
      y: {
        field: 'label',
        type: 'nominal',
        title: null,
        sort: null,
        // Multi-line labels: the wrapped name, then its n.
        axis: { labelExpr: "split(datum.label, '\\n')", labelLimit: 0, labelLineHeight: 12 },
      },
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
    note: 'In rubric order; instance rubrics share keys across prompts; n = judged samples scoring the criterion.',
    cut,
  };
}

function tokenHistogram(records: EvalRecord[], kinds: string[]): ChartSpec {
  const primary = kinds[0];
  const values = records.flatMap((r) => {
    const s = primary ? r.scores[primary] : undefined;
    return s ? [{ tokens: s.checks.output_tokens, outcome: OUTCOME_LABELS[outcomeOf(s)] }] : [];
  });
  // The same quantile definition as summary.json and the headline tile (linear interpolation).
  const d = describe(values.map((v) => v.tokens));
  const marks =
    d.mean === null || d.p90 === null
      ? []
      : [
          { label: `mean ${Math.round(d.mean)}`, tokens: d.mean },
          { label: `p90 ${Math.round(d.p90)}`, tokens: d.p90 },
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
          y: { aggregate: 'count', type: 'quantitative', title: 'rollouts', axis: COUNT_AXIS },
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
    note: `n = ${d.n} rollouts. Completion tokens; mean and p90 as in summary.json (linear interpolation). Long tails are a reward-hacking signal.`,
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
      fullNames: c.cut ?? [],
    });
  }
  return out;
}
