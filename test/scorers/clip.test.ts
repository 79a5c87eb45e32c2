// The in-process CLIP and LAION-aesthetic scorers, run through the real transformers.js +
// onnxruntime-node path on a tiny CLIP-shaped model this test writes to disk, and checked
// against the same maths done by hand from the known weights.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAestheticHead } from '../../src/scorers/aesthetic-head.ts';
import { ClipLoadError, type ClipModel, loadClipModel } from '../../src/scorers/clip-model.ts';
import {
  createClipSemanticScorer,
  createLaionAestheticScorer,
} from '../../src/scorers/clip-scorers.ts';
import {
  cosine,
  handImageEmbed,
  handTextEmbed,
  type TinyClipSpec,
  writeTinyClip,
} from './support/tiny-clip.ts';

const S = 16;
// Words point along the colour features they name, so "red" prompts match red pictures.
const spec: TinyClipSpec = {
  words: {
    a: [0.2, 0.2, 0.2, 0],
    red: [1, 0, 0, 0],
    apple: [0.9, 0.2, 0, 0.1],
    blue: [0, 0, 1, 0],
    sky: [0.1, 0.3, 1, 0],
    stripes: [0.3, 0.3, 0.3, 1],
  },
  hidden: 4,
  dim: 4,
  // A mixing projection, so the test is not just the identity.
  textProjection: [1, 0.2, 0, 0, 0, 1, 0.1, 0, 0, 0, 1, 0.3, 0.1, 0, 0, 1],
  visionProjection: [1, 0.2, 0, 0, 0, 1, 0.1, 0, 0, 0, 1, 0.3, 0.1, 0, 0, 1],
  imageSize: S,
  imageMean: [0.48145466, 0.4578275, 0.40821073],
  imageStd: [0.26862954, 0.26130258, 0.27577711],
};

function rgb(fill: (x: number, y: number) => [number, number, number]): Uint8Array {
  const out = new Uint8Array(S * S * 3);
  for (let y = 0; y < S; y++) {
    for (let x = 0; x < S; x++) out.set(fill(x, y), (y * S + x) * 3);
  }
  return out;
}
const png = (raw: Uint8Array) =>
  sharp(Buffer.from(raw), { raw: { width: S, height: S, channels: 3 } })
    .png()
    .toBuffer();

const RED = rgb(() => [220, 30, 20]);
const BLUE = rgb(() => [30, 60, 230]);
const STRIPES = rgb((x) => (x % 2 === 0 ? [0, 0, 0] : [255, 255, 255]));

let dir: string;
let model: ClipModel;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rubrica-clip-'));
  writeTinyClip(join(dir, 'tiny-clip'), spec);
  model = await loadClipModel({ model: join(dir, 'tiny-clip') });
});
afterAll(async () => {
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('CLIP semantic scorer', () => {
  it('equals the cosine of the hand-computed embeddings', async () => {
    const scorer = createClipSemanticScorer(model);
    const images = [await png(RED), await png(BLUE), await png(STRIPES), await png(RED)];
    const prompts = ['a red apple', 'a blue sky', 'stripes', 'Blue sky!'];
    const results = await scorer.score(images, prompts);
    const raws = [RED, BLUE, STRIPES, RED];
    results.forEach((r, i) => {
      expect(r.ok).toBe(true);
      const want = cosine(handImageEmbed(spec, raws[i]!), handTextEmbed(spec, prompts[i]!));
      expect(r.ok && r.value).toBeCloseTo(want, 5);
    });
    expect(model.dim).toBe(4);
  });

  it('scores a matched picture above a mismatched one (weights designed for it)', async () => {
    const scorer = createClipSemanticScorer(model);
    const red = await png(RED);
    const [match, mismatch] = await scorer.score([red, red], ['a red apple', 'a blue sky']);
    expect(match?.ok && mismatch?.ok).toBe(true);
    if (match?.ok && mismatch?.ok) expect(match.value).toBeGreaterThan(mismatch.value + 0.2);
  });

  it('reports an undecodable image as that item’s error and scores the rest', async () => {
    const scorer = createClipSemanticScorer(model);
    const results = await scorer.score(
      [await png(RED), Buffer.from('not a png at all'), await png(BLUE)],
      ['red', 'red', 'blue'],
    );
    expect(results[0]?.ok).toBe(true);
    expect(results[1]).toMatchObject({ ok: false, error: { code: 'bad_image' } });
    expect(results[2]?.ok).toBe(true);
  });

  it('works with a text tower exported without attention_mask', async () => {
    const idsOnly = await loadClipModel({
      model: writeTinyClip(join(dir, 'ids-only'), { ...spec, textInputs: 'ids-only' }),
    });
    try {
      const [r] = await createClipSemanticScorer(idsOnly).score([await png(RED)], ['a red apple']);
      const want = cosine(handImageEmbed(spec, RED), handTextEmbed(spec, 'a red apple'));
      expect(r?.ok && r.value).toBeCloseTo(want, 5);
    } finally {
      await idsOnly.close();
    }
  });

  it('embeds each picture once when the semantic and aesthetic scorers ask together', async () => {
    const fresh = await loadClipModel({ model: join(dir, 'tiny-clip'), batchSize: 2 });
    try {
      const head = parseAestheticHead({ w: [1, 0, 0, 0], b: 2 });
      if (!head.ok) throw new Error(head.error.message);
      const sem = createClipSemanticScorer(fresh);
      const aes = createLaionAestheticScorer(fresh, head.head);
      const imgs = [await png(RED), await png(BLUE), await png(STRIPES), await png(RED)];
      const prompts = ['a red apple', 'a red apple', 'stripes', 'a red apple'];
      const [a, b] = await Promise.all([sem.score(imgs, prompts), aes.score(imgs, prompts)]);
      expect([...a, ...b].every((r) => r.ok)).toBe(true);
      // Three distinct pictures, batches of two: two forward passes, no picture twice.
      expect(fresh.stats).toEqual({ imagesEmbedded: 3, visionPasses: 2, textsEmbedded: 2 });
      await sem.score(imgs, prompts);
      expect(fresh.stats.imagesEmbedded).toBe(3); // served from the cache
    } finally {
      await fresh.close();
    }
  });

  it('refuses a missing model folder with model_load and never goes to the network', async () => {
    const err = await loadClipModel({ model: join(dir, 'no-such-model') }).catch((e) => e);
    expect(err).toBeInstanceOf(ClipLoadError);
    expect((err as ClipLoadError).code).toBe('model_load');
    expect((err as Error).message).toContain('onnx/vision_model.onnx');
  });
});

// A 4→6→3→1 stack of linear layers, like LAION's 768→1024→128→64→16→1 without activations.
const L1 = {
  w: [
    [0.5, -0.2, 0.1, 0.3],
    [0.1, 0.4, -0.3, 0.2],
    [0, 0.2, 0.2, -0.1],
    [0.3, 0.3, 0.3, 0.3],
    [-0.5, 0.1, 0, 0.2],
    [0.2, -0.1, 0.4, 0],
  ],
  b: [0.1, -0.2, 0.05, 0, 0.3, -0.1],
};
const L2 = {
  w: [
    [0.2, 0.1, -0.3, 0.5, 0.1, 0],
    [-0.1, 0.3, 0.2, 0, 0.4, 0.2],
    [0.3, -0.2, 0.1, 0.1, 0, 0.5],
  ],
  b: [0.5, -0.5, 0.2],
};
const L3 = { w: [[2, -1.5, 3]], b: [5.5] };

function forwardByHand(e: number[]): number {
  let x = e;
  for (const l of [L1, L2, L3])
    x = l.w.map((row, o) => row.reduce((s, w, i) => s + w * x[i]!, l.b[o]!));
  return x[0]!;
}
const l2 = (v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

describe('LAION aesthetic head', () => {
  const layered = { layers: [L1, L2, L3].map((l) => ({ weight: l.w, bias: l.b })) };
  const stateDict = {
    'layers.0.weight': L1.w,
    'layers.0.bias': L1.b,
    'layers.2.weight': L2.w,
    'layers.2.bias': L2.b,
    'layers.7.weight': L3.w,
    'layers.7.bias': L3.b,
  };

  it('collapses a layer stack into one affine map that equals the layer-by-layer forward pass', async () => {
    for (const json of [layered, stateDict]) {
      const parsed = parseAestheticHead(json);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      expect(parsed.head).toMatchObject({ source: 'layers', layers: 3 });
      const scorer = createLaionAestheticScorer(model, parsed.head);
      expect(scorer.range).toEqual([1, 10]);
      const results = await scorer.score([await png(RED), await png(STRIPES)], ['x', 'y']);
      [RED, STRIPES].forEach((raw, i) => {
        const want = forwardByHand(l2(handImageEmbed(spec, raw)));
        const r = results[i]!;
        expect(r.ok && r.value).toBeCloseTo(want, 5);
      });
    }
  });

  it('accepts the collapsed {w, b} form and rejects malformed files with a reason', async () => {
    const parsed = parseAestheticHead({ w: [1, 0, 0, 0], b: 2 });
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      const [r] = await createLaionAestheticScorer(model, parsed.head).score(
        [await png(RED)],
        [''],
      );
      expect(r?.ok && r.value).toBeCloseTo(2 + l2(handImageEmbed(spec, RED))[0]!, 5);
    }
    expect(parseAestheticHead({ layers: [{ weight: [[1, 2]], bias: [0, 1] }] })).toMatchObject({
      ok: false,
      error: { code: 'bad_weights' },
    });
    expect(parseAestheticHead({ nothing: 1 })).toMatchObject({ ok: false });
    const wrongDim = parseAestheticHead({ w: new Array(768).fill(0.01), b: 5 });
    if (!wrongDim.ok) throw new Error('expected ok');
    const [r] = await createLaionAestheticScorer(model, wrongDim.head).score(
      [await png(RED)],
      [''],
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'model_load' } });
  });

  it('loads a weights file from disk', async () => {
    const { loadAestheticHead } = await import('../../src/scorers/aesthetic-head.ts');
    const file = join(dir, 'head.json');
    writeFileSync(file, JSON.stringify(stateDict));
    expect(loadAestheticHead(file).ok).toBe(true);
    expect(loadAestheticHead(join(dir, 'missing.json'))).toMatchObject({ ok: false });
  });
});
