// The shape every model-written scene set (issue 40) must have, as one parameterised suite:
// model-manifest.test.ts, model-b-manifest.test.ts, model-c-manifest.test.ts,
// model-d-manifest.test.ts, model-e-manifest.test.ts, model-f-manifest.test.ts,
// model-g-manifest.test.ts, model-h-manifest.test.ts, model-i-manifest.test.ts,
// model-j-manifest.test.ts and model-k-manifest.test.ts each call it with their folder. A set
// is the outside test in miniature: 10 short prompts and 20 long scene specs of 79–200
// words (the fourth set: 8 and 12, `prompts`), none repeating a prompt of an earlier set, two answers to each, every answer a complete SVG on
// `viewBox 0 0 500 500`, every item labelled with a known background kind and what was seen,
// about a third wrong on purpose (subjects and texts cut, close-ups). It goes through the first
// set's loader (model-scenes.ts, parameterised by directory). No rendering here (the slow tests
// render them).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelPrompts, modelSceneManifest, modelScenes } from './model-scenes.ts';

/** The background kinds an item of a model-written set may be measured under. */
export const MODEL_SET_KINDS = [
  'gradient',
  'rays',
  'bokeh',
  'glow',
  'texture',
  'wall',
  'ground',
  'water',
  'night',
  'drape',
  'columns',
  'portrait',
  'plain',
];

export interface ModelSetShape {
  /** Named in the suite's title: "second set", "third set". */
  name: string;
  /** The set's folder (PROMPTS.json, MANIFEST.json, the SVGs). */
  dir: string;
  /** Its ids' prefix in the bench (`model-b`, `model-c`). */
  set: string;
  /** Folders of the earlier sets, whose prompts this one must not repeat. */
  earlier: string[];
  /** Bounds on an answer's size in bytes, exclusive. */
  bytes: [number, number];
  /** How many short and long prompts the set has (10 and 20 unless given). */
  prompts?: { short: number; long: number };
}

export function describeModelSet({
  name,
  dir,
  set,
  earlier,
  bytes,
  prompts: counts = { short: 10, long: 20 },
}: ModelSetShape): void {
  // Two answers per prompt; the floors and ceilings of the wrong ones scale with the set (for
  // 60 items: 15 to 30 wrong, at least 4 texts, 8 subjects and 3 close-ups).
  const n = 2 * (counts.short + counts.long);
  describe(`model-written scenes, ${name}: the manifest`, () => {
    const { files } = modelSceneManifest(dir);
    const prompts = modelPrompts(dir);

    it(`has ${counts.short} short prompts and ${counts.long} long scene specs of 79 to 200 words, none from an earlier set`, () => {
      const ids = Object.keys(prompts);
      const words = (id: string) => prompts[id]!.trim().split(/\s+/).length;
      expect(ids.filter((id) => id.startsWith('s')).length).toBe(counts.short);
      expect(ids.filter((id) => id.startsWith('l')).length).toBe(counts.long);
      for (const id of ids) {
        if (id.startsWith('s')) expect(words(id), id).toBeLessThan(15);
        else {
          expect(words(id), id).toBeGreaterThanOrEqual(79);
          expect(words(id), id).toBeLessThanOrEqual(200);
        }
      }
      const before = new Set(earlier.flatMap((d) => Object.values(modelPrompts(d))));
      for (const [id, text] of Object.entries(prompts)) expect(before.has(text), id).toBe(false);
    });

    it('lists every SVG in the folder, two answers per prompt, each labelled', () => {
      const svgs = readdirSync(dir).filter((f) => f.endsWith('.svg'));
      expect(svgs.sort()).toEqual(Object.keys(files).sort());
      for (const id of Object.keys(prompts))
        expect(Object.values(files).filter((e) => e.prompt === id).length, id).toBe(2);
      for (const [file, e] of Object.entries(files)) {
        expect(file.startsWith(`${e.prompt}-`), file).toBe(true);
        expect(MODEL_SET_KINDS, file).toContain(e.background);
        expect(['whole', 'cut', 'close-up'], file).toContain(e.truth);
        if (e.truth === 'cut') expect(['subject', 'text'], file).toContain(e.what);
        else expect(e.what, file).toBeUndefined();
        expect(e.seen.trim().length, file).toBeGreaterThan(40);
        expect(e.seen, file).not.toMatch(/TODO/);
      }
    });

    it(`holds complete SVG answers on viewBox 0 0 500 500, ${bytes[0]} to ${bytes[1]} bytes each`, () => {
      for (const file of Object.keys(files)) {
        const svg = readFileSync(join(dir, file), 'utf8');
        expect(svg, file).toMatch(/^<svg\b[^>]*\bviewBox="0 0 500 500"/);
        expect(svg.trimEnd().endsWith('</svg>'), file).toBe(true);
        const size = statSync(join(dir, file)).size;
        expect(size > bytes[0] && size < bytes[1], `${file}: ${size} bytes`).toBe(true);
      }
    });

    it('makes about a third wrong on purpose: subjects and texts cut, close-ups', () => {
      const items = modelScenes(dir, set);
      expect(items.length).toBe(n);
      expect(new Set(items.map((s) => s.id)).size).toBe(n);
      expect(items.every((s) => s.id.startsWith(`${set}:`))).toBe(true);
      const truths = Object.values(files);
      const cut = truths.filter((e) => e.truth === 'cut');
      const closeUps = truths.filter((e) => e.truth === 'close-up');
      expect(cut.length + closeUps.length).toBeGreaterThanOrEqual(n / 4);
      expect(cut.length + closeUps.length).toBeLessThanOrEqual(n / 2);
      expect(cut.filter((e) => e.what === 'text').length).toBeGreaterThanOrEqual(
        Math.floor(n / 15),
      );
      expect(cut.filter((e) => e.what === 'subject').length).toBeGreaterThanOrEqual(
        Math.floor((2 * n) / 15),
      );
      expect(closeUps.length).toBeGreaterThanOrEqual(Math.floor(n / 20));
      for (const s of items) {
        const entry = files[s.id.slice(set.length + 1)]!;
        expect(s.prompt, s.id).toBe(prompts[entry.prompt]);
        expect(s.cut, s.id).toBe(entry.truth === 'cut');
        expect(s.closeUp === true, s.id).toBe(entry.truth === 'close-up');
      }
    });
  });
}
