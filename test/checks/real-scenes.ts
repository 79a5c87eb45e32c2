// Real full-bleed scenes (issue 40 item 2): public-domain openclipart drawings vendored in
// test/fixtures/scenes (MANIFEST.json says where each comes from, what was changed, and
// what was seen in it), labelled by eye as whole, cut (`clipped` must fire) or a deliberate
// close-up (must not fire). Most labelled items are those scenes with their viewBox cropped
// (`cuts` in the manifest, made here in memory so the bytes are stored once): through a
// subject's body (cut), through sky, ground, backdrop, pattern or texture only (whole), or
// portrait-like (close-up); the truth is known because the crop was chosen, and each was
// looked at in a render. Labels describe the square canvas picture a judge sees, not the
// viewBox (the renderer paints beyond a non-square viewBox into the margins): crops whose
// canvas did not show their cut were made square (the fixtures' README).
// Read by scene-bench.ts and real-scenes.slow.test.ts.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchScene } from './scene-bench.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/scenes');

/** What MANIFEST.json records for one vendored file. */
export interface ManifestEntry {
  /** Path under Debian openclipart-svg's /usr/share/openclipart/svg. */
  source: string;
  /** The background kind the scene is measured under. */
  background: string;
  truth: 'whole' | 'cut' | 'close-up';
  prompt: string;
  /** What is in the picture and why it has this label (seen in the render). */
  seen: string;
  frame?: 'page';
  crop?: Box;
}

/**
 * A crop made from a vendored scene: its frame cropped to `crop` (fractions of the frame).
 * Its truth is `cut` (through a subject's body) unless it says otherwise: `whole` (only sky,
 * ground, backdrop, a pattern or a texture trimmed) or `close-up` (a portrait-like crop, the
 * body running off the bottom). `seen` says what the crop shows and why it has its label.
 */
export interface CutEntry {
  of: string;
  crop: Box;
  truth?: 'cut' | 'whole' | 'close-up';
  seen: string;
}

type Box = [number, number, number, number];

export interface RealSceneManifest {
  files: Record<string, ManifestEntry>;
  cuts: Record<string, CutEntry>;
}

/** `dir`: another folder with the same layout (the held-out set, holdout-scenes.ts). */
export function realSceneManifest(dir = DIR): RealSceneManifest {
  return JSON.parse(readFileSync(join(dir, 'MANIFEST.json'), 'utf8')) as RealSceneManifest;
}

/** The root's viewBox replaced by the part [x0, y0, x1, y1] (fractions) of it. */
export function cropFrame(svg: string, [x0, y0, x1, y1]: Box): string {
  return svg.replace(/<svg\b[^>]*>/, (tag) => {
    const vb = /\sviewBox="([^"]+)"/
      .exec(tag)?.[1]
      ?.split(/[\s,]+/)
      .map(Number);
    if (vb?.length !== 4) throw new Error('a vendored scene has a numeric viewBox');
    const [x, y, w, h] = vb as Box;
    const box = [x + x0 * w, y + y0 * h, (x1 - x0) * w, (y1 - y0) * h].map((v) =>
      Number(v.toFixed(2)),
    );
    return tag
      .replace(/\s(width|height|viewBox)="[^"]*"/g, '')
      .replace(/^<svg/, `<svg viewBox="${box.join(' ')}" width="${box[2]}" height="${box[3]}"`);
  });
}

/**
 * Every real scene (the vendored files, then the cuts made from them), by background kind;
 * `dir` and `prefix` (of the ids) read another folder of the same layout.
 */
export function realScenes(dir = DIR, prefix = 'real'): BenchScene[] {
  const { files, cuts } = realSceneManifest(dir);
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  const whole = Object.entries(files).map(([file, e]) => ({
    id: `${prefix}:${file}`,
    kind: e.background,
    prompt: e.prompt,
    svg: read(file),
    cut: e.truth === 'cut',
    ...(e.truth === 'close-up' ? { closeUp: true } : {}),
  }));
  const cropped = Object.entries(cuts).map(([name, c]) => {
    const base = files[c.of];
    if (!base) throw new Error(`${name}: no vendored scene ${c.of}`);
    return {
      id: `${prefix}:${name}`,
      kind: base.background,
      prompt: base.prompt,
      svg: cropFrame(read(c.of), c.crop),
      cut: (c.truth ?? 'cut') === 'cut',
      ...(c.truth === 'close-up' ? { closeUp: true } : {}),
    };
  });
  return [...whole, ...cropped].sort((a, b) => a.id.localeCompare(b.id));
}
