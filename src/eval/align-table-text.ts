// The multi-judge alignment table as terminal text. The human line comes first (how many
// votes, how many ties, the ceiling), then one row per judge; every agreement is printed with
// the votes it stands on, and one resting on too few decided votes gets a warning line.
import type {
  AlignTable,
  CountMode,
  HumanSide,
  JudgeRow,
  PositionBias,
  RepeatAgreement,
  TiePolicy,
} from './align-table.ts';
import type { Interval } from './stats/bootstrap.ts';
import { fmt, fmtInterval, formatTable, pct } from './stats/text-table.ts';

export const TIE_POLICY_TEXT: Record<TiePolicy, string> = {
  exclude: "a judge's tie on a vote people decided is left out",
  half: "a judge's tie on a vote people decided earns half credit",
  loss: "a judge's tie on a vote people decided counts as a disagreement",
};

const ci = (i: Interval) => (i.low === null ? '—' : `[${fmt(i.low)}, ${fmt(i.high)}]`);
const pValue = (p: number | null) => (p === null ? '—' : p < 0.001 ? '<0.001' : p.toFixed(3));

export function positionText(p: PositionBias | null): string {
  if (!p || p.share_first === null) return '—';
  return `${pct(p.share_first)} (p ${pValue(p.p_value)})`;
}

export function repeatText(r: RepeatAgreement | null): string {
  if (!r) return 'none';
  return `${fmt(r.agreement)} (${r.agree}/${r.both_decided} couples decided both times; ${r.couples - r.both_decided} with a tie)`;
}

/** One warning line per judge whose agreement stands on too few votes. */
export function supportWarnings(t: AlignTable): string[] {
  return t.judges
    .filter((j) => j.pairwise?.low_support)
    .map((j) => {
      const p = j.pairwise!;
      return (
        `${j.name}: agreement rests on ${p.counted} of ${p.human_decided} votes people decided ` +
        `(${p.judge_ties} judge ties, ${p.human_ties} human ties): below ${t.min_decided} votes or half the decided ones, too few to read as agreement`
      );
    });
}

/** The pairwise table's columns, shared by the text and HTML tables. */
export const PAIRWISE_HEADER = [
  'judge',
  'from',
  'agreement',
  '95% CI',
  'counted/decided',
  'agree/disagree/tie',
  'both tie/human ties',
  'picks first (p vs 50%)',
];

/** One judge's pairwise cells, shared by the text and HTML tables. */
export function pairwiseRow(j: JudgeRow): string[] {
  const p = j.pairwise!;
  return [
    j.name,
    j.source,
    fmt(p.agreement.estimate),
    ci(p.agreement),
    `${p.counted}/${p.human_decided}`,
    `${p.agree}/${p.disagree}/${p.judge_ties}`,
    `${p.both_tie}/${p.human_ties}`,
    positionText(p.position),
    j.pairwise?.low_support ? 'LOW' : '',
  ];
}

export const COUNT_MODE_TEXT: Record<CountMode, string> = {
  pairs:
    "per pair: a choice judge's votes on a pair are merged into one verdict (majority; a split is a tie) and every human vote on the pair is compared with it",
  votes:
    "per vote: each human vote is compared with one vote of the judge (same vote id, else the judge's k-th vote on that pair)",
};

/** Which votes the human ceiling is made of, in one sentence. */
export function ceilingBasis(h: HumanSide): string {
  const self = h.self_agreement;
  const inter = h.inter_rater;
  const named = h.raters > 0;
  const parts = [
    self
      ? `self-agreement from ${self.couples} couples of votes on the same pair ${named ? 'by the same rater' : '(no rater named: any two votes on a pair)'}, ${self.votes} votes`
      : `no pair was voted on twice ${named ? 'by one rater' : ''}`.trim(),
  ];
  if (inter)
    parts.push(
      `inter-rater from ${inter.couples} couples by different raters, ${inter.votes} votes`,
    );
  return `human ceiling uses every vote on a pair voted more than once, repeats (studio "repeat": true) included: ${parts.join('; ')}; agreement over couples decided both times`;
}

/** The position share of all choice judges' own votes pooled, or null without any. */
export function pooledPositionLine(t: AlignTable): string | null {
  const p = t.pooled_position;
  const judges = t.judges.filter((j) => j.pairwise?.position).length;
  if (!p || judges === 0) return null;
  return `all choice judges pooled (${judges}, ${p.votes} votes): first shown picked ${positionText(p)}`;
}

export function formatAlignTable(t: AlignTable): string {
  const out: string[] = [];
  const b = t.bootstrap;
  const h = t.human;
  out.push(
    `${Math.round(b.level * 100)}% percentile bootstrap (votes and γ resample groups, ρ/r/τ items), ` +
      `${b.resamples} resamples, seed ${b.seed}; ` +
      `ties: ${t.ties} (${TIE_POLICY_TEXT[t.ties]})`,
  );
  if (h.votes > 0) out.push(`counting: ${t.count} (${COUNT_MODE_TEXT[t.count]})`);
  if (h.votes > 0) {
    out.push(
      '',
      `human votes: ${h.votes} (${h.decided} decided, ${h.ties} ties)` +
        (h.raters > 0 ? ` from ${h.raters} raters` : '') +
        `; first shown picked ${positionText(h.position)}`,
      `human ceiling — self-agreement on repeated pairs: ${repeatText(h.self_agreement)}`,
      `  (${ceilingBasis(h)})`,
    );
    if (h.inter_rater)
      out.push(`inter-rater agreement on shared pairs: ${repeatText(h.inter_rater)}`);
    const rows = t.judges.filter((j) => j.pairwise).map(pairwiseRow);
    if (rows.length > 0) {
      out.push(
        '',
        formatTable([...PAIRWISE_HEADER, 'support'], rows, [
          'left',
          'left',
          'right',
          'right',
          'right',
          'right',
          'right',
          'right',
          'left',
        ]),
      );
    }
    const pooled = pooledPositionLine(t);
    if (pooled) out.push(pooled);
    for (const w of supportWarnings(t)) out.push(`warning: ${w}`);
    for (const w of t.pairing.warnings) out.push(`warning: ${w}`);
  }
  const abs = t.judges.filter((j) => j.absolute);
  if (abs.length > 0) {
    out.push(
      '',
      `absolute ratings: ${h.ratings}` +
        (h.ratings_alpha !== null
          ? `; raters' Krippendorff α (interval) ${fmt(h.ratings_alpha)}`
          : ''),
      formatTable(
        ['judge', 'items', 'Spearman ρ', 'Pearson r', 'Kendall τ-b', 'γ within groups'],
        abs.map((j) => {
          const a = j.absolute!;
          return [
            j.name,
            String(a.items),
            fmtInterval(a.spearman),
            fmtInterval(a.pearson),
            fmtInterval(a.kendall_tau_b),
            fmtInterval(a.gamma),
          ];
        }),
      ),
    );
    for (const j of abs) {
      const g = j.absolute!.gamma_pairs;
      out.push(
        `${j.name}: γ from ${g.concordant} concordant, ${g.discordant} discordant pairs (${g.tied} tied, left out) ` +
          `in ${g.groups_with_pairs} groups; mean of per-group γ ${fmtInterval(j.absolute!.gamma_mean_per_group)}`,
      );
    }
  }
  if (t.judge_vs_judge.length > 0) {
    out.push(
      '',
      'judge vs judge (pairs people voted on):',
      formatTable(
        ['judge', 'judge', 'pairs', 'both decided', 'agreement', 'exact incl. ties'],
        t.judge_vs_judge.map((p) => [
          p.a,
          p.b,
          String(p.pairs),
          String(p.both_decided),
          fmt(p.agreement),
          fmt(p.exact),
        ]),
        ['left', 'left', 'right', 'right', 'right', 'right'],
      ),
    );
  }
  const unmatched = t.judges.filter((j) => j.unmatched > 0 && j.source !== 'majority');
  for (const j of unmatched)
    out.push(`${j.name}: ${j.unmatched} human judgements have no verdict from this judge`);
  if (h.votes === 0 && abs.length === 0) out.push('', 'no human judgements found');
  if (t.issues.length > 0) {
    out.push('', `skipped lines: ${t.issues.length}`);
    for (const i of t.issues.slice(0, 10)) out.push(`  ${i.file}:${i.line} ${i.code} ${i.message}`);
    if (t.issues.length > 10) out.push('  …');
  }
  return out.join('\n');
}
