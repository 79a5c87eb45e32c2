// Report-test input built from real pictures: Fluent Emoji SVGs (MIT) rasterised with
// sharp, wrapped in eval records covering every outcome the report must draw — scored,
// rendered but not judged, failed — with hostile text in prompts and rationales.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ChecksSummary, ScoreRecord } from '../../src/core/record.ts';
import { statusOf } from '../../src/core/status.ts';
import { emptyUsage } from '../../src/core/usage.ts';
import type { EvalRecord } from '../../src/eval/types.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { fixtureComponents } from '../support/score-record.ts';

export const XSS_PROMPT =
  'a cat <img src=x onerror="window.__xss=1"> </script><script>window.__xss=2</script>';
export const XSS_RATIONALE = '"><svg onload="window.__xss=3"><b>bold?</b> & friends';

const AXES = ['semantic', 'semantic', 'visual', 'visual', 'style', 'style'];
const WEIGHTS = [5, 5, 5, 4, 5, 5];

function checks(renders: boolean, tokens: number): ChecksSummary {
  return {
    renders,
    blank: false,
    ink_coverage: renders ? 0.4 : null,
    clipped: renders ? false : null,
    text_in_image: false,
    clutter: false,
    output_tokens: tokens,
    svg_tokens: Math.round(tokens * 0.8),
    dwt_stages: [],
    dwt_valid: false,
    values: {},
  };
}

function scored(
  id: string,
  promptId: string,
  seed: number,
  kind: ScoreRecord['reward_kind'],
): ScoreRecord {
  const scores = WEIGHTS.map((_, k) => Math.round(((seed * 7 + k * 3) % 10) * 10) / 100);
  const reward = scores.reduce((a, s, k) => a + s * WEIGHTS[k]!, 0) / 29;
  return {
    id,
    prompt_id: promptId,
    reward,
    status: 'ok',
    reward_kind: kind,
    components: fixtureComponents(kind, reward),
    criteria: scores.map((score, k) => ({
      key: `item_${k + 1}`,
      axis: AXES[k]!,
      weight: WEIGHTS[k]!,
      score,
      rationale: k === 0 ? XSS_RATIONALE : `Criterion ${k + 1} judged from the picture.`,
      source: 'judge',
    })),
    checks: checks(true, 300 + seed * 40),
    cached: false,
    usage: emptyUsage(),
    render_ms: 12,
  };
}

function unscoreable(
  id: string,
  promptId: string,
  reason: ScoreRecord['reason'],
  renders: boolean,
): ScoreRecord {
  return {
    id,
    prompt_id: promptId,
    reward: 0,
    status: statusOf(reason!),
    reason,
    message: `because ${reason} <i>not html</i>`,
    reward_kind: 'universal',
    components: fixtureComponents('universal', 0, 'unscoreable'),
    criteria: [],
    checks: checks(renders, 4096),
    cached: false,
    usage: emptyUsage(),
    render_ms: renders ? 10 : null,
  };
}

export interface ReportFixture {
  dir: string;
  records: EvalRecord[];
  /** Ids of records that have a picture. */
  withImage: string[];
}

/** 4 prompts × 4 rollouts: 10 scored, 3 rendered-not-judged, 3 failed. */
export async function buildFixture(dir: string): Promise<ReportFixture> {
  await mkdir(join(dir, 'images'), { recursive: true });
  const icons = fluentEmoji(16);
  const records: EvalRecord[] = [];
  const withImage: string[] = [];
  for (let i = 0; i < icons.length; i++) {
    const p = Math.floor(i / 4);
    const promptId = `q${p}`;
    const id = `${promptId}#${i % 4}`;
    const prompt = p === 0 ? XSS_PROMPT : `an icon of ${icons[p * 4]!.name}`;
    let score: ScoreRecord;
    if (i % 4 === 3 && p < 3)
      score = unscoreable(id, promptId, p === 0 ? 'no_svg' : 'parse_error', false);
    else if (i % 5 === 4) score = unscoreable(id, promptId, 'judge_error', true);
    else score = scored(id, promptId, i, 'universal');
    // Check flags on a few judged rollouts, for the gallery's flag filter.
    if (score.status === 'ok' && i % 3 === 0) score.checks.clutter = true;
    if (score.status === 'ok' && (i === 1 || i === 6)) score.checks.text_in_image = true;
    const record: EvalRecord = {
      id,
      prompt_id: promptId,
      prompt,
      run: 'fixture',
      scores: {
        universal: score,
        // A second reward that disagrees with the first, for the reward-kind filter.
        ruler:
          score.status === 'ok'
            ? { ...scored(id, promptId, i + 5, 'ruler'), reward: 1 - score.reward }
            : { ...score, reward_kind: 'ruler' },
      },
      completion: `\`\`\`svg\n${icons[i]!.svg}\n\`\`\` <script>window.__xss=4</script>`,
    };
    if (score.checks.renders) {
      const png = await sharp(Buffer.from(icons[i]!.svg), { density: 1200 })
        .resize(512, 512, { fit: 'contain', background: '#ffffff' })
        .flatten({ background: '#ffffff' })
        .png()
        .toBuffer();
      record.image = `images/${encodeURIComponent(id)}.png`;
      await writeFile(join(dir, record.image), png);
      withImage.push(id);
    }
    records.push(record);
  }
  return { dir, records, withImage };
}
