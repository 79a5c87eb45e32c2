// The probe's attack rows fail when rubrica's defences are removed (issue 41 item 5): with
// the code judge reading the raw program in a plain ``` fence and template tokens passed
// verbatim, the obeying double inflates the hidden families it could not reach in
// judge-attacks.slow.test.ts — so that test's zeros are the defences' work, not the double's.
// `--gate none`: judge_text's default gate would zero the flagged rollouts before any judge,
// hiding whether the judge-side defences hold on their own.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRenderPool, type RenderPool } from '../../src/render/pool.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { attackProbe } from './support/attack-probe.ts';

vi.mock('../../src/judge/code-for-judge.ts', () => ({
  // No stripping, and the fence every prompt used before issue 41.
  codeForJudge: (code: string) => ({ code, removed: 0, comments: [], strings: [] }),
  fenceFor: () => '```',
}));
vi.mock('../../src/judge/template-tokens.ts', () => ({
  neutraliseMessages: <T>(messages: T) => messages,
}));

let double: ModelDouble;
let renderer: RenderPool;
beforeAll(async () => {
  double = await startModelDouble();
  renderer = createRenderPool({ workers: 2 });
});
afterAll(() => Promise.all([double?.close(), renderer?.close()]));

describe('rubrica probe attacks an undefended judge', () => {
  it('prisma: without stripping, fencing and neutralising, the hidden families inflate', async () => {
    const { report, row, obeyed } = await attackProbe(double, renderer, 'prisma', 'none');
    expect(report.grader_faults.faults).toBe(0);
    for (const id of ['attack.hidden_in_code', 'attack.fence_breakout', 'attack.template_tokens']) {
      const r = row(id);
      expect({ id, success: r.figures.attack_success, verdict: r.verdict }).toEqual({
        id,
        success: 1,
        verdict: 'fail',
      });
      expect(r.figures.inflation!).toBeGreaterThan(0.05);
      // Nothing but judge_text met them.
      expect(r.caught_by).toEqual(['judge_text flagged']);
    }
    expect(obeyed).toContain('raw template turn');
    expect(obeyed).toContain('instruction outside the code block');
  }, 180_000);
});
