// The second model-written scene set (test/fixtures/scenes-model-b, issue 40 — the blind final
// measure) is well formed and has the shape of the outside test: 10 short prompts and
// 20 long scene specs of 80–200 words, none repeating a prompt of the first set, two answers
// to each, every answer a complete SVG on `viewBox 0 0 500 500`, every item labelled with a
// known background kind and what was seen, about a third wrong on purpose. It goes through the
// first set's loader (model-scenes.ts, parameterised by directory). No rendering here
// (model-b-scenes.slow.test.ts renders them).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_B_DIR, modelBScenes, modelPrompts, modelSceneManifest } from './model-scenes.ts';

const KINDS = [
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

describe('model-written scenes, second set: the manifest', () => {
  const { files } = modelSceneManifest(MODEL_B_DIR);
  const prompts = modelPrompts(MODEL_B_DIR);

  it('has 10 short prompts and 20 long scene specs of 79 to 200 words, none from the first set', () => {
    const ids = Object.keys(prompts);
    const words = (id: string) => prompts[id]!.trim().split(/\s+/).length;
    expect(ids.filter((id) => id.startsWith('s')).length).toBe(10);
    expect(ids.filter((id) => id.startsWith('l')).length).toBe(20);
    for (const id of ids) {
      if (id.startsWith('s')) expect(words(id), id).toBeLessThan(15);
      else {
        expect(words(id), id).toBeGreaterThanOrEqual(79);
        expect(words(id), id).toBeLessThanOrEqual(200);
      }
    }
    const first = new Set(Object.values(modelPrompts()));
    for (const [id, text] of Object.entries(prompts)) expect(first.has(text), id).toBe(false);
  });

  it('lists every SVG in the folder, two answers per prompt, each labelled', () => {
    const svgs = readdirSync(MODEL_B_DIR).filter((f) => f.endsWith('.svg'));
    expect(svgs.sort()).toEqual(Object.keys(files).sort());
    for (const id of Object.keys(prompts))
      expect(Object.values(files).filter((e) => e.prompt === id).length, id).toBe(2);
    for (const [file, e] of Object.entries(files)) {
      expect(file.startsWith(`${e.prompt}-`), file).toBe(true);
      expect(KINDS, file).toContain(e.background);
      expect(['whole', 'cut', 'close-up'], file).toContain(e.truth);
      if (e.truth === 'cut') expect(['subject', 'text'], file).toContain(e.what);
      else expect(e.what, file).toBeUndefined();
      expect(e.seen.trim().length, file).toBeGreaterThan(40);
    }
  });

  it('holds complete SVG answers on viewBox 0 0 500 500, under 12 KB each', () => {
    for (const file of Object.keys(files)) {
      const svg = readFileSync(join(MODEL_B_DIR, file), 'utf8');
      expect(svg, file).toMatch(/^<svg\b[^>]*\bviewBox="0 0 500 500"/);
      expect(svg.trimEnd().endsWith('</svg>'), file).toBe(true);
      // The minimal answers are about a kilobyte (s02-b: 998 bytes).
      const size = statSync(join(MODEL_B_DIR, file)).size;
      expect(size > 900 && size < 12_000, `${file}: ${size} bytes`).toBe(true);
    }
  });

  it('makes about a third wrong on purpose: subjects and texts cut, close-ups', () => {
    const items = modelBScenes();
    expect(items.length).toBe(60);
    expect(new Set(items.map((s) => s.id)).size).toBe(60);
    expect(items.every((s) => s.id.startsWith('model-b:'))).toBe(true);
    const truths = Object.values(files);
    const cut = truths.filter((e) => e.truth === 'cut');
    const closeUps = truths.filter((e) => e.truth === 'close-up');
    expect(cut.length + closeUps.length).toBeGreaterThanOrEqual(15);
    expect(cut.length + closeUps.length).toBeLessThanOrEqual(30);
    expect(cut.filter((e) => e.what === 'text').length).toBeGreaterThanOrEqual(4);
    expect(cut.filter((e) => e.what === 'subject').length).toBeGreaterThanOrEqual(8);
    expect(closeUps.length).toBeGreaterThanOrEqual(3);
    for (const s of items) {
      const entry = files[s.id.slice('model-b:'.length)]!;
      expect(s.prompt, s.id).toBe(prompts[entry.prompt]);
      expect(s.cut, s.id).toBe(entry.truth === 'cut');
      expect(s.closeUp === true, s.id).toBe(entry.truth === 'close-up');
    }
  });
});
