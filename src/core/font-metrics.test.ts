// Advances read from the pinned font files themselves (DejaVu from fonts-dejavu-core, the
// chain's CJK face): known relations of DejaVu Sans's widths, a collection (.ttc), and a file
// that is missing or not a font knowing nothing rather than throwing.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fontMetrics } from './font-metrics.ts';
import { CHAIN_FILES, FONT_DIR } from './fonts.ts';

describe('font metrics', () => {
  it("reads DejaVu Sans's advances in em", () => {
    const sans = fontMetrics(join(FONT_DIR, 'DejaVuSans.ttf'));
    const bold = fontMetrics(join(FONT_DIR, 'DejaVuSans-Bold.ttf'));
    const em = (m: typeof sans, ch: string) => m.advance(ch.codePointAt(0)!)!;
    expect(em(sans, 'i')).toBeGreaterThan(0.2);
    expect(em(sans, 'i')).toBeLessThan(em(sans, 'm'));
    expect(em(sans, 'M')).toBeLessThan(1);
    expect(em(bold, 'M')).toBeGreaterThan(em(sans, 'M'));
    // Digits are tabular: one advance for all ten.
    expect(new Set([...'0123456789'].map((d) => em(sans, d))).size).toBe(1);
    expect(sans.advance(0xe000)).toBeUndefined();
    expect(sans.advance('漢'.codePointAt(0)!)).toBeUndefined();
  });

  it('reads the first face of a collection: CJK ideographs one em wide', () => {
    const wqy = CHAIN_FILES.find((f) => f.endsWith('.ttc'));
    if (!wqy) return; // the chain is not installed here: missing_glyphs says so elsewhere
    expect(fontMetrics(wqy).advance('漢'.codePointAt(0)!)).toBeCloseTo(1, 2);
  });

  it('knows nothing of a missing file or one that is not a font', () => {
    const dir = mkdtempSync(join(tmpdir(), 'metrics-'));
    writeFileSync(join(dir, 'junk.ttf'), Buffer.from('not a font at all, just some bytes'));
    expect(fontMetrics(join(dir, 'junk.ttf')).advance(65)).toBeUndefined();
    expect(fontMetrics(join(dir, 'absent.ttf')).advance(65)).toBeUndefined();
  });
});
