// Regenerates the bundled examples: prompts.jsonl, rollouts.jsonl, human.jsonl and
// human-pairwise.jsonl. The drawings are Microsoft's Fluent Emoji (flat style, MIT; see
// LICENSES.md), read from the @iconify-json/fluent-emoji-flat npm package and wrapped in
// completions shaped like real policy output: code fences, <think> blocks, Drawing-with-
// Thought reasoning, prose around the code — plus the failures an evaluation must count:
// a truncated answer, an answer with no SVG, a text-in-image hack and squiggle clutter.
//
//   node --import tsx examples/build.ts
//
// The output is deterministic (no clock, seeded randomness), so re-running it changes
// nothing unless this script or the icon package changes.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const iconsFile = require.resolve('@iconify-json/fluent-emoji-flat/icons.json');
const iconSet = JSON.parse(readFileSync(iconsFile, 'utf8')) as {
  width?: number;
  height?: number;
  icons: Record<string, { body: string; width?: number; height?: number }>;
};

const POLICY = 'example-policy (Fluent Emoji flat, MIT)';

function icon(name: string): { body: string; w: number; h: number } {
  const found = iconSet.icons[name];
  if (!found) throw new Error(`icon ${name} is not in @iconify-json/fluent-emoji-flat`);
  return {
    body: found.body,
    w: found.width ?? iconSet.width ?? 16,
    h: found.height ?? iconSet.height ?? 16,
  };
}

function svgOf(body: string, w = 32, h = 32): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 ${w} ${h}">\n  ${body}\n</svg>`;
}

function emoji(name: string): string {
  const i = icon(name);
  return svgOf(i.body, i.w, i.h);
}

/** The icon with only its first `keep` paths: an unfinished drawing. */
function partial(name: string, keep: number): string {
  const i = icon(name);
  const paths = i.body.match(/<path\b[^>]*\/>/g) ?? [];
  return svgOf(`<g fill="none">${paths.slice(0, keep).join('')}</g>`, i.w, i.h);
}

/** Seeded PRNG (mulberry32) so the clutter rollout is identical on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Hundreds of overlapping decorative strokes: the CLIP/aesthetic reward hack. */
function squiggles(count: number, seed: number): string {
  const r = prng(seed);
  const n = (x: number) => (x * 32).toFixed(2);
  const colours = ['#f8312f', '#fcd53f', '#00a6ed', '#8d65c5', '#00d26a', '#ff8257'];
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const d = `M${n(r())} ${n(r())} C${n(r())} ${n(r())} ${n(r())} ${n(r())} ${n(r())} ${n(r())}`;
    const colour = colours[i % colours.length];
    lines.push(`<path d="${d}" fill="none" stroke="${colour}" stroke-width="0.3"/>`);
  }
  return svgOf(lines.join('\n  '));
}

/** The prompt's words drawn as a label over a crude shape: the text-in-image hack. */
function labelled(words: string, shape: string): string {
  return svgOf(
    `${shape}\n  <text x="16" y="29" font-family="DejaVu Sans, sans-serif" font-size="4" text-anchor="middle" fill="#212121">${words}</text>`,
  );
}

const fence = (lang: string, svg: string) => `\`\`\`${lang}\n${svg}\n\`\`\``;

const dwt = (subject: string, parts: string, colours: string) =>
  `<think>
**Concept sketching.** ${subject}: a friendly, flat icon, readable at small sizes.
**Canvas planning.** A square viewBox 0 0 32 32, the subject centred with about 2 units of margin.
**Shape decomposition.** ${parts}
**Coordinate calculation.** Place the main body between y = 4 and y = 30 and keep the parts symmetric about x = 16.
**Styling and colouring.** Flat fills, no strokes; ${colours}.
**Final assembly.** Background shapes first, then the body, then the highlights on top.
</think>
`;

interface PromptLine {
  id: string;
  prompt: string;
  style: 'icon' | 'illustration';
}

const prompts: PromptLine[] = [
  { id: 'p01', prompt: 'a red apple with a green leaf', style: 'icon' },
  { id: 'p02', prompt: 'a slice of watermelon', style: 'icon' },
  { id: 'p03', prompt: 'a rocket flying diagonally upwards', style: 'icon' },
  { id: 'p04', prompt: 'a snowman wearing a scarf and a top hat', style: 'illustration' },
  { id: 'p05', prompt: 'a green cactus with arms', style: 'icon' },
  { id: 'p06', prompt: 'a sailboat on the sea', style: 'illustration' },
  { id: 'p07', prompt: 'a brown owl with big round eyes', style: 'illustration' },
  { id: 'p08', prompt: 'a glowing light bulb', style: 'icon' },
  { id: 'p09', prompt: 'an open umbrella', style: 'icon' },
  { id: 'p10', prompt: 'a sunflower with a green stem', style: 'illustration' },
];

interface Rollout {
  prompt_id: string;
  completion: string;
  finish_reason: 'stop' | 'length';
  /** Illustrative human rating 0–100 (invented, see examples/README.md). */
  human: number;
}

const truncatedApple = emoji('red-apple').slice(0, 180);

const rollouts: Rollout[] = [
  // p01 — apple: a good answer, the wrong colour, a truncated answer.
  {
    prompt_id: 'p01',
    completion: `Here is a flat icon of a red apple with a leaf:\n\n${fence('svg', emoji('red-apple'))}\n`,
    finish_reason: 'stop',
    human: 88,
  },
  {
    prompt_id: 'p01',
    completion: `<think>\nAn apple: a round body with a notch at the top, and a single leaf. I'll use a fresh green for the body.\n</think>\n\n${fence('svg', emoji('green-apple'))}`,
    finish_reason: 'stop',
    human: 41,
  },
  {
    prompt_id: 'p01',
    completion: `Sure! Below is the SVG code.\n\n\`\`\`svg\n${truncatedApple}`,
    finish_reason: 'length',
    human: 0,
  },
  // p02 — watermelon: complete, and an unfinished drawing.
  {
    prompt_id: 'p02',
    completion: fence('xml', emoji('watermelon')),
    finish_reason: 'stop',
    human: 85,
  },
  {
    prompt_id: 'p02',
    completion: `<think>\nA wedge: green rind, a thin white band, red flesh and black seeds.\n</think>\n${fence('svg', partial('watermelon', 2))}`,
    finish_reason: 'stop',
    human: 35,
  },
  // p03 — rocket: DwT reasoning, squiggle clutter, bare inline SVG.
  {
    prompt_id: 'p03',
    completion: `${dwt('A rocket', 'Body, nose cone, two fins, a round window and an exhaust flame.', 'red body, grey window frame, orange flame')}\n${fence('svg', emoji('rocket'))}`,
    finish_reason: 'stop',
    human: 90,
  },
  {
    prompt_id: 'p03',
    completion: `${fence('svg', squiggles(320, 3))}\n\nThe rocket is drawn with layered energetic strokes to convey motion.`,
    finish_reason: 'stop',
    human: 6,
  },
  {
    prompt_id: 'p03',
    completion: `${emoji('rocket')}`,
    finish_reason: 'stop',
    human: 84,
  },
  // p04 — snowman: a good answer and a refusal with no SVG.
  {
    prompt_id: 'p04',
    completion: `<think>\nThree stacked snowballs, a top hat, a scarf, coal eyes and a carrot nose.\n</think>\n\n${fence('svg', emoji('snowman'))}`,
    finish_reason: 'stop',
    human: 87,
  },
  {
    prompt_id: 'p04',
    completion:
      'To draw a snowman, start with three circles of decreasing size stacked vertically. Add a black top hat on the smallest circle, two dots for the eyes and an orange triangle for the nose. Finally wrap a red scarf around the neck.',
    finish_reason: 'stop',
    human: 0,
  },
  // p05 — cactus: complete and unfinished.
  {
    prompt_id: 'p05',
    completion: `Here you go:\n${fence('svg', emoji('cactus'))}`,
    finish_reason: 'stop',
    human: 82,
  },
  {
    prompt_id: 'p05',
    completion: fence('svg', partial('cactus', 1)),
    finish_reason: 'stop',
    human: 30,
  },
  // p06 — sailboat: complete and unfinished.
  {
    prompt_id: 'p06',
    completion: `<think>\nA hull, a mast, two triangular sails and some waves.\n</think>\n\n${fence('svg', emoji('sailboat'))}`,
    finish_reason: 'stop',
    human: 80,
  },
  {
    prompt_id: 'p06',
    completion: fence('svg', partial('sailboat', 3)),
    finish_reason: 'stop',
    human: 38,
  },
  // p07 — owl: the right bird and the wrong one.
  {
    prompt_id: 'p07',
    completion: `${dwt('An owl', 'Round body, two ear tufts, large eyes, a small beak and feet.', 'warm browns, white eye discs, orange beak')}\n${fence('svg', emoji('owl'))}`,
    finish_reason: 'stop',
    human: 89,
  },
  {
    prompt_id: 'p07',
    completion: `An owl perched upright:\n${fence('svg', emoji('penguin'))}`,
    finish_reason: 'stop',
    human: 18,
  },
  // p08 — light bulb: good, and the prompt written into the picture.
  {
    prompt_id: 'p08',
    completion: `${fence('svg', emoji('light-bulb'))}`,
    finish_reason: 'stop',
    human: 86,
  },
  {
    prompt_id: 'p08',
    completion: fence(
      'svg',
      labelled(
        'LIGHT BULB',
        '<circle cx="16" cy="12" r="8" fill="#fcd53f"/>\n  <rect x="13" y="19" width="6" height="4" fill="#9b9b9b"/>',
      ),
    ),
    finish_reason: 'stop',
    human: 22,
  },
  // p09 — umbrella: open (asked) and closed (not asked).
  {
    prompt_id: 'p09',
    completion: `<think>\nA canopy in segments, a curved handle.\n</think>\n${fence('svg', emoji('umbrella'))}`,
    finish_reason: 'stop',
    human: 84,
  },
  {
    prompt_id: 'p09',
    completion: fence('svg', emoji('closed-umbrella')),
    finish_reason: 'stop',
    human: 33,
  },
  // p10 — sunflower: the flower, a different flower, an unfinished one.
  {
    prompt_id: 'p10',
    completion: `Sure — a sunflower with a stem and leaves:\n\n${fence('svg', emoji('sunflower'))}`,
    finish_reason: 'stop',
    human: 87,
  },
  {
    prompt_id: 'p10',
    completion: fence('svg', emoji('tulip')),
    finish_reason: 'stop',
    human: 27,
  },
  {
    prompt_id: 'p10',
    completion: fence('svg', partial('sunflower', 2)),
    finish_reason: 'stop',
    human: 45,
  },
];

const promptText = new Map(prompts.map((p) => [p.id, p.prompt]));
const counters = new Map<string, number>();
const rolloutLines: string[] = [];
const humanLines: string[] = [];
const byGroup = new Map<string, { id: string; human: number }[]>();
for (const r of rollouts) {
  const k = counters.get(r.prompt_id) ?? 0;
  counters.set(r.prompt_id, k + 1);
  const id = `${r.prompt_id}#${k}`;
  rolloutLines.push(
    JSON.stringify({
      id,
      prompt_id: r.prompt_id,
      prompt: promptText.get(r.prompt_id),
      sample: k,
      completion: r.completion,
      model: POLICY,
      finish_reason: r.finish_reason,
    }),
  );
  humanLines.push(JSON.stringify({ id, group: r.prompt_id, score: r.human }));
  const group = byGroup.get(r.prompt_id) ?? [];
  group.push({ id, human: r.human });
  byGroup.set(r.prompt_id, group);
}

// Pairwise votes derived from the same illustrative ratings: a tie when within 5 points.
const pairLines: string[] = [];
for (const [group, items] of byGroup) {
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i]!;
      const b = items[j]!;
      const diff = a.human - b.human;
      const winner = Math.abs(diff) <= 5 ? 'tie' : diff > 0 ? 'a' : 'b';
      pairLines.push(JSON.stringify({ group, a: a.id, b: b.id, winner }));
    }
  }
}

const write = (name: string, lines: string[]) =>
  writeFileSync(join(here, name), `${lines.join('\n')}\n`);
write(
  'prompts.jsonl',
  prompts.map((p) => JSON.stringify(p)),
);
write('rollouts.jsonl', rolloutLines);
write('human.jsonl', humanLines);
write('human-pairwise.jsonl', pairLines);
process.stdout.write(
  `examples: ${prompts.length} prompts, ${rolloutLines.length} rollouts, ${pairLines.length} pairwise votes\n`,
);
