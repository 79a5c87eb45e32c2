// The held-out scene set (test/fixtures/scenes-holdout, issue 40 item 2) is well formed and
// stays apart from the set `clipped` was tuned on: every vendored file is there, comes from a
// drawing neither test/fixtures/scenes nor test/fixtures/openclipart holds, and says what it is
// and why it has its label; every crop names a vendored file and a real part of its frame; and
// there are enough cut and not-cut items for a rate to mean something. No rendering here (the
// slow test renders them).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOLDOUT_DIR, holdoutManifest, holdoutScenes } from './holdout-scenes.ts';
import { realSceneManifest } from './real-scenes.ts';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures');
const KINDS = [
  'bands',
  'gradient',
  'radial',
  'flat',
  'dark',
  'night',
  'pattern',
  'texture',
  'architecture',
  'portrait',
];
const TRUTHS = ['whole', 'cut', 'close-up'];

describe('held-out real scenes: the manifest', () => {
  const { files, cuts } = holdoutManifest();

  it('vendors every file it lists, labelled, with a known background kind', () => {
    const svgs = readdirSync(HOLDOUT_DIR).filter((f) => f.endsWith('.svg'));
    expect(svgs.sort()).toEqual(Object.keys(files).sort());
    for (const [file, e] of Object.entries(files)) {
      expect(KINDS, file).toContain(e.background);
      expect(TRUTHS, file).toContain(e.truth);
      expect(e.prompt.trim().length, file).toBeGreaterThan(10);
      expect(e.seen.trim().length, file).toBeGreaterThan(20);
      expect(`${e.prompt} ${e.seen}`, file).not.toMatch(/TODO/);
      expect(readFileSync(join(HOLDOUT_DIR, file), 'utf8'), file).toMatch(/<svg\b[^>]*viewBox=/);
    }
  });

  it('holds no drawing of the tuned-on sets', () => {
    const sources = Object.values(files).map((e) => e.source);
    expect(new Set(sources).size).toBe(sources.length);
    const tuned = new Set(Object.values(realSceneManifest().files).map((e) => e.source));
    // test/fixtures/openclipart names its files by their package path, '/' written '__'.
    const labelled = new Set(
      readdirSync(join(FIXTURES, 'openclipart')).map((f) => f.replaceAll('__', '/')),
    );
    // The package holds some drawings twice under two folders: compare the names too.
    const names = new Set([...tuned, ...labelled].map((p) => basename(p)));
    for (const s of sources) {
      expect(tuned.has(s), s).toBe(false);
      expect(labelled.has(s), s).toBe(false);
      expect(names.has(basename(s)), s).toBe(false);
    }
  });

  it('crops a vendored file to a real part of its frame, each labelled', () => {
    for (const [name, c] of Object.entries(cuts)) {
      expect(Object.keys(files), name).toContain(c.of);
      const [x0, y0, x1, y1] = c.crop;
      expect(0 <= x0 && x0 < x1 && x1 <= 1 && 0 <= y0 && y0 < y1 && y1 <= 1, name).toBe(true);
      expect(TRUTHS, name).toContain(c.truth ?? 'cut');
      expect(c.seen.trim().length, name).toBeGreaterThan(20);
    }
  });

  // The render canvas is square and a non-square viewBox is fitted into it with margins in
  // which whatever lies outside the viewBox is drawn: only a square frame renders as the crop
  // that was labelled.
  it('frames every file and every crop square, so the render is the labelled crop', () => {
    const frame = (file: string) =>
      (/\sviewBox="([^"]+)"/.exec(readFileSync(join(HOLDOUT_DIR, file), 'utf8'))?.[1] ?? '')
        .split(/[\s,]+/)
        .map(Number);
    const square = (w: number, h: number) => Math.abs(w - h) / Math.max(w, h) < 0.01;
    for (const file of Object.keys(files)) {
      const [, , w, h] = frame(file);
      expect(square(w!, h!), file).toBe(true);
    }
    for (const [name, c] of Object.entries(cuts)) {
      const [, , w, h] = frame(c.of);
      const [x0, y0, x1, y1] = c.crop;
      expect(square((x1 - x0) * w!, (y1 - y0) * h!), name).toBe(true);
    }
  });

  it('has at least 40 cut and 40 not-cut items, and stays small', () => {
    const items = holdoutScenes();
    expect(items.filter((s) => s.cut).length).toBeGreaterThanOrEqual(40);
    expect(items.filter((s) => !s.cut).length).toBeGreaterThanOrEqual(40);
    const bytes = readdirSync(HOLDOUT_DIR).reduce(
      (n, f) => n + statSync(join(HOLDOUT_DIR, f)).size,
      0,
    );
    expect(bytes).toBeLessThan(3_000_000);
  });
});
