// The two in-process image scorers built on one CLIP model: semantic alignment (cosine of the
// normalised image and prompt embeddings, as Reason-SVG's R_semantic and the papers'
// CLIPScore: no ×100, no clamp) and the LAION aesthetic predictor on the image embedding.
import { RubricaError } from '../core/errors.ts';
import { type AffineHead, applyHead } from './aesthetic-head.ts';
import type { ClipModel } from './clip-model.ts';
import { type ImageScorer, type ScorerResult, scorerError } from './types.ts';

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * Image–prompt alignment as the cosine of their CLIP embeddings (the hybrid reward's semantic
 * term, as in Reason-SVG). Inference failures come back as per-item error values.
 */
export function createClipSemanticScorer(model: ClipModel): ImageScorer {
  return {
    name: 'clip',
    async score(images, prompts) {
      if (images.length !== prompts.length)
        throw new RubricaError('scorer_input_mismatch', 'images and prompts differ in length');
      try {
        const [imgs, texts] = await Promise.all([
          model.embedImages(images),
          model.embedTexts(prompts),
        ]);
        return imgs.map(
          (r, i): ScorerResult =>
            r.ok ? { ok: true, value: dot(r.embedding, texts[i]!) } : { ok: false, error: r.error },
        );
      } catch (err) {
        return images.map(() => scorerError('inference', (err as Error).message));
      }
    },
  };
}

/** LAION improved aesthetic predictor: raw scores live on roughly 1–10. */
export function createLaionAestheticScorer(model: ClipModel, head: AffineHead): ImageScorer {
  return {
    name: 'laion-aesthetic',
    range: [1, 10],
    async score(images) {
      try {
        const imgs = await model.embedImages(images);
        return imgs.map((r): ScorerResult => {
          if (!r.ok) return { ok: false, error: r.error };
          if (r.embedding.length !== head.w.length)
            return scorerError(
              'model_load',
              `aesthetic head takes ${head.w.length}-d embeddings, CLIP gives ${r.embedding.length}-d`,
            );
          return { ok: true, value: applyHead(head, r.embedding) };
        });
      } catch (err) {
        return images.map(() => scorerError('inference', (err as Error).message));
      }
    },
  };
}
