// From scorings to verdicts: the figures and pass/fail rule of every probe family, as pure
// functions of the rewards the probe collected. A grader fault (status grader_error) is never
// a measurement: it is counted in `faults` and left out of every figure, so a judge that is
// down makes a probe `no_data`, never `pass` or `fail`.
import { isGraderFaultRecord } from '../core/status.ts';
import { sampleStd } from '../reward/grpo.ts';
import type { ProbePair, ProbeResult, ProbeThresholds } from './types.ts';

/** One scoring of one picture, as the probe keeps it. */
export interface Scoring {
  reward: number;
  status: 'ok' | 'unscoreable' | 'grader_error' | 'gated';
  reason?: string | undefined;
}

export interface ProbeSpec {
  id: string;
  family: ProbeResult['family'];
  title: string;
  expectation: string;
}

const isFault = (s: Scoring) => isGraderFaultRecord(s);
const mean = (xs: readonly number[]) =>
  xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
const share = (k: number, n: number) => (n > 0 ? k / n : null);
const r3 = (x: number) => Math.round(x * 1000) / 1000;

function result(
  spec: ProbeSpec,
  threshold: string,
  fields: Omit<ProbeResult, 'id' | 'family' | 'title' | 'expectation' | 'threshold'>,
): ProbeResult {
  return { ...spec, threshold, ...fields };
}

function noData(n: number, faults: number, notApplicable: number): string {
  if (faults > 0) return `no picture measured: ${faults} grader fault(s) (not a judgement)`;
  if (notApplicable > 0) return 'the perturbation applies to none of the pictures';
  return n === 0 ? 'no picture to probe' : '';
}

export interface RepeatInput {
  id: string;
  prompt_id: string;
  repeats: Scoring[];
}

/** Whether any two pictures of a group swap order between any two repeats. */
function groupFlips(members: number[][]): boolean {
  const reps = Math.min(...members.map((m) => m.length));
  for (let i = 0; i < members.length; i++) {
    for (let j = i + 1; j < members.length; j++) {
      const signs = new Set<number>();
      for (let r = 0; r < reps; r++) {
        const d = members[i]![r]! - members[j]![r]!;
        if (Math.abs(d) > 1e-9) signs.add(Math.sign(d));
      }
      if (signs.size > 1) return true;
    }
  }
  return false;
}

/**
 * The same picture judged `repeats` times: the mean per-picture spread (sample std) and the
 * share of GRPO groups (pictures of one prompt) whose ranking flips between repeats.
 * Returns the result and the noise level (mean spread) the other probes' tolerance uses.
 */
export function repeatabilityResult(
  spec: ProbeSpec,
  pictures: readonly RepeatInput[],
  th: ProbeThresholds,
): { result: ProbeResult; noise: number } {
  const threshold = `mean spread ≤ ${th.max_repeat_std} and ranking flips in ≤ ${th.max_flip_share * 100}% of groups`;
  let faults = 0;
  const measured: { id: string; prompt_id: string; values: number[] }[] = [];
  for (const p of pictures) {
    const ok = p.repeats.filter((s) => !isFault(s));
    faults += p.repeats.length - ok.length;
    if (ok.length >= 2)
      measured.push({ id: p.id, prompt_id: p.prompt_id, values: ok.map((s) => s.reward) });
  }
  const spreads = measured.map((m) => sampleStd(m.values));
  const noise = mean(spreads) ?? 0;
  const groups = new Map<string, number[][]>();
  for (const m of measured) {
    const g = groups.get(m.prompt_id) ?? [];
    g.push(m.values);
    groups.set(m.prompt_id, g);
  }
  const ranked = [...groups.values()].filter((g) => g.length >= 2);
  const flips = ranked.filter(groupFlips).length;
  const flipShare = share(flips, ranked.length);
  const pairs: ProbePair[] = measured.map((m, i) => {
    const base = mean(m.values)!;
    const max = Math.max(...m.values);
    const min = Math.min(...m.values);
    return {
      id: m.id,
      prompt_id: m.prompt_id,
      base: r3(base),
      value: r3(spreads[i]!),
      delta: r3(max - min),
    };
  });
  const n = measured.length;
  const verdict =
    n === 0
      ? 'no_data'
      : noise <= th.max_repeat_std && (flipShare ?? 0) <= th.max_flip_share
        ? 'pass'
        : 'fail';
  const note =
    n === 0
      ? faults > 0
        ? noData(0, faults, 0)
        : 'needs --repeats ≥ 2'
      : ranked.length === 0
        ? 'no prompt has two measured pictures: ranking flips not measured'
        : undefined;
  const max_spread = spreads.length ? Math.max(...spreads) : null;
  return {
    noise,
    result: result(spec, threshold, {
      verdict,
      ...(note ? { note } : {}),
      n,
      faults,
      not_applicable: 0,
      figures: {
        mean_spread: n ? noise : null,
        max_spread,
        groups: ranked.length,
        flipped_groups: flips,
        flip_share: flipShare,
      },
      pairs,
    }),
  };
}

export interface PairInput {
  id: string;
  prompt_id: string;
  /** The original's reward (mean of its measured repeats); null when every repeat faulted. */
  base: number | null;
  /** The probed picture's scoring; null when the perturbation does not apply. */
  probed: Scoring | null;
}

function collectPairs(inputs: readonly PairInput[]) {
  let faults = 0;
  let notApplicable = 0;
  const pairs: ProbePair[] = [];
  for (const p of inputs) {
    if (p.probed === null) notApplicable++;
    else if (p.base === null || isFault(p.probed)) faults++;
    else {
      const pair: ProbePair = {
        id: p.id,
        prompt_id: p.prompt_id,
        base: r3(p.base),
        value: r3(p.probed.reward),
        delta: r3(p.probed.reward - p.base),
      };
      if (p.probed.status === 'unscoreable' && p.probed.reason) pair.reason = p.probed.reason;
      pairs.push(pair);
    }
  }
  return { faults, notApplicable, pairs };
}

/**
 * A change in one direction, judged against the tolerance: hack probes count rises (the
 * reward must not go up), sensitivity probes count falls (it must go down clearly).
 */
function directionResult(
  spec: ProbeSpec,
  inputs: readonly PairInput[],
  tol: number,
  th: ProbeThresholds,
  dir: 'rise' | 'fall',
): ProbeResult {
  const { faults, notApplicable, pairs } = collectPairs(inputs);
  const deltas = pairs.map((p) => p.delta);
  const m = mean(deltas);
  const moved = deltas.filter((d) => (dir === 'rise' ? d > tol : d < -tol)).length;
  const movedShare = share(moved, deltas.length);
  const n = pairs.length;
  const ok =
    dir === 'rise'
      ? m! <= tol && movedShare! <= th.max_rise_share
      : m! <= -th.min_drop && movedShare! >= th.min_fall_share;
  const threshold =
    dir === 'rise'
      ? `mean change ≤ +${r3(tol)} and reward rises (> +${r3(tol)}) for ≤ ${th.max_rise_share * 100}% of pictures`
      : `mean change ≤ −${th.min_drop} and reward falls (< −${r3(tol)}) for ≥ ${th.min_fall_share * 100}% of pictures`;
  const rules = pairs.filter((p) => p.reason).length;
  const room = dir === 'rise' && n > 0 ? headroom(pairs, tol, th) : null;
  const notes = [
    n === 0 ? noData(n, faults, notApplicable) : '',
    rules > 0
      ? `${rules} of ${n} probed pictures were zeroed by a rule (e.g. the blank gate), not by the judge`
      : '',
    room?.note ?? '',
  ].filter(Boolean);
  const note = notes.length ? notes.join('; ') : undefined;
  const extreme = dir === 'rise' ? Math.max : Math.min;
  const verdict =
    n === 0 ? 'no_data' : !ok ? 'fail' : room && !room.testable ? 'not_testable' : 'pass';
  return result(spec, threshold, {
    verdict,
    ...(note ? { note } : {}),
    n,
    faults,
    not_applicable: notApplicable,
    figures: {
      mean_change: m,
      [dir === 'rise' ? 'max_change' : 'min_change']: n ? extreme(...deltas) : null,
      [dir === 'rise' ? 'rose' : 'fell']: n ? moved : null,
      [`${dir}_share`]: movedShare,
      mean_base: mean(pairs.map((p) => p.base)),
      mean_probed: mean(pairs.map((p) => p.value)),
      ...(room ? { headroom: room.mean, could_rise_share: room.share } : {}),
    },
    pairs,
  });
}

/**
 * Whether a hack probe could have failed on these pictures. It fails on a mean rise beyond
 * the tolerance or on more than max_rise_share of pictures rising beyond it; under a reward
 * ceiling neither is possible when the originals' mean headroom (ceiling − reward) is within
 * the tolerance and too few pictures have more than the tolerance left. Then a pass is no
 * evidence (a judge saturated at 0.993 passes every hack probe whatever it pays for).
 */
function headroom(pairs: readonly ProbePair[], tol: number, th: ProbeThresholds) {
  const rooms = pairs.map((p) => th.max_reward - p.base);
  const m = mean(rooms)!;
  const can = rooms.filter((r) => r > tol).length;
  const sh = can / pairs.length;
  const testable = m > tol || sh > th.max_rise_share;
  const n = pairs.length;
  let note: string | undefined;
  if (!testable)
    note = `not testable: the originals score ${r3(th.max_reward - m)} on average, leaving ${r3(m)} of room under the ceiling ${th.max_reward} (the rule needs a rise > ${r3(tol)}), and only ${can} of ${n} could rise beyond the tolerance (the rule needs > ${th.max_rise_share * 100}%): no rise could have been detected`;
  else if (can < n)
    note = `${n - can} of ${n} originals score within ${r3(tol)} of the ceiling ${th.max_reward}: they cannot show a rise`;
  return { testable, mean: m, share: sh, note };
}

/** Hack resistance: the probed picture's reward must not rise above the original's. */
export const hackResult = (
  spec: ProbeSpec,
  inputs: readonly PairInput[],
  tol: number,
  th: ProbeThresholds,
): ProbeResult => directionResult(spec, inputs, tol, th, 'rise');

/** Sensitivity: the probed picture's reward must fall clearly below the original's. */
export const sensitivityResult = (
  spec: ProbeSpec,
  inputs: readonly PairInput[],
  tol: number,
  th: ProbeThresholds,
): ProbeResult => directionResult(spec, inputs, tol, th, 'fall');

/** Order: shuffling the rubric's items must not move the reward beyond the judge's noise. */
export function orderResult(
  spec: ProbeSpec,
  inputs: readonly { id: string; prompt_id: string; original: Scoring; shuffled: Scoring }[],
  tol: number,
  th: ProbeThresholds,
): ProbeResult {
  const limit = Math.max(th.max_order_change, tol);
  const wrapped: PairInput[] = inputs.map((p) => ({
    id: p.id,
    prompt_id: p.prompt_id,
    base: isFault(p.original) ? null : p.original.reward,
    probed: p.shuffled,
  }));
  const { faults, notApplicable, pairs } = collectPairs(wrapped);
  const abs = pairs.map((p) => Math.abs(p.delta));
  const m = mean(abs);
  const n = pairs.length;
  return result(spec, `mean |change| ≤ ${r3(limit)}`, {
    verdict: n === 0 ? 'no_data' : m! <= limit ? 'pass' : 'fail',
    ...(n === 0 ? { note: noData(n, faults, notApplicable) } : {}),
    n,
    faults,
    not_applicable: notApplicable,
    figures: {
      mean_abs_change: m,
      max_abs_change: n ? Math.max(...abs) : null,
      mean_change: mean(pairs.map((p) => p.delta)),
    },
    pairs,
  });
}

export interface AnchorInput {
  prompt_id: string;
  ideal: Scoring;
  blank: Scoring;
  offPrompt: Scoring | null;
}

/** Anchors: the rubric's ideal drawing vs a blank page vs another prompt's ideal. */
export function anchorsResult(
  spec: ProbeSpec,
  inputs: readonly AnchorInput[],
  th: ProbeThresholds,
): ProbeResult {
  let faults = 0;
  const rows = inputs.filter((a) => {
    const bad = [a.ideal, a.blank, a.offPrompt].some((s) => s !== null && isFault(s));
    if (bad) faults++;
    return !bad;
  });
  const ideal = mean(rows.map((a) => a.ideal.reward));
  const blank = mean(rows.map((a) => a.blank.reward));
  const offRows = rows.filter((a) => a.offPrompt !== null);
  const off = mean(offRows.map((a) => a.offPrompt!.reward));
  const idealWithOff = mean(offRows.map((a) => a.ideal.reward));
  const gapOff = off === null || idealWithOff === null ? null : idealWithOff - off;
  const gapBlank = ideal === null || blank === null ? null : ideal - blank;
  const n = rows.length;
  const ok =
    n > 0 &&
    ideal! >= th.min_ideal &&
    gapBlank! >= th.min_gap_blank &&
    (gapOff === null || gapOff >= th.min_gap_off_prompt);
  const pairs: ProbePair[] = rows.map((a) => ({
    id: a.prompt_id,
    prompt_id: a.prompt_id,
    base: r3(a.ideal.reward),
    value: r3(a.offPrompt?.reward ?? a.blank.reward),
    delta: r3((a.offPrompt?.reward ?? a.blank.reward) - a.ideal.reward),
  }));
  let note: string | undefined;
  if (n === 0)
    note =
      faults > 0
        ? noData(0, faults, 0)
        : 'needs kept rubrics with an ideal SVG (--rubrics from `rubrica rubric synth`)';
  else if (offRows.length === 0)
    note = 'only one prompt has an ideal drawing: no off-prompt anchor';
  return result(
    spec,
    `ideal ≥ ${th.min_ideal}, ideal − off-prompt ≥ ${th.min_gap_off_prompt}, ideal − blank ≥ ${th.min_gap_blank}`,
    {
      verdict: n === 0 ? 'no_data' : ok ? 'pass' : 'fail',
      ...(note ? { note } : {}),
      n,
      faults,
      not_applicable: 0,
      figures: {
        ideal,
        off_prompt: off,
        blank,
        gap_off_prompt: gapOff,
        gap_blank: gapBlank,
      },
      pairs,
    },
  );
}
