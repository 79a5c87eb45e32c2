// report.html: one self-contained page for an eval run — headline metrics, settings and
// usage, server-rendered charts, and a gallery per prompt with filters. No external URL
// of any kind: styles, script, charts (inline SVG) and pictures (data: URIs) are inline,
// and a Content-Security-Policy forbids the page from loading anything else.

import { esc, num, token } from '../../core/html-escape.ts';
import type { Usage } from '../../core/usage.ts';
import type { EvalRecord } from '../types.ts';
import { type Chart, renderCharts } from './charts.ts';
import {
  buildGallery,
  FILTER_FLAGS,
  flagsOf,
  NO_FLAG,
  packText,
  scriptJson,
} from './gallery-data.ts';
import { OUTCOME_LABELS, type Outcome, outcomeOf, REASON_LABELS } from './outcome.ts';
import { SCRIPT } from './script.ts';
import { STYLE } from './style.ts';

export interface HeadlineMetric {
  label: string;
  value: string;
  hint?: string;
}

export interface ReportInput {
  title: string;
  records: EvalRecord[];
  /** Prompt order and text; prompts without records are listed as empty sections. */
  prompts?: { id: string; prompt: string }[];
  /** Reward kinds to show, primary first (e.g. ["universal", "ruler"]). */
  kinds: string[];
  /** Picture per record id, as a data: URI (see thumbnails.ts); equal URIs are stored once. */
  images: Map<string, string>;
  headline: HeadlineMetric[];
  /** Run settings shown as a table (flags, judge, renderer, versions). */
  settings: Record<string, string | number | boolean | null>;
  usage: { role: string; model: string; usage: Usage }[];
  /** Plain-text warnings shown at the top (e.g. the judge could not be reached). */
  notices: string[];
  generatedAt: string;
}

const CSP =
  "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

function headline(metrics: HeadlineMetric[]): string {
  const tiles = metrics
    .map(
      (m) =>
        `<div class="tile"><div class="l">${esc(m.label)}</div><div class="v">${esc(m.value)}</div>${m.hint ? `<div class="h">${esc(m.hint)}</div>` : ''}</div>`,
    )
    .join('');
  return `<div class="tiles">${tiles}</div>`;
}

/** Names a chart shortened, in full, so no criterion is known only by its first words. */
function fullNames(names: string[]): string {
  if (names.length === 0) return '';
  return `<details class="names"><summary>Full names of ${names.length} shortened label${names.length === 1 ? '' : 's'}</summary><ul>${names.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></details>`;
}

function charts(list: Chart[]): string {
  const body = list
    .map(
      (c) =>
        `<div class="chart" id="chart-${esc(c.id)}"><h3>${esc(c.title)}</h3><p>${esc(c.note)}</p>${c.svg ?? '<p><em>No data to draw.</em></p>'}${fullNames(c.fullNames)}</div>`,
    )
    .join('');
  return `<div class="charts">${body}</div>`;
}

function settingsTable(settings: ReportInput['settings']): string {
  const rows = Object.entries(settings)
    .map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v === null ? '–' : v)}</td></tr>`)
    .join('');
  return `<table class="kv">${rows}</table>`;
}

function usageTable(usage: ReportInput['usage']): string {
  if (usage.length === 0) return '<p class="sub">No model calls were made.</p>';
  const head =
    '<tr><th>role</th><th>model</th><th>calls</th><th>input tokens</th><th>output tokens</th><th>cost (USD)</th><th>model time (s)</th></tr>';
  const rows = usage
    .map(
      ({ role, model, usage: u }) =>
        `<tr><td>${esc(role)}</td><td>${esc(model)}</td><td>${u.calls}</td><td>${u.inputTokens}</td><td>${u.outputTokens}</td><td>${u.costUsd === null ? 'unknown price' : num(u.costUsd, 4)}</td><td>${num(u.latencyMs / 1000, 1)}</td></tr>`,
    )
    .join('');
  return `<table class="kv">${head}${rows}</table>`;
}

function filters(records: EvalRecord[], kinds: string[]): string {
  const primary = kinds[0] ?? 'universal';
  const counts = new Map<Outcome, number>();
  const reasons = new Map<string, number>();
  const flagged = new Map<string, number>();
  for (const r of records) {
    const s = r.scores[primary];
    if (!s) continue;
    const o = outcomeOf(s);
    counts.set(o, (counts.get(o) ?? 0) + 1);
    const reason = s.status === 'ok' ? 'ok' : (s.reason ?? 'unscoreable');
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    const f = flagsOf(s).filter((x) => (FILTER_FLAGS as readonly string[]).includes(x));
    for (const x of f) flagged.set(x, (flagged.get(x) ?? 0) + 1);
    if (f.length === 0) flagged.set(NO_FLAG, (flagged.get(NO_FLAG) ?? 0) + 1);
  }
  const outcomes = (['scored', 'not_judged', 'failed'] as Outcome[])
    .map(
      (o) =>
        `<label><input type="checkbox" name="outcome" value="${o}" checked> ${esc(OUTCOME_LABELS[o])} (${counts.get(o) ?? 0})</label>`,
    )
    .join('');
  const reasonOptions = [...reasons]
    .map(([r, n]) => {
      const label = r === 'ok' ? 'scored' : (REASON_LABELS[r as keyof typeof REASON_LABELS] ?? r);
      return `<option value="${esc(token(r))}">${esc(label)} (${n})</option>`;
    })
    .join('');
  // Every check flag is offered, with its count (0 too: "no clutter here" is an answer).
  const flagOptions = [...FILTER_FLAGS, NO_FLAG]
    .map(
      (f) =>
        `<option value="${esc(f)}">${esc(f === NO_FLAG ? 'no flag' : f)} (${flagged.get(f) ?? 0})</option>`,
    )
    .join('');
  const kindSelect =
    kinds.length > 1
      ? `<label>reward <select name="kind">${kinds.map((k) => `<option value="${esc(k)}">${esc(k)}</option>`).join('')}</select></label>`
      : `<input type="hidden" name="kind" value="${esc(primary)}">`;
  const sorts = SORTS.map(([v, label]) => `<option value="${v}">${esc(label)}</option>`).join('');
  const sizes = PAGE_SIZES.map(
    (n) => `<option value="${n}"${n === DEFAULT_PAGE_SIZE ? ' selected' : ''}>${n}</option>`,
  ).join('');
  return `<form id="filters" class="filters" autocomplete="off">
<fieldset><legend>show</legend>${outcomes}</fieldset>
<fieldset><label>reason <select name="reason"><option value="">any</option>${reasonOptions}</select></label><label>flag <select name="flag"><option value="">any</option>${flagOptions}</select></label></fieldset>
<fieldset>${kindSelect}<label>score from <input type="number" name="min" min="0" max="1" step="0.05" value="0"></label><label>to <input type="number" name="max" min="0" max="1" step="0.05" value="1"></label></fieldset>
<fieldset><label>sort <select name="sort">${sorts}</select></label><label>per page <select name="size">${sizes}</select></label></fieldset>
<fieldset class="pager"><button type="button" name="prev">‹ prev</button><span id="page-info"></span><button type="button" name="next">next ›</button></fieldset>
<span id="visible"></span>
</form>`;
}

/** Sort orders of the gallery (values read by the script). Score sorts use the chosen reward. */
const SORTS: [string, string][] = [
  ['prompt', 'by prompt'],
  ['prompt-hard', 'by prompt, hardest first'],
  ['score-desc', 'score, high first'],
  ['score-asc', 'score, low first'],
  ['status', 'status (failed first)'],
  ['tokens-desc', 'output length, longest first'],
];
const PAGE_SIZES = [24, 60, 120, 240];
export const DEFAULT_PAGE_SIZE = 60;

function gallery(input: ReportInput): string {
  const { data, text } = buildGallery(input);
  return `<div id="gallery" aria-live="polite"><noscript>The gallery is drawn by the page's script; every rollout is in results.jsonl.</noscript></div>
<script type="application/json" id="rubrica-data">${scriptJson(data)}</script>
<script type="application/octet-stream" id="rubrica-text">${packText(text)}</script>`;
}

/** Builds the whole page. Charts are rendered here, server-side, from the records. */
export async function renderReport(input: ReportInput): Promise<string> {
  const chartList = await renderCharts(input.records, input.kinds);
  const notices = input.notices
    .map((n) => `<div class="notice" role="alert"><pre>${esc(n)}</pre></div>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(input.title)} — rubrica report</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${esc(input.title)}</h1>
<p class="sub">rubrica evaluation · ${input.records.length} rollouts · ${esc(input.generatedAt)}</p>
${notices}
${headline(input.headline)}
<h2>Charts</h2>
${charts(chartList)}
<h2>Run settings</h2>
${settingsTable(input.settings)}
<h2>Model usage</h2>
${usageTable(input.usage)}
<h2>Gallery</h2>
${filters(input.records, input.kinds)}
${gallery(input)}
<footer>Made by rubrica. Pictures are the run's renders as small WebP thumbnails; full-size PNGs are in images/, every number in results.jsonl and summary.json.</footer>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
