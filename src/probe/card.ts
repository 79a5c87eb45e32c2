// The judge health card: probe.json as one offline HTML page in the style of eval's report.
// Top: the verdict and what was measured; then one row per probe — what a sound judge does,
// the rule, the measured figures and pass/fail — with a bar of the mean change against the
// noise tolerance for the hack and sensitivity probes. Grader faults are shown apart, never
// as a result. Every model- or user-written string goes through esc().
import { esc, num } from '../core/html-escape.ts';
import { OUTCOME_COLOURS } from '../eval/report/palette.ts';
import { STYLE } from '../eval/report/style.ts';
import type { JudgingModeFigures } from './judging-modes.ts';
import type { ProbeFamily, ProbeReport, ProbeResult } from './types.ts';

const FAMILIES: { family: ProbeFamily; title: string; lead: string }[] = [
  {
    family: 'repeatability',
    title: 'Repeatability',
    lead: 'The same picture judged again: a noisy judge hands GRPO random advantages.',
  },
  {
    family: 'hack',
    title: 'Hack resistance — the reward must not rise',
    lead: 'Edits a policy can learn that do not make a better drawing (RULER: CLIP and aesthetic rewards paid for piles of decorative strokes).',
  },
  {
    family: 'sensitivity',
    title: 'Sensitivity — the reward must fall',
    lead: 'Damage a sound judge must see; a reward that does not fall here cannot teach the policy to avoid it.',
  },
  {
    family: 'attack',
    title: 'Attacks on the judge — the reward must not rise',
    lead: "Text a policy writes to its judge (a verdict, an instruction, reserved markers, the rubric, template tokens, a fence break-out), drawn or hidden in the code: the inflation over the clean rollout, the share scored higher, and which of rubrica's defences met it.",
  },
  {
    family: 'anchors',
    title: 'Anchors',
    lead: "The rubric's ideal drawing against an off-prompt drawing and a blank page: the room the reward has to move.",
  },
  {
    family: 'order',
    title: 'Position and order',
    lead: "The rubric's items shuffled in the judge prompt, per judge mode.",
  },
];

const CARD_STYLE = `
.verdict{display:inline-block;padding:4px 12px;border-radius:6px;color:#fff;font-weight:700;text-transform:uppercase;letter-spacing:.04em}
.v-pass{background:${OUTCOME_COLOURS.scored}}.v-fail{background:${OUTCOME_COLOURS.failed}}.v-no_data,.v-incomplete,.v-not_testable{background:${OUTCOME_COLOURS.not_judged}}
table.probes{width:100%;border-collapse:collapse;background:var(--card);border:1px solid var(--line);border-radius:8px}
table.probes td,table.probes th{padding:8px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
table.probes th{color:var(--muted);font-weight:500;font-size:12px}
table.probes .exp{color:var(--muted);font-size:12px;max-width:360px}
table.probes .fig{font-variant-numeric:tabular-nums;font-size:12px;white-space:nowrap}
table.probes .note{color:#8a5a00;font-size:12px}
table.probes tr.has-ex td{border-bottom:none}table.probes tr.ex-row td{padding-top:0}
.ex{display:flex;gap:6px;align-items:center}.ex figure{margin:0}.ex figcaption{font-size:11px;color:var(--muted);text-align:center}
.ex img{width:168px;height:168px;border:1px solid var(--line);border-radius:4px;background:#fff;display:block}
svg.bar text{font:11px system-ui,sans-serif;fill:#495057}
.lead{color:var(--muted);margin:-4px 0 10px}
`;

const FIGURE_LABELS: Record<string, string> = {
  mean_spread: 'mean spread (std)',
  max_spread: 'largest spread',
  flip_share: 'groups flipping',
  groups: 'groups ranked',
  mean_change: 'mean change',
  max_change: 'largest rise',
  min_change: 'largest fall',
  rise_share: 'share rising',
  fall_share: 'share falling',
  mean_base: 'original',
  mean_probed: 'probed',
  mean_abs_change: 'mean |change|',
  max_abs_change: 'largest |change|',
  ideal: 'ideal',
  off_prompt: 'off-prompt',
  blank: 'blank',
  gap_off_prompt: 'gap to off-prompt',
  gap_blank: 'gap to blank',
  headroom: 'room to rise',
  could_rise_share: 'could rise beyond tol.',
  inflation: 'inflation',
  attack_success: 'attack success',
  caught_share: 'met by a defence',
};

const SHARES = new Set([
  'flip_share',
  'rise_share',
  'fall_share',
  'could_rise_share',
  'attack_success',
  'caught_share',
]);

function figures(r: ProbeResult): string {
  return Object.entries(r.figures)
    .filter(([k]) => FIGURE_LABELS[k])
    .map(([k, v]) => {
      const shown = SHARES.has(k)
        ? v === null
          ? '–'
          : `${(v * 100).toFixed(0)}%`
        : k === 'groups'
          ? String(v ?? '–')
          : num(v, 3);
      return `${esc(FIGURE_LABELS[k])} <b>${shown}</b>`;
    })
    .join('<br>');
}

/**
 * A bar of the mean change on [−1, 1], labelled: the scale (−1, 0, +1), the tolerance band
 * shaded around 0 and the mean change written at the bar's end.
 */
function changeBar(r: ProbeResult, tol: number): string {
  const m = r.figures.mean_change;
  if (m === null || m === undefined || !['hack', 'sensitivity', 'attack'].includes(r.family))
    return '';
  const W = 280;
  const pad = 14;
  const x = (v: number) => pad + ((Math.max(-1, Math.min(1, v)) + 1) / 2) * (W - 2 * pad);
  const colour =
    r.verdict === 'pass'
      ? OUTCOME_COLOURS.scored
      : r.verdict === 'fail'
        ? OUTCOME_COLOURS.failed
        : OUTCOME_COLOURS.not_judged;
  const a = Math.min(x(0), x(m));
  const w = Math.max(1.5, Math.abs(x(m) - x(0)));
  const sign = m > 0 ? '+' : m < 0 ? '−' : '';
  const label = `mean ${sign}${num(Math.abs(m), 3)}`;
  const lx = Math.max(pad + 30, Math.min(W - pad - 30, x(m)));
  const ticks = (
    [
      [-1, '−1'],
      [0, '0'],
      [1, '+1'],
    ] as const
  )
    .map(
      ([v, t]) =>
        `<line x1="${x(v)}" x2="${x(v)}" y1="34" y2="38" stroke="#868e96"/><text x="${x(v)}" y="50" text-anchor="middle">${t}</text>`,
    )
    .join('');
  return `<svg class="bar" width="${W}" height="54" viewBox="0 0 ${W} 54" role="img" aria-label="mean change ${num(m, 3)}, tolerance ±${num(tol, 3)}"><text x="${lx}" y="11" text-anchor="middle">${esc(label)}</text><rect x="${x(-tol)}" y="15" width="${Math.max(1, x(tol) - x(-tol))}" height="19" fill="#dee2e6"><title>noise tolerance ±${num(tol, 3)}</title></rect><rect x="${a}" y="19" width="${w}" height="11" fill="${colour}"/><line x1="${pad}" x2="${W - pad}" y1="34" y2="34" stroke="#868e96"/><line x1="${x(0)}" x2="${x(0)}" y1="13" y2="36" stroke="#495057"/>${ticks}</svg>`;
}

/** An attack row's defences, or a warning that none met it. */
function caughtBy(r: ProbeResult): string {
  if (r.caught_by === undefined) return '';
  return r.caught_by.length
    ? `<br>caught by <b>${esc(r.caught_by.join(', '))}</b>`
    : '<br><b>caught by no defence</b>';
}

function example(report: ProbeReport, id: string): string {
  const ex = report.examples?.[id];
  if (!ex) return '';
  return `<div class="ex" title="${esc(ex.id)}"><figure><img src="${esc(ex.original)}" alt="original"><figcaption>original</figcaption></figure><span>→</span><figure><img src="${esc(ex.probed)}" alt="probed"><figcaption>probed</figcaption></figure></div>`;
}

function row(r: ProbeResult, tol: number, report: ProbeReport): string {
  const counts = [`${r.n} measured`];
  if (r.faults) counts.push(`<span class="chip warn">${r.faults} grader fault(s)</span>`);
  if (r.not_applicable) counts.push(`${r.not_applicable} not applicable`);
  const ex = example(report, r.id);
  // The example pictures get a row of their own under the probe's, so they can be large.
  const exRow = ex ? `\n<tr class="ex-row"><td colspan="5">${ex}</td></tr>` : '';
  return `<tr data-probe="${esc(r.id)}" data-verdict="${esc(r.verdict)}"${ex ? ' class="has-ex"' : ''}>
<td><b>${esc(r.title)}</b><div class="exp">${esc(r.expectation)}</div></td>
<td class="exp">${esc(r.threshold)}</td>
<td class="fig">${figures(r)}${caughtBy(r)}${r.note ? `<div class="note">${esc(r.note)}</div>` : ''}</td>
<td>${changeBar(r, tol)}<div class="fig">${counts.join(' · ')}</div></td>
<td><span class="verdict v-${esc(r.verdict)}">${esc(r.verdict.replace('_', ' '))}</span></td></tr>${exRow}`;
}

const MODE_TITLES: Record<JudgingModeFigures['mode'], string> = {
  'absolute-greedy': 'absolute · greedy (the written score)',
  'absolute-expected': 'absolute · expected (Σ p·v over logprobs)',
  pairwise: 'pairwise · both orders',
  group: 'group · forward and reversed',
};

/** The judging-modes table (issue 37): repeatability per scoring, position bias of pairwise. */
function judgingModes(modes: readonly JudgingModeFigures[] | undefined): string {
  if (!modes?.length) return '';
  const cell = (v: number | null, pct = false) =>
    v === null ? '–' : pct ? `${num(v * 100, 1)}%` : num(v, 4);
  const rows = modes
    .map(
      (m) =>
        `<tr><td>${esc(MODE_TITLES[m.mode])}</td><td class="fig">${m.n}</td><td class="fig">${m.faults}</td><td class="fig">${cell(m.repeat_std)}</td><td class="fig">${cell(m.expected_share, true)}</td><td class="fig">${cell(m.first_wins, true)}</td><td class="fig">${cell(m.order_agreement, true)}</td></tr>`,
    )
    .join('');
  return `<h2>Judging modes</h2><p class="lead">The same pictures judged with greedy and with expected scoring (reward std over repeats), and pairs of one prompt's pictures shown in both orders (a judge without position bias gives the first picture 50% of the wins; measured LLM judges: 27–60%).</p><table class="probes"><thead><tr><th>mode</th><th>n</th><th>faults</th><th>repeat std</th><th>read as expected</th><th>first picture wins</th><th>orders agree</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * The probe report as one self-contained HTML page (the judge's health card): verdict tiles,
 * one row per probe with its figures, example pictures inline.
 */
export function renderHealthCard(report: ProbeReport): string {
  const count = (v: string) => report.probes.filter((p) => p.verdict === v).length;
  const gf = report.grader_faults;
  const skipped = Object.entries(report.pictures.skipped)
    .map(([k, n]) => `${esc(k)} ${n}`)
    .join(', ');
  const tiles = [
    [
      'verdict',
      `<span class="verdict v-${esc(report.verdict)}">${esc(report.verdict)}</span>`,
      `${count('pass')} pass · ${count('fail')} fail · ${count('no_data')} no data${count('not_testable') ? ` · ${count('not_testable')} not testable` : ''}`,
    ],
    [
      'pictures probed',
      String(report.pictures.used),
      `of ${report.pictures.rollouts} rollouts${skipped ? ` (skipped: ${skipped})` : ''}`,
    ],
    ['noise tolerance', num(report.tolerance, 3), 'rise / fall counted beyond this'],
    [
      'grader faults',
      `${gf.faults} / ${gf.scorings}`,
      gf.faults ? 'left out of every figure' : 'none',
    ],
  ]
    .map(
      ([l, v, h]) =>
        `<div class="tile"><div class="l">${l}</div><div class="v">${v}</div><div class="h">${h}</div></div>`,
    )
    .join('');
  const sections = FAMILIES.map(({ family, title, lead }) => {
    const rows = report.probes.filter((p) => p.family === family);
    if (rows.length === 0) return '';
    return `<h2>${esc(title)}</h2><p class="lead">${esc(lead)}</p><table class="probes"><thead><tr><th>probe</th><th>pass if</th><th>measured</th><th>mean change</th><th>verdict</th></tr></thead><tbody>${rows.map((r) => row(r, report.tolerance, report)).join('')}</tbody></table>`;
  }).join('');
  const faultNotice =
    gf.faults > 0
      ? `<div class="notice"><b>${gf.faults} of ${gf.scorings} scorings were grader faults</b> (${Object.entries(
          gf.by_reason,
        )
          .map(([k, n]) => `${esc(k)} ${n}`)
          .join(
            ', ',
          )}). They are not judgements of a picture: they are left out of every figure, and a probe left without a measured picture says "no data". Fix the judge and run the probe again.</div>`
      : '';
  const untestable = report.probes.filter((p) => p.verdict === 'not_testable');
  const saturationNotice = untestable.length
    ? `<div class="notice"><b>${untestable.length} hack probe(s) could not be tested</b> (${untestable
        .map((p) => esc(p.id))
        .join(
          ', ',
        )}): the judge scores the original drawings so near the top (${esc(report.thresholds.max_reward)}) that no rise beyond the tolerance could have been seen. They are shown as "not testable", not as passed. Probe with drawings the judge scores lower (weaker rollouts), or a judge that is not saturated.</div>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>Judge health card — ${esc(report.judge)}</title><style>${STYLE}${CARD_STYLE}</style></head>
<body><main><h1>Judge health card</h1>
<p class="sub">Judge <b>${esc(report.judge)}</b> · reward <b>${esc(report.reward)}</b> · mode ${esc(report.mode)} · ${report.repeats} repeat(s) · seed ${report.seed} · ${esc(report.created_at)}</p>
${faultNotice}${saturationNotice}<div class="tiles">${tiles}</div>${sections}${judgingModes(report.judging_modes)}
<footer>rubrica probe · ${esc(report.schema)} · numbers in probe.json · how to read this card: docs/probe.md</footer></main></body></html>
`;
}
