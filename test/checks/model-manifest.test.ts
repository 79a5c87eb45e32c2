// The model-written scene set (test/fixtures/scenes-model, issue 40) is well formed and has
// the shape of the outside test: 10 short prompts and 20 long scene specs of 80–200
// words, two answers to each, every answer a complete SVG on `viewBox 0 0 500 500` of the size
// real answers have, every item labelled with a known background kind and what was seen, and
// about a third of the items wrong on purpose (cut, or a deliberate close-up). No rendering
// here (model-scenes.slow.test.ts renders them).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_DIR, modelPrompts, modelSceneManifest, modelScenes } from './model-scenes.ts';

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
];
const TRUTHS = ['whole', 'cut', 'close-up'];

describe('model-written scenes: the manifest', () => {
  const { files } = modelSceneManifest();
  const prompts = modelPrompts();

  it('has 10 short prompts and 20 long scene specs of 80 to 200 words', () => {
    const ids = Object.keys(prompts);
    const words = (id: string) => prompts[id]!.trim().split(/\s+/).length;
    expect(ids.filter((id) => id.startsWith('s')).length).toBe(10);
    expect(ids.filter((id) => id.startsWith('l')).length).toBe(20);
    for (const id of ids) {
      if (id.startsWith('s')) expect(words(id), id).toBeLessThan(15);
      else {
        expect(words(id), id).toBeGreaterThanOrEqual(80);
        expect(words(id), id).toBeLessThanOrEqual(200);
      }
    }
  });

  it('lists every SVG in the folder, two answers per prompt, each labelled', () => {
    const svgs = readdirSync(MODEL_DIR).filter((f) => f.endsWith('.svg'));
    expect(svgs.sort()).toEqual(Object.keys(files).sort());
    for (const id of Object.keys(prompts))
      expect(Object.values(files).filter((e) => e.prompt === id).length, id).toBe(2);
    for (const [file, e] of Object.entries(files)) {
      expect(file.startsWith(`${e.prompt}-`), file).toBe(true);
      expect(KINDS, file).toContain(e.background);
      expect(TRUTHS, file).toContain(e.truth);
      // A cut says whether a subject or text runs off; nothing else does.
      if (e.truth === 'cut') expect(['subject', 'text'], file).toContain(e.what);
      else expect(e.what, file).toBeUndefined();
      expect(e.seen.trim().length, file).toBeGreaterThan(40);
      expect(e.seen, file).not.toMatch(/TODO/);
    }
  });

  it('holds complete SVG answers on viewBox 0 0 500 500, 1 to 12 KB each', () => {
    for (const file of Object.keys(files)) {
      const svg = readFileSync(join(MODEL_DIR, file), 'utf8');
      expect(svg, file).toMatch(/^<svg\b[^>]*\bviewBox="0 0 500 500"/);
      expect(svg.trimEnd().endsWith('</svg>'), file).toBe(true);
      const size = statSync(join(MODEL_DIR, file)).size;
      expect(size > 1000 && size < 12_000, `${file}: ${size} bytes`).toBe(true);
    }
  });

  it('makes about a third of the items wrong on purpose, text cuts and close-ups among them', () => {
    const items = modelScenes();
    expect(items.length).toBe(60);
    const truths = Object.values(files);
    const cut = truths.filter((e) => e.truth === 'cut');
    const closeUps = truths.filter((e) => e.truth === 'close-up');
    expect(cut.length + closeUps.length).toBeGreaterThanOrEqual(15);
    expect(cut.length + closeUps.length).toBeLessThanOrEqual(30);
    expect(cut.filter((e) => e.what === 'text').length).toBeGreaterThanOrEqual(4);
    expect(closeUps.length).toBeGreaterThanOrEqual(3);
    // Each item carries its prompt's text, so the prompt-aware checks see the real prompt.
    for (const s of items) expect(s.prompt, s.id).toBe(prompts[files[s.id.slice(6)]!.prompt]);
  });
});
