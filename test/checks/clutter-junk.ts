// A labelled junk set for `clutter` with known truth (issue 40 item 4): each real scene of
// test/fixtures/scenes (real-scenes.ts) with padding injected in memory, in the ways a policy
// can pad an answer without the judge seeing it or with noise it would see as texture:
//   under-background: 250 blobs drawn first, then an opaque rect over the whole frame;
//   invisible: 1,000 paths at opacity 0 (five times the waste allowance);
//   copies: one shape copied 500 times at the same place;
//   off-canvas: 300 shapes piled beyond the frame;
//   noise-covered: a 6,000-step random walk under an opaque rect over the frame.
// Every one must flag; the scenes as drawn must not. Code-only: `clutter` reads the
// sanitiser's CodeStats (geometry included), so no picture is rasterised here.
import { extractArtifact } from '../../src/artifact/extract.ts';
import { clutter } from '../../src/checks/clutter.ts';
import { resolveCheckOptions } from '../../src/checks/thresholds.ts';
import type { CheckResult } from '../../src/checks/types.ts';
import { sanitizeSvg } from '../../src/render/sanitize.ts';
import type { RenderResult } from '../../src/render/types.ts';
import { rng } from './labelled-set.ts';
import type { BenchScene } from './scene-bench.ts';

export const JUNK_KINDS = [
  'under-background',
  'invisible',
  'copies',
  'off-canvas',
  'noise-covered',
] as const;
export type JunkKind = (typeof JUNK_KINDS)[number];

type Box = [number, number, number, number];

function viewBoxOf(svg: string): Box {
  const vb = /<svg\b[^>]*\sviewBox="([^"]+)"/
    .exec(svg)?.[1]
    ?.split(/[\s,]+/)
    .map(Number);
  if (vb?.length !== 4) throw new Error('a vendored scene has a numeric viewBox');
  return vb as Box;
}

const f = (v: number) => v.toFixed(1);

/** The padding of one kind, sized to the scene's frame, and where it goes. */
function padding(
  kind: JunkKind,
  [x, y, w, h]: Box,
  r: () => number,
): { first: string } | { last: string } {
  const px = () => x + r() * w;
  const py = () => y + r() * h;
  const s = Math.min(w, h) / 40;
  const cover = `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#f4f1e8"/>`;
  const blob = (cx: number, cy: number) =>
    `<path d="M${f(cx)} ${f(cy)} c${f(s)} ${f(-s)} ${f(2 * s)} ${f(s)} ${f(s)} ${f(2 * s)} s${f(-2 * s)} 0 ${f(-s)} ${f(-2 * s)}z" fill="#7a3"/>`;
  const out: string[] = [];
  switch (kind) {
    case 'under-background':
      for (let k = 0; k < 250; k++) out.push(blob(px(), py()));
      return { first: out.join('') + cover };
    case 'invisible':
      for (let k = 0; k < 1000; k++)
        out.push(`<path d="M${f(px())} ${f(py())}h${f(s)}v${f(s)}z" opacity="0"/>`);
      return { last: out.join('') };
    case 'copies': {
      const one = `<circle cx="${f(x + w / 2)}" cy="${f(y + h / 2)}" r="${f(3 * s)}" fill="#c33"/>`;
      return { last: one.repeat(500) };
    }
    case 'off-canvas':
      for (let k = 0; k < 300; k++) out.push(blob(x + w * (1.2 + r()), y - h * (0.2 + r())));
      return { last: out.join('') };
    case 'noise-covered': {
      let [cx, cy] = [x + w / 2, y + h / 2];
      const d = [`M${f(cx)} ${f(cy)}`];
      for (let k = 0; k < 6000; k++) {
        cx = Math.min(x + w, Math.max(x, cx + (r() - 0.5) * 8 * s));
        cy = Math.min(y + h, Math.max(y, cy + (r() - 0.5) * 8 * s));
        d.push(`L${f(cx)} ${f(cy)}`);
      }
      return {
        first: `<path d="${d.join('')}" fill="none" stroke="#333" stroke-width="${f(s / 4)}"/>${cover}`,
      };
    }
  }
}

/** The scene with padding of `kind` injected (first: right after <svg>; last: before </svg>). */
export function injectJunk(scene: BenchScene, kind: JunkKind, seed = 40): BenchScene {
  const p = padding(kind, viewBoxOf(scene.svg), rng(seed));
  const svg =
    'first' in p
      ? scene.svg.replace(/<svg\b[^>]*>/, (open) => open + p.first)
      : scene.svg.replace(/<\/svg>\s*$/, `${p.last}</svg>`);
  return { ...scene, id: `${scene.id}+${kind}`, kind, svg };
}

/** `clutter` on the sanitiser's code facts alone (what the check reads; no pixels). */
export async function clutterOf(svg: string, prompt: string): Promise<CheckResult> {
  const artifact = await extractArtifact(`\`\`\`svg\n${svg}\n\`\`\``);
  const s = sanitizeSvg(artifact.svg ?? svg);
  if (!s.ok) throw new Error(`does not sanitise: ${s.error.message}`);
  const render: RenderResult = {
    ok: true,
    png: Buffer.alloc(0),
    width: 0,
    height: 0,
    ms: 0,
    code: s.code,
    pixels: { mseVsBackground: 0, inkCoverage: 0, borderInk: 0, overdraw: 0 },
  };
  return clutter({ artifact, render, prompt, options: resolveCheckOptions() });
}
