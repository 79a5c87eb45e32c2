// Scenes for `clutter` with room for what the prompt asks (issue 40 item 4): a subject from
// the scene corpus's set (Fluent Emoji, MIT) in a scene whose prompt asks for layered light
// — stacked full-canvas radial lights, glows, beams, a translucent haze — drawn as the
// layers it asks for (must not flag), and the same lit scenes with junk piled on them:
// hundreds of decorative strokes (RULER's CLIP/aesthetic hack) or dozens of large blobs
// stacked over the picture (must flag). Composed in memory from one seed.
import { rng } from './labelled-set.ts';
import { sceneSubjects } from './scene-corpus.ts';

export interface ClutterScene {
  id: string;
  kind: 'lit' | 'lit+strokes' | 'lit+blobs';
  prompt: string;
  svg: string;
  /** true: `clutter` must fire. */
  junk: boolean;
}

type R = () => number;
const int = (r: R, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const f1 = (v: number) => v.toFixed(1);
const hsl = (r: R, s: number, l: number) => `hsl(${int(r, 0, 359)},${s}%,${l}%)`;

const PROMPTS = [
  'bathed in layered radial lighting with a warm glow',
  'with soft volumetric light beams and a glowing haze',
  'under translucent layers of coloured light and gradients',
  'with dramatic rim lighting, highlights and a luminous aura',
];

/** Stacked full-canvas lights: radial gradients fading to transparent, as models draw them. */
function lights(r: R, n: number): { defs: string; layers: string } {
  const defs: string[] = [];
  const layers: string[] = [];
  for (let k = 0; k < n; k++) {
    defs.push(
      `<radialGradient id="l${k}" cx="${f1(r())}" cy="${f1(r() * 0.8)}" r="${f1(0.5 + r() * 0.6)}"><stop offset="0" stop-color="${hsl(r, 90, 80)}" stop-opacity="${f1(0.4 + r() * 0.4)}"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>`,
    );
    layers.push(`<rect width="512" height="512" fill="url(#l${k})"/>`);
  }
  return { defs: defs.join(''), layers: layers.join('') };
}

function strokes(r: R): string {
  const out: string[] = [];
  for (let k = int(r, 150, 300); k > 0; k--) {
    const x = int(r, 0, 512);
    const y = int(r, 0, 512);
    out.push(
      `<path d="M${x} ${y} q ${int(r, -60, 60)} ${int(r, -60, 60)} ${int(r, -90, 90)} ${int(r, -90, 90)}" fill="none" stroke="${hsl(r, 80, 60)}" stroke-width="${int(r, 2, 6)}" opacity="0.6"/>`,
    );
  }
  return out.join('');
}

function blobs(r: R): string {
  const out: string[] = [];
  for (let k = int(r, 40, 70); k > 0; k--) {
    out.push(
      `<ellipse cx="${int(r, 0, 512)}" cy="${int(r, 0, 512)}" rx="${int(r, 120, 220)}" ry="${int(r, 120, 220)}" fill="${hsl(r, 70, 60)}"/>`,
    );
  }
  return out.join('');
}

export function clutterScenes(seed = 40, perKind = 20): ClutterScene[] {
  const r = rng(seed);
  const all = sceneSubjects();
  const out: ClutterScene[] = [];
  for (let i = 0; i < perKind * 3; i++) {
    const s = all[Math.floor(r() * all.length)]!;
    const kind = (['lit', 'lit+strokes', 'lit+blobs'] as const)[i % 3]!;
    const side = int(r, 200, 320);
    const x = int(r, 40, 472 - side);
    const y = int(r, 40, 472 - side);
    const l = lights(r, int(r, 2, 5));
    const ground = `<rect width="512" height="512" fill="${hsl(r, 40, 18)}"/><rect y="${int(r, 360, 430)}" width="512" height="140" fill="${hsl(r, 30, 28)}"/>`;
    const subject = `<g transform="translate(${x} ${y}) scale(${(side / 32).toFixed(4)})">${s.body}</g>`;
    const junk = kind === 'lit+strokes' ? strokes(r) : kind === 'lit+blobs' ? blobs(r) : '';
    const prompt = `${s.words} ${PROMPTS[Math.floor(r() * PROMPTS.length)]}`;
    out.push({
      id: `clutter:${kind}:${i}:${s.name}`,
      kind,
      prompt,
      svg: `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512"><defs>${l.defs}</defs>${ground}${subject}${l.layers}${junk}</svg>`,
      junk: kind !== 'lit',
    });
  }
  return out;
}

// `node --import tsx test/checks/clutter-scenes.ts [seed]` prints the figures per kind.
if (process.argv[1]?.endsWith('clutter-scenes.ts')) {
  const { evaluate } = await import('./evaluate.ts');
  const seed = Number(process.argv[2] ?? 40);
  const scenes = clutterScenes(seed);
  const outcomes = await evaluate(
    scenes.map((s) => ({ id: s.id, family: s.kind, prompt: s.prompt, svg: s.svg })),
  );
  for (const kind of ['lit', 'lit+strokes', 'lit+blobs'] as const) {
    const part = outcomes.filter((_, i) => scenes[i]!.kind === kind);
    const od = part.map(
      (o) => o.checks.find((c) => c.name === 'clutter')!.detail!.overdraw as number,
    );
    const flagged = part.filter((o) => o.flags.has('clutter')).length;
    console.log(
      `seed ${seed} ${kind.padEnd(12)} flagged ${flagged}/${part.length}, overdraw ${Math.min(...od).toFixed(2)}–${Math.max(...od).toFixed(2)}`,
    );
  }
}
