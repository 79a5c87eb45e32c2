// A labelled corpus of full-bleed scenes (issue 40 item 2): the drawings RL policies are
// pushed towards — subjects over gradients, light rays and beams, bokeh, glows, noise and
// pattern textures, sky/water/ground bands (also split by a subject), walls, columns,
// furniture and drapes, all reaching the frame. Each scene is composed here with known
// truth: the subject (a Fluent Emoji icon, MIT, from @iconify-json/fluent-emoji via
// test/support/corpus.ts) is placed whole — away from the frame or right beside it — or
// pushed 40–65 % of its box off one side or a corner (cut: `clipped` must fire). Two more
// families: a title running off the frame (over a pattern or not: must fire), and a
// deliberate close-up (a subject filling the frame from one side, its box barely past it:
// must not fire, and `detail.closeUp` must say so). Generated in memory from one seed, so
// the repository keeps only this script.
import { fluentEmoji } from '../support/corpus.ts';
import { rng } from './labelled-set.ts';

export const SCENE_KINDS = [
  'linear-gradient',
  'radial-gradient',
  'rays',
  'bokeh',
  'glow',
  'noise',
  'pattern',
  'bands',
  'bands-split',
  'wall',
  'columns',
  'furniture',
  'drapes',
] as const;
export type SceneKind = (typeof SCENE_KINDS)[number];

export interface SceneItem {
  id: string;
  kind:
    | SceneKind
    | 'text-off-frame'
    | 'close-up'
    | 'line-art'
    | 'line-art-loose'
    | 'backdrop-disc'
    | 'backdrop-disc-grouped'
    | 'backdrop-disc-line-art'
    | 'backdrop-disc-inside';
  prompt: string;
  svg: string;
  /** true: `clipped` must fire; false: it must not. */
  cut: boolean;
  /** A deliberate close-up: must not fire, and must be reported as one. */
  closeUp?: boolean;
}

type R = () => number;
const pick = <T>(r: R, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: R, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const f1 = (v: number) => v.toFixed(1);
const hsl = (r: R, s = 60, l = 60) => `hsl(${int(r, 0, 359)},${s}%,${l}%)`;

const svg512 = (inner: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="512" height="512" viewBox="0 0 512 512">${inner}</svg>`;

export interface Subject {
  name: string;
  words: string;
  body: string;
}

/** The subjects scenes are made of (also for clutter-scenes.ts). */
export function sceneSubjects(): Subject[] {
  // Whole pictures, not text-like icons (keycaps, signs, flags) or near-empty ones.
  return fluentEmoji()
    .filter(
      ({ name }) => !/sign|keycap|button|symbol|flag|letter|squared|circled|arrow|mark/.test(name),
    )
    .map(({ name, svg }) => ({
      name,
      words: name.replace(/-/g, ' '),
      body: svg.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, ''),
    }))
    .filter((s) => s.body.length > 400);
}

const place = (s: Subject, x: number, y: number, side: number) =>
  `<g transform="translate(${f1(x)} ${f1(y)}) scale(${(side / 32).toFixed(4)})">${s.body}</g>`;

/** A background of one kind: what is drawn under the subject, and what over it (light). */
function background(kind: SceneKind, r: R): { under: string; over: string; words: string } {
  const a = hsl(r, 55, 45);
  const b = hsl(r, 70, 80);
  switch (kind) {
    case 'linear-gradient': {
      const [x2, y2] = pick(r, [
        [0, 1],
        [1, 0],
        [1, 1],
        [0.3, 1],
      ] as const);
      return {
        words: 'against a soft gradient background',
        under: `<defs><linearGradient id="bg" x1="0" y1="0" x2="${x2}" y2="${y2}"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs><rect width="512" height="512" fill="url(#bg)"/>`,
        over: '',
      };
    }
    case 'radial-gradient': {
      const cx = pick(r, ['0', '1', '0.5', '0.2', '0.85']);
      const cy = pick(r, ['0', '1', '0.5', '0.1']);
      return {
        words: 'lit from one corner with radial lighting',
        under: `<defs><radialGradient id="bg" cx="${cx}" cy="${cy}" r="${f1(0.6 + r() * 0.8)}"><stop offset="0" stop-color="${b}"/><stop offset="1" stop-color="${a}"/></radialGradient><radialGradient id="hi" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#fff" stop-opacity="0.6"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><rect width="512" height="512" fill="url(#bg)"/><circle cx="${int(r, 0, 512)}" cy="${int(r, 0, 200)}" r="${int(r, 150, 320)}" fill="url(#hi)"/>`,
        over: '',
      };
    }
    case 'rays': {
      const rays: string[] = [];
      const ox = pick(r, [0, 256, 512, int(r, 60, 450)]);
      const n = int(r, 5, 11);
      const useGrad = r() < 0.5;
      for (let k = 0; k < n; k++) {
        const t = -0.3 + (k / n) * 1.6 + r() * 0.05;
        const w = 0.04 + r() * 0.06;
        const p = (u: number) => [ox + Math.cos(Math.PI * u) * -900, Math.sin(Math.PI * u) * 900];
        const [x1, y1] = p(t);
        const [x2, y2] = p(t + w);
        const fill = useGrad ? 'url(#ray)' : '#fffbe0';
        const op = useGrad ? '' : ` opacity="${f1(0.12 + r() * 0.25)}"`;
        rays.push(
          `<polygon points="${ox},-10 ${f1(x1!)},${f1(y1!)} ${f1(x2!)},${f1(y2!)}" fill="${fill}"${op}/>`,
        );
      }
      return {
        words: 'with beams of light streaming down through the scene',
        under: `<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="#0b1d33"/></linearGradient><linearGradient id="ray" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff8c0" stop-opacity="0.55"/><stop offset="1" stop-color="#fff8c0" stop-opacity="0"/></linearGradient></defs><rect width="512" height="512" fill="url(#bg)"/>${r() < 0.5 ? rays.join('') : ''}`,
        over: rays.join(''),
      };
    }
    case 'bokeh': {
      const dots: string[] = [];
      const blur = r() < 0.5;
      for (let k = int(r, 12, 30); k > 0; k--) {
        const cx = r() < 0.4 ? pick(r, [0, 512, int(r, 0, 512)]) : int(r, 0, 512);
        const cy = r() < 0.4 ? pick(r, [0, 512]) : int(r, 0, 512);
        dots.push(
          `<circle cx="${cx}" cy="${cy}" r="${int(r, 12, 70)}" fill="${hsl(r, 80, 75)}" opacity="${f1(0.15 + r() * 0.35)}"${blur ? ' filter="url(#soft)"' : ''}/>`,
        );
      }
      return {
        words: 'with a dreamy bokeh background of blurred lights',
        under: `<defs><filter id="soft"><feGaussianBlur stdDeviation="${int(r, 3, 9)}"/></filter></defs><rect width="512" height="512" fill="${hsl(r, 40, 18)}"/>${dots.join('')}`,
        over: '',
      };
    }
    case 'glow': {
      const glows: string[] = [];
      for (let k = int(r, 1, 3); k > 0; k--)
        glows.push(
          `<circle cx="${pick(r, [0, 512, int(r, 0, 512)])}" cy="${pick(r, [0, 512, int(r, 0, 512)])}" r="${int(r, 90, 220)}" fill="${r() < 0.5 ? 'url(#glow)' : hsl(r, 90, 70)}"${r() < 0.5 ? ' filter="url(#blur)"' : ' opacity="0.35"'}/>`,
        );
      return {
        words: 'glowing softly in the night',
        under: `<defs><radialGradient id="glow"><stop offset="0" stop-color="#ffe9a8" stop-opacity="0.9"/><stop offset="1" stop-color="#ffe9a8" stop-opacity="0"/></radialGradient><filter id="blur" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="30"/></filter></defs><rect width="512" height="512" fill="${hsl(r, 50, 15)}"/>${glows.join('')}`,
        over: r() < 0.3 ? glows[0]! : '',
      };
    }
    case 'noise':
      return {
        words: 'on a grainy paper texture',
        under: `<defs><filter id="grain" x="0" y="0" width="100%" height="100%"><feTurbulence type="fractalNoise" baseFrequency="${f1(0.5 + r() * 0.5)}" numOctaves="2" seed="${int(r, 1, 99)}"/><feColorMatrix type="saturate" values="0"/></filter></defs><rect width="512" height="512" fill="${b}"/><rect width="512" height="512" filter="url(#grain)" opacity="${f1(0.15 + r() * 0.3)}"/>`,
        over: '',
      };
    case 'pattern': {
      const s = int(r, 16, 48);
      return {
        words: 'on a patterned wallpaper',
        under: `<defs><pattern id="pt" width="${s}" height="${s}" patternUnits="userSpaceOnUse"><rect width="${s}" height="${s}" fill="${b}"/><circle cx="${s / 2}" cy="${s / 2}" r="${f1(s * (0.15 + r() * 0.25))}" fill="${a}"/></pattern></defs><rect width="512" height="512" fill="url(#pt)"/>`,
        over: '',
      };
    }
    case 'bands':
    case 'bands-split': {
      const h1 = int(r, 220, 300);
      const h2 = int(r, h1 + 40, 440);
      const wave = int(r, 8, 30);
      return {
        words: 'by a lake under a wide sky',
        under: `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6fb3e8"/><stop offset="1" stop-color="#fde2c4"/></linearGradient></defs><rect width="512" height="${h1 + 10}" fill="url(#sky)"/><path d="M0 ${h1} Q 128 ${h1 - wave} 256 ${h1} T 512 ${h1} V ${h2} H 0 Z" fill="#3d7fb8"/><path d="M-4 ${h2} C 150 ${h2 - wave} 360 ${h2 + wave} 516 ${h2 - 6} V 516 H -4 Z" fill="${pick(r, ['#5a9e45', '#c2a878', '#7a5c3a'])}"/>`,
        over: '',
      };
    }
    case 'wall': {
      const floor = int(r, 330, 420);
      const wx = int(r, 40, 300);
      return {
        words: 'in a cosy room',
        under: `<rect width="512" height="${floor}" fill="${hsl(r, 30, 75)}"/><rect y="${floor}" width="512" height="${512 - floor}" fill="${hsl(r, 35, 40)}"/><rect x="${wx}" y="60" width="${int(r, 120, 180)}" height="${int(r, 120, 180)}" fill="#bfe3ff" stroke="#6d4c41" stroke-width="8"/><rect x="0" y="${floor - 14}" width="512" height="14" fill="#5d4037"/>`,
        over: '',
      };
    }
    case 'columns': {
      const floor = int(r, 380, 450);
      const w = int(r, 50, 90);
      const col = (x: number) =>
        `<rect x="${x}" y="0" width="${w}" height="${floor}" fill="#e8e0d0"/><rect x="${x - 8}" y="${floor - 20}" width="${w + 16}" height="20" fill="#cfc4ae"/><rect x="${x - 8}" y="0" width="${w + 16}" height="24" fill="#cfc4ae"/>`;
      return {
        words: 'in a grand hall between marble columns',
        under: `<rect width="512" height="512" fill="${hsl(r, 25, 30)}"/><rect y="${floor}" width="512" height="${512 - floor}" fill="#8d7b68"/>${col(-int(r, 0, 30))}${col(512 - w + int(r, 0, 30))}`,
        over: '',
      };
    }
    case 'furniture': {
      const top = int(r, 360, 420);
      const x1 = int(r, 300, 420);
      const wood = pick(r, ['#8d5a3b', '#6d4c41', '#a1887f']);
      return {
        words: 'on a wooden table by a window',
        under: `<rect width="512" height="512" fill="${hsl(r, 30, 80)}"/><rect x="-10" y="${top}" width="${x1 + 10}" height="22" fill="${wood}"/><rect x="${x1 - 40}" y="${top + 22}" width="16" height="${512 - top}" fill="${wood}"/><rect x="${x1 + 60}" y="${int(r, 80, 200)}" width="${522 - x1 - 60}" height="${int(r, 30, 60)}" fill="${wood}"/>`,
        over: '',
      };
    }
    case 'drapes': {
      const reach = int(r, 300, 470);
      const fold = (x0: number, x1: number) =>
        `<path d="M${x0} -2 L${x1} -2 Q ${(x0 + x1) / 2 + int(r, -20, 20)} ${reach / 2} ${x1 + (x0 < 256 ? -20 : 20)} ${reach} L ${x0} ${reach} Z" fill="${'#8e2430'}"/><path d="M${(x0 + x1) / 2} 0 Q ${(x0 + x1) / 2 + 10} ${reach / 2} ${(x0 + x1) / 2} ${reach - 10}" fill="none" stroke="#5e1820" stroke-width="4"/>`;
      return {
        words: 'on a stage framed by red curtains',
        under: `<rect width="512" height="512" fill="${hsl(r, 20, 25)}"/><rect y="${int(r, 400, 450)}" width="512" height="120" fill="#6d4c41"/>${fold(-2, int(r, 70, 130))}${fold(512 - int(r, 70, 130), 514)}`,
        over: '',
      };
    }
  }
}

/** A sunflower-like stem from the ground up to the subject: it splits the bands below it. */
const stem = (x: number, y: number) =>
  `<rect x="${f1(x - 5)}" y="${f1(y)}" width="10" height="${f1(520 - y)}" fill="#3f8f3a"/>`;

/** The whole corpus: clean and cut scenes of every kind, titles off the frame, close-ups. */
export function sceneCorpus(seed = 40, perKind = 40): SceneItem[] {
  const r = rng(seed);
  const all = sceneSubjects();
  const out: SceneItem[] = [];
  for (const kind of SCENE_KINDS) {
    for (let i = 0; i < perKind; i++) {
      const s = pick(r, all);
      const bg = background(kind, r);
      const cut = i % 2 === 1;
      const side = int(r, 160, 340);
      // Whole beside the frame: Fluent Emoji leave ≈ 1/32 of their box as margin.
      const [x, y] = placed(r, i, side, -(side / 32) * 0.5);
      const split = kind === 'bands-split' ? stem(x + side / 2, y + side * 0.8) : '';
      out.push({
        id: `scene:${kind}:${i}:${s.name}`,
        kind,
        prompt: `${s.words} ${bg.words}`,
        svg: svg512(bg.under + split + place(s, x, y, side) + bg.over),
        cut,
      });
    }
  }
  out.push(...titles(r, all, perKind), ...closeUps(r, all, perKind));
  return out;
}

const TITLES = [
  'The Secret Garden of Moonlight',
  'A Night at the Lantern Festival',
  'Welcome to the Harbour Market',
  'Autumn Leaves Falling Softly',
  'The Lighthouse Keeper',
];

/** A title and labels: running off the right edge (cut, over a pattern or not) or fitting. */
function titles(r: R, all: Subject[], n: number): SceneItem[] {
  const out: SceneItem[] = [];
  for (let i = 0; i < n; i++) {
    const s = pick(r, all);
    const t = pick(r, TITLES);
    const size = int(r, 30, 44);
    const off = i % 2 === 1;
    // ≈ 0.55 em per character in DejaVu Sans; a title that fits starts where it ends inside.
    const width = 0.6 * size * t.length;
    const x = off ? int(r, 512 - width * 0.8, 512 - width * 0.3) : Math.max(10, (512 - width) / 2);
    const fit = off ? size : Math.min(size, Math.floor(490 / (0.6 * t.length)));
    const bg = i % 4 < 2 ? background('pattern', r) : background(pick(r, SCENE_KINDS), r);
    out.push({
      id: `scene:title:${i}:${s.name}`,
      kind: 'text-off-frame',
      prompt: `a poster titled "${t}" with ${s.words}`,
      svg: svg512(
        `${bg.under}${place(s, 156, 180, 200)}<text x="${f1(x)}" y="${int(r, 60, 110)}" font-family="sans-serif" font-size="${fit}" fill="#1a1a1a">${t}</text>`,
      ),
      cut: off,
    });
  }
  return out;
}

/** Deliberate close-ups: the subject fills the frame from one side, its box barely past it. */
function closeUps(r: R, all: Subject[], n: number): SceneItem[] {
  const out: SceneItem[] = [];
  for (let i = 0; i < n; i++) {
    const s = pick(r, all);
    const side = int(r, 560, 680);
    const past = 0.12 + r() * 0.1; // share of the box past the frame, on the bottom
    const x = (512 - side) / 2 + int(r, -20, 20);
    const y = 512 - side * (1 - past);
    const bg = background(pick(r, ['linear-gradient', 'radial-gradient', 'bokeh'] as const), r);
    out.push({
      id: `scene:close-up:${i}:${s.name}`,
      kind: 'close-up',
      prompt: `a close-up portrait of ${s.words}`,
      svg: svg512(bg.under + place(s, x, y, side)),
      cut: false,
      closeUp: true,
    });
  }
  return out;
}

/**
 * Line-art figures (strokes only, `fill="none"`) in a 100-unit box: what a model draws as a
 * bicycle, a stick figure, a wireframe or a Feather/Lucide-style icon (7 Dec 2026, h38stroke).
 */
const LINE_ART: { name: string; body: string }[] = [
  {
    name: 'bicycle',
    body: '<circle cx="22" cy="68" r="20"/><circle cx="78" cy="68" r="20"/><path d="M22 68 L40 40 L70 40 L78 68 M40 40 L52 68 L70 40 M52 68 L22 68 M36 34 L46 34 M70 40 L66 28 L76 28"/>',
  },
  {
    name: 'stick-figure',
    body: '<circle cx="50" cy="16" r="12"/><path d="M50 28 L50 62 M50 38 L28 52 M50 38 L72 52 M50 62 L34 94 M50 62 L66 94"/>',
  },
  {
    name: 'house',
    body: '<polygon points="10,45 50,8 90,45 90,95 10,95"/><rect x="42" y="62" width="16" height="33"/><rect x="18" y="52" width="16" height="14"/><rect x="66" y="52" width="16" height="14"/>',
  },
  {
    name: 'cup',
    body: '<path d="M18 38 L78 38 L70 94 L26 94 Z"/><path d="M78 50 C96 50 96 76 74 78"/><path d="M36 28 C30 20 42 14 36 4 M52 28 C46 20 58 14 52 4"/>',
  },
  {
    name: 'wireframe-cube',
    body: '<rect x="8" y="32" width="58" height="58"/><rect x="34" y="8" width="58" height="58"/><path d="M8 32 L34 8 M66 32 L92 8 M66 90 L92 66 M8 90 L34 66"/>',
  },
  {
    name: 'flower',
    body: '<circle cx="50" cy="30" r="8"/><ellipse cx="50" cy="12" rx="7" ry="10"/><ellipse cx="50" cy="48" rx="7" ry="10"/><ellipse cx="32" cy="30" rx="10" ry="7"/><ellipse cx="68" cy="30" rx="10" ry="7"/><path d="M50 58 L50 98 M50 80 C62 70 72 72 76 66 C70 80 60 82 50 84 Z"/>',
  },
  {
    name: 'car',
    body: '<path d="M4 70 L4 52 L22 48 L34 30 L70 30 L84 48 L96 52 L96 70 Z"/><path d="M38 36 L48 36 L48 48 L28 48 Z M54 36 L66 36 L76 48 L54 48 Z"/><circle cx="26" cy="72" r="12"/><circle cx="74" cy="72" r="12"/>',
  },
  {
    name: 'camera',
    body: '<path d="M8 32 L28 32 L36 20 L64 20 L72 32 L92 32 L92 84 L8 84 Z"/><circle cx="50" cy="56" r="18"/><circle cx="80" cy="42" r="3"/>',
  },
  {
    name: 'light-bulb',
    body: '<path d="M34 66 C14 52 18 8 50 8 C82 8 86 52 66 66 L66 78 L34 78 Z"/><path d="M36 86 L64 86 M40 94 L60 94 M44 40 L50 56 L56 40"/>',
  },
  {
    name: 'fish',
    body: '<ellipse cx="44" cy="50" rx="34" ry="22"/><polygon points="76,50 98,32 98,68"/><circle cx="26" cy="44" r="4"/><path d="M52 32 C58 44 58 56 52 68"/>',
  },
];

/**
 * Line-art subjects over every background kind, whole (away from the frame or beside it) or
 * pushed 40–65 % of their box off one side or a corner, placed as the emoji scenes are. Its
 * own family with its own random stream, so the emoji corpus's items stay as they were.
 */
/**
 * Where a subject `side` units square placed at (x, y) goes when it is cut: 40–65 % of it
 * pushed past one side of the 512² frame, or about 0.7 of that past two at a corner. Draws
 * from `r` in a fixed order, so a seed gives the same corpus.
 */
function pushedOff(r: () => number, side: number, x: number, y: number): [number, number] {
  const share = 0.4 + r() * 0.25;
  const where = int(r, 0, 4);
  if (where === 0) return [-side * share, y];
  if (where === 1) return [512 - side * (1 - share), y];
  if (where === 2) return [x, -side * share];
  if (where === 3) return [x, 512 - side * (1 - share)];
  const corner = () => (r() < 0.5 ? -side * share * 0.7 : 512 - side * (1 - share * 0.7));
  const cx = corner();
  return [cx, corner()];
}

/**
 * Where the i-th subject of a family goes (odd i are cut): inside the frame; every fourth
 * whole one beside a side, `inset` units in from it (negative: its margin past it); a cut one
 * pushed off. Draws from `r` in one fixed order, so a family's corpus stays the same.
 */
function placed(r: () => number, i: number, side: number, inset: number): [number, number] {
  const x = int(r, 60, 452 - side);
  const y = int(r, 40, 472 - side);
  if (i % 2 === 1) return pushedOff(r, side, x, y);
  if (i % 4 !== 2) return [x, y];
  const edge = r() < 0.5;
  const at = r() < 0.5 ? inset : 512 - side - inset;
  return edge ? [at, y] : [x, at];
}

/**
 * The line-art family: ten stroke-only figures over the backgrounds, whole or cut. `loose`:
 * each figure written as top-level elements with no group round them, every one carrying the
 * placement and the stroke (as a model writes a figure it never grouped); same draws, so the
 * loose family of a seed is the grouped one rewritten. `discs`: a disc from the edge
 * (backdropDisc) laid behind each figure, drawn from its own draws, so the figures are the same.
 */
export function lineArtScenes(seed = 40, perKind = 40, loose = false, discs = false): SceneItem[] {
  const r = rng(seed * 7 + 11);
  // Discs from the edge behind the figures, from draws of their own: the figures stay the same.
  const d = rng(seed * 17 + 3);
  const out: SceneItem[] = [];
  for (let i = 0; i < perKind * 2; i++) {
    const kind = SCENE_KINDS[i % SCENE_KINDS.length]!;
    const fig = pick(r, LINE_ART);
    const bg = background(kind, r);
    const cut = i % 2 === 1;
    const side = int(r, 160, 340);
    // Whole beside the frame: drawn up to it, a stroke's half-width away.
    const [x, y] = placed(r, i, side, 4);
    const k = side / 100;
    const stroke = pick(r, ['#1a1a1a', '#223', '#333', '#fff', '#402']);
    const look = `transform="translate(${f1(x)} ${f1(y)}) scale(${k.toFixed(4)})" fill="none" stroke="${stroke}" stroke-width="${f1(3 + r() * 2)}" stroke-linecap="round" stroke-linejoin="round"`;
    const figure = loose
      ? fig.body.replace(/<(\w+) /g, `<$1 ${look} `)
      : `<g ${look}>${fig.body}</g>`;
    const family = discs ? 'backdrop-disc-line-art' : loose ? 'line-art-loose' : 'line-art';
    out.push({
      id: `scene:${family}:${i}:${kind}:${fig.name}`,
      kind: family,
      prompt: `a line drawing of a ${fig.name.replace(/-/g, ' ')} ${bg.words}`,
      svg: svg512(bg.under + (discs ? backdropDisc(d, false) : '') + figure + bg.over),
      cut,
    });
  }
  return out;
}

/**
 * A planet, sun, moon or light disc laid from the frame's edge (the class of both blind false
 * alarms of session 39: model-c l07-b's light disc, model-d s08-a's Earth). Its centre lies on
 * a side or a corner of the 512² frame or past it, so half of it or less shows; a quarter to
 * over half the frame wide; a circle or an ellipse, flat or shaded, sometimes with a halo
 * round it and craters or land drawn on it (some running to the frame with it). `inside`: a
 * big disc (0.3–0.55 of the frame in radius) centred up to a quarter of its radius inside the
 * side instead, so up to two thirds of it shows (model-e l10-a's gas giant, 0.14 inside).
 */
function backdropDisc(r: R, grouped: boolean, inside = false): string {
  const rad = 512 * (inside ? 0.3 + r() * 0.25 : 0.22 + r() * 0.33);
  const ry = r() < 0.25 ? rad * (0.7 + r() * 0.25) : rad;
  const past = inside ? -r() * 0.25 : r() * 0.5;
  const where = int(r, 0, 7);
  const along = 512 * (0.15 + r() * 0.7);
  const out = (side: 0 | 512, ext: number) => (side === 0 ? -ext * past : 512 + ext * past);
  const corner = (bit: number) => (bit ? 512 : 0) as 0 | 512;
  const [cx, cy] =
    where === 0
      ? [out(0, rad), along]
      : where === 1
        ? [out(512, rad), along]
        : where === 2
          ? [along, out(0, ry)]
          : where === 3
            ? [along, out(512, ry)]
            : [out(corner(where & 1), rad), out(corner(where & 2), ry)];
  const lit = hsl(r, 60, 70);
  const fill = r() < 0.5 ? hsl(r, 50, 55) : 'url(#disc)';
  const defs = `<defs><radialGradient id="disc" cx="0.4" cy="0.35" r="0.7"><stop offset="0" stop-color="${lit}"/><stop offset="1" stop-color="${hsl(r, 55, 30)}"/></radialGradient><filter id="halo"><feGaussianBlur stdDeviation="8"/></filter></defs>`;
  const shape = (k: number, paint: string) =>
    rad === ry
      ? `<circle cx="${f1(cx)}" cy="${f1(cy)}" r="${f1(rad * k)}" ${paint}/>`
      : `<ellipse cx="${f1(cx)}" cy="${f1(cy)}" rx="${f1(rad * k)}" ry="${f1(ry * k)}" ${paint}/>`;
  const halo = r() < 0.4 ? shape(1.06, `fill="${lit}" opacity="0.45" filter="url(#halo)"`) : '';
  let marks = '';
  if (r() < 0.5) {
    const tone = hsl(r, 40, 40);
    for (let k = int(r, 2, 5); k > 0; k--) {
      const a = r() * Math.PI * 2;
      const d = 0.3 + r() * 0.6;
      const [x, y] = [cx + Math.cos(a) * rad * d, cy + Math.sin(a) * ry * d];
      const m = rad * (0.05 + r() * 0.12);
      // Only what shows: a mark on the hidden part of the disc is not drawn.
      if (x > -m && x < 512 + m && y > -m && y < 512 + m)
        marks += `<ellipse cx="${f1(x)}" cy="${f1(y)}" rx="${f1(m)}" ry="${f1(m * 0.7)}" fill="${tone}" opacity="0.8"/>`;
    }
  }
  const planet = halo + shape(1, `fill="${fill}"`) + marks;
  return defs + (grouped ? `<g class="planet">${planet}</g>` : planet);
}

/**
 * The backdrop-disc family: a subject whole or cut (odd items) over a disc laid from the
 * frame's edge (backdropDisc) on each background kind. Truth is the subject's alone: the disc
 * runs past the frame by design. Seed 40 tunes, 41 is held out. `grouped`: the disc, its halo
 * and its marks written as one group (as a model names a `<g id="planet">`); same draws, so
 * the grouped family of a seed is the bare one rewritten. `inside`: big discs centred inside
 * the side (backdropDisc), every other pair of items written as a group; draws of their own.
 */
export function backdropDiscScenes(
  seed = 40,
  perKind = 40,
  grouped = false,
  inside = false,
): SceneItem[] {
  const r = rng(inside ? seed * 19 + 7 : seed * 13 + 5);
  const all = sceneSubjects();
  const out: SceneItem[] = [];
  for (let i = 0; i < perKind * 2; i++) {
    const kind = SCENE_KINDS[i % SCENE_KINDS.length]!;
    const s = pick(r, all);
    const bg = background(kind, r);
    const disc = backdropDisc(r, grouped || (inside && i % 4 >= 2), inside);
    const side = int(r, 140, 300);
    const [x, y] = placed(r, i, side, -(side / 32) * 0.5);
    const family = inside
      ? 'backdrop-disc-inside'
      : grouped
        ? 'backdrop-disc-grouped'
        : 'backdrop-disc';
    out.push({
      id: `scene:${family}:${i}:${kind}:${s.name}`,
      kind: family,
      prompt: `${s.words} in front of a huge planet rising from the edge, ${bg.words}`,
      svg: svg512(bg.under + disc + place(s, x, y, side) + bg.over),
      cut: i % 2 === 1,
    });
  }
  return out;
}
