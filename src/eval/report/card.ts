// One rollout as a card in the gallery: the picture (or why there is none), its reward
// under every reward kind, per-criterion scores, the judge's rationales on demand, the
// hack monitors and the completion text. Every model-written string goes through esc().
import type { ScoreRecord } from '../../core/record.ts';
import type { EvalRecord } from '../types.ts';
import { esc, num, token } from './escape.ts';
import { OUTCOME_LABELS, outcomeOf, statusLabel } from './outcome.ts';

/** Completions longer than this are cut in the report (the full text is in results.jsonl). */
const MAX_COMPLETION_CHARS = 8000;

function scoreBar(score: number | null): string {
  if (score === null) return '<span class="bar empty" title="not scored"></span>';
  const pct = Math.round(Math.max(0, Math.min(1, score)) * 100);
  return `<span class="bar"><span style="width:${pct}%"></span></span>`;
}

function criteriaTable(s: ScoreRecord): string {
  if (s.criteria.length === 0) return '';
  const rows = s.criteria
    .map(
      (c) =>
        `<tr><td class="k" title="${esc(c.axis)}">${esc(c.key)}</td><td class="w">×${esc(c.weight)}</td><td>${scoreBar(c.score)}</td><td class="v">${num(c.score, 2)}</td></tr>`,
    )
    .join('');
  return `<table class="crit">${rows}</table>`;
}

function rationales(kind: string, s: ScoreRecord): string {
  const items = s.criteria.filter((c) => c.rationale);
  if (items.length === 0) return '';
  const body = items
    .map(
      (c) =>
        `<li><b>${esc(c.key)}</b> <span class="v">${num(c.score, 2)}</span><p>${esc(c.rationale)}</p></li>`,
    )
    .join('');
  return `<details class="why"><summary>Judge rationales (${esc(kind)})</summary><ol>${body}</ol></details>`;
}

function rewardRow(kind: string, s: ScoreRecord): string {
  const outcome = outcomeOf(s);
  const value = outcome === 'not_judged' ? 'not judged' : num(s.reward, 3);
  const detail = s.status === 'ok' ? '' : ` title="${esc(s.message ?? statusLabel(s))}"`;
  return `<div class="reward o-${outcome}"${detail}><span class="kind">${esc(kind)}</span><span class="val">${value}</span></div>`;
}

function flags(s: ScoreRecord): string {
  const c = s.checks;
  const chips: string[] = [];
  if (c.text_in_image) chips.push('<span class="chip warn">text in image</span>');
  if (c.clutter) chips.push('<span class="chip warn">clutter</span>');
  if (c.blank) chips.push('<span class="chip warn">blank</span>');
  if (c.clipped) chips.push('<span class="chip">clipped</span>');
  if (c.dwt_valid) chips.push('<span class="chip ok">DwT</span>');
  else if (c.dwt_stages.length > 0)
    chips.push(`<span class="chip">DwT ${c.dwt_stages.length}/6</span>`);
  chips.push(`<span class="chip plain">${esc(c.output_tokens)} tok</span>`);
  return `<div class="chips">${chips.join('')}</div>`;
}

function picture(r: EvalRecord, primary: ScoreRecord, image: string | undefined): string {
  if (image) {
    return `<figure class="pic"><img src="${image}" alt="rendering of ${esc(r.id)}" width="256" height="256" loading="eager"></figure>`;
  }
  const why = primary.status === 'ok' ? 'no image' : statusLabel(primary);
  const detail = primary.message ? `<small>${esc(primary.message)}</small>` : '';
  return `<div class="pic missing"><span>${esc(why)}</span>${detail}</div>`;
}

export function renderCard(r: EvalRecord, kinds: string[], image: string | undefined): string {
  const present = kinds.filter((k) => r.scores[k]);
  const primaryKind = present[0];
  const primary = primaryKind ? r.scores[primaryKind] : undefined;
  if (!primary || !primaryKind) return '';
  const outcome = outcomeOf(primary);
  const reason = primary.status === 'ok' ? 'ok' : (primary.reason ?? 'unscoreable');
  const scoreAttrs = present
    .map((k) => {
      const s = r.scores[k]!;
      const v = outcomeOf(s) === 'not_judged' ? '' : String(s.reward);
      return ` data-score-${token(k)}="${v}"`;
    })
    .join('');
  const text = r.completion ?? '';
  const cut = text.length > MAX_COMPLETION_CHARS;
  const shown = cut
    ? `${text.slice(0, MAX_COMPLETION_CHARS)}\n… (${text.length - MAX_COMPLETION_CHARS} more characters in results.jsonl)`
    : text;
  return `<article class="card o-${outcome}" data-outcome="${outcome}" data-reason="${esc(token(reason))}"${scoreAttrs}>
${picture(r, primary, image)}
<header><code>${esc(r.id)}</code><span class="status" title="${esc(primary.message ?? '')}">${esc(outcome === 'scored' ? OUTCOME_LABELS.scored : statusLabel(primary))}</span></header>
<div class="rewards">${present.map((k) => rewardRow(k, r.scores[k]!)).join('')}</div>
${criteriaTable(primary)}
${present.map((k) => rationales(k, r.scores[k]!)).join('')}
${flags(primary)}
<details class="code"><summary>Completion</summary><pre>${esc(shown)}</pre></details>
</article>`;
}
