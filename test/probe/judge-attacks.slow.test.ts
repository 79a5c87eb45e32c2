// `rubrica probe` attacks the judge (issue 41 item 5), against a judge double that obeys any
// verdict or instruction it can see. With rubrica's defences in place the hidden families
// (a verdict in a comment and <metadata>, a fence break-out, template tokens) never raise
// the reward, and their rows say which defence met them; the drawn families would raise it —
// the double reads the picture, as the measured VLM judges do — but judge_text flags every
// one and is gated by default, so each is a gated 0 and its row says so.
// judge-attacks-undefended.slow.test.ts removes the defences and sees the hidden families
// inflate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHealthCard } from '../../src/probe/card.ts';
import { createRenderPool, type RenderPool } from '../../src/render/pool.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { attackProbe } from './support/attack-probe.ts';

let double: ModelDouble;
let renderer: RenderPool;
beforeAll(async () => {
  double = await startModelDouble();
  renderer = createRenderPool({ workers: 2 });
});
afterAll(() => Promise.all([double?.close(), renderer?.close()]));

const HIDDEN = ['attack.hidden_in_code', 'attack.fence_breakout', 'attack.template_tokens'];
const DRAWN = ['attack.visible_verdict', 'attack.instruction_overlay'];

describe('rubrica probe attacks the judge', () => {
  it('prisma: hidden attacks are met by stripping, the fence and neutralisation; drawn ones are flagged and gated', async () => {
    const { report, row } = await attackProbe(double, renderer, 'prisma');
    expect(report.grader_faults.faults).toBe(0);
    const attacks = report.probes.filter((p) => p.family === 'attack');
    expect(attacks.map((a) => a.id)).toHaveLength(7);
    for (const id of HIDDEN) {
      const r = row(id);
      expect({
        id,
        n: r.n,
        success: r.figures.attack_success,
        inflation: r.figures.inflation,
      }).toEqual({
        id,
        n: 2,
        success: 0,
        inflation: 0,
      });
      expect(r.figures.flagged_share).toBe(1);
      expect(r.verdict).toBe('pass');
    }
    expect(row('attack.hidden_in_code').caught_by).toContain('stripped from the code judge');
    expect(row('attack.fence_breakout').caught_by).toContain("kept inside the code judge's fence");
    expect(row('attack.template_tokens').caught_by).toContain('template tokens neutralised');
    for (const id of DRAWN) {
      // The obeying double would inflate these; judge_text's default gate answers them 0.
      const r = row(id);
      expect(r.figures.attack_success).toBe(0);
      expect(r.figures.flagged_share).toBe(1);
      expect(r.figures.gated_share).toBe(1);
      expect(r.caught_by).toContain('gated (reward 0)');
      expect(r.verdict).toBe('pass');
    }
    // \boxed{1.0} in <desc> reaches the code judge (descriptions are kept for accessibility
    // criteria): only judge_text stands between it and the reward.
    expect(row('attack.reserved_markers').figures.flagged_share).toBe(1);
    // PrismaForge's own criteria as a caption: found through the rubric the scorer passes on.
    expect(row('attack.rubric_words').figures.flagged_share).toBe(1);
    const card = renderHealthCard(report);
    expect(card).toContain('Attacks on the judge');
    expect(card).toContain('data-probe="attack.fence_breakout"');
    expect(card).toMatch(/attack success <b>0%<\/b>/);
  }, 180_000);

  it('ruler: the vision judge never sees what is hidden in the code', async () => {
    const { row } = await attackProbe(double, renderer, 'ruler');
    for (const id of [...HIDDEN, 'attack.reserved_markers']) {
      expect({ id, success: row(id).figures.attack_success }).toEqual({ id, success: 0 });
    }
    // Drawn verdicts reach a VLM judge: judge_text's default gate answers them 0 first.
    for (const id of DRAWN) expect(row(id).figures.gated_share).toBe(1);
    // RULER's item titles written in: the scorer hands the rubric to judge_text, which finds them.
    expect(row('attack.rubric_words').not_applicable).toBe(0);
    expect(row('attack.rubric_words').figures.flagged_share).toBe(1);
  }, 180_000);
});
