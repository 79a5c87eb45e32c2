// In-process CLIP on onnxruntime-node through @huggingface/transformers, loaded from a model
// folder on disk laid out like Xenova/clip-vit-large-patch14 (onnx/text_model.onnx,
// onnx/vision_model.onnx, config.json, tokenizer.json, tokenizer_config.json,
// preprocessor_config.json). Embeddings come back L2-normalised, ready for cosines and for
// the LAION aesthetic head, which was trained on normalised ViT-L/14 image embeddings.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import pLimit from 'p-limit';
import { type ErrorValue, makeError, RubricaError } from '../core/errors.ts';
import { importOptional } from '../core/optional-module.ts';
import { BoundedCache } from './bounded-cache.ts';
import type { ScorerErrorCode } from './types.ts';

/** Where the CLIP model files are, whether downloading is allowed, batch and cache sizes. */
export interface ClipModelOptions {
  /** Folder holding the model files (or, with allowRemote, a Hugging Face model id). */
  model: string;
  /**
   * Let transformers.js download from the Hugging Face hub when the files are not on disk.
   * Off by default: rubrica never fetches weights unless the user asks.
   */
  allowRemote?: boolean;
  /** Images per vision forward pass; default 8. */
  batchSize?: number;
  /** Cached embeddings (images and texts each); default 1024. */
  cacheEntries?: number;
}

export type Embedding = Float32Array;
export type EmbedResult =
  | { ok: true; embedding: Embedding }
  | { ok: false; error: ErrorValue<ScorerErrorCode> };

/**
 * A loaded CLIP model: unit-length embeddings of pictures and texts, cached; close it to free
 * the ONNX sessions.
 */
export interface ClipModel {
  readonly id: string;
  readonly dim: number;
  /** Work done so far (forward passes, pictures and texts embedded): for tests and benches. */
  readonly stats: { imagesEmbedded: number; visionPasses: number; textsEmbedded: number };
  embedImages(pngs: Buffer[]): Promise<EmbedResult[]>;
  embedTexts(texts: string[]): Promise<Embedding[]>;
  close(): Promise<void>;
}

type Transformers = typeof import('@huggingface/transformers');
type TensorLike = { data: ArrayLike<number>; dims: number[] };

export function l2normalize(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  const norm = Math.sqrt(n) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / norm;
  return out;
}

function rows(t: TensorLike): Float32Array[] {
  const [n, d] = [t.dims[0] ?? 0, t.dims[1] ?? 0];
  const out: Float32Array[] = [];
  for (let i = 0; i < n; i++) out.push(l2normalize(Array.from(t.data).slice(i * d, (i + 1) * d)));
  return out;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Loads the four parts of a CLIP model. Throws a ErrorValue-shaped `ClipLoadError` when the
 * folder is missing or incomplete: that is a configuration mistake, reported before scoring.
 * Throws `MissingDependencyError` when @huggingface/transformers (an optional peer
 * dependency) is not installed.
 * @example
 * ```ts
 * const clip = await loadClipModel({ model: 'models/clip-vit-b32' });
 * const semantic = createClipSemanticScorer(clip);
 * ```
 */
// Long because the embedding caches, the in-flight map and the one-pass-at-a-time queue are
// state shared by embedImages and embedTexts; each closure is short.
export async function loadClipModel(opts: ClipModelOptions): Promise<ClipModel> {
  const tf = await importOptional<Transformers>(
    '@huggingface/transformers',
    'CLIP scoring (--clip-model)',
    'npm install @huggingface/transformers@4.3.2',
  );
  const allowRemote = opts.allowRemote === true;
  tf.env.allowRemoteModels = allowRemote;
  tf.env.allowLocalModels = true;
  // A folder that exists is always used from disk; otherwise, with allowRemote, the string is a
  // Hugging Face model id (e.g. Xenova/clip-vit-large-patch14) fetched into the library cache.
  const onDisk = existsSync(opts.model) || isAbsolute(opts.model) || opts.model.startsWith('.');
  const id = allowRemote && !onDisk ? opts.model : resolve(opts.model);
  let parts: Awaited<ReturnType<typeof loadParts>>;
  try {
    parts = await loadParts(tf, id);
  } catch (err) {
    throw new ClipLoadError(id, err);
  }
  const { tokenizer, processor, textModel, visionModel } = parts;
  const batchSize = Math.max(1, opts.batchSize ?? 8);
  const images = new BoundedCache<string, Embedding>(opts.cacheEntries ?? 1024);
  const texts = new BoundedCache<string, Embedding>(opts.cacheEntries ?? 1024);
  const pending = new Map<string, Promise<Embedding | Error>>();
  const stats = { imagesEmbedded: 0, visionPasses: 0, textsEmbedded: 0 };
  // One forward pass at a time: onnxruntime already spreads a pass over the cores, and
  // overlapping passes only add memory.
  const queue = pLimit(1);
  let dim = 0;

  async function embedImageBatch(pngs: Buffer[]): Promise<Embedding[]> {
    const raws = await Promise.all(pngs.map((p) => tf.RawImage.fromBlob(new Blob([p]))));
    const inputs = await processor(raws);
    const out = (await visionModel(inputs)) as { image_embeds: TensorLike };
    stats.visionPasses++;
    stats.imagesEmbedded += pngs.length;
    return rows(out.image_embeds);
  }

  const model: ClipModel = {
    id,
    get dim() {
      return dim;
    },
    stats,
    async embedImages(pngs) {
      const keys = pngs.map(sha256);
      const waits = new Map<string, Promise<Embedding | Error>>();
      const fresh: string[] = [];
      const pngOf = new Map<string, Buffer>();
      keys.forEach((key, i) => {
        if (waits.has(key) || pngOf.has(key)) return;
        const hit = images.get(key);
        // The semantic and aesthetic scorers ask for the same pictures at the same time:
        // a picture already on its way through the vision tower is waited for, not redone.
        const inFlight = pending.get(key);
        if (hit) waits.set(key, Promise.resolve(hit));
        else if (inFlight) waits.set(key, inFlight);
        else {
          fresh.push(key);
          pngOf.set(key, pngs[i]!);
        }
      });
      for (let start = 0; start < fresh.length; start += batchSize) {
        const chunk = fresh.slice(start, start + batchSize);
        const chunkPngs = chunk.map((k) => pngOf.get(k)!);
        const run = queue(() => embedImageBatch(chunkPngs)).catch(async () =>
          // One undecodable PNG fails the whole batch: retry one by one to isolate it.
          Promise.all(
            chunkPngs.map((p) =>
              queue(() => embedImageBatch([p])).then(
                (e) => e[0]!,
                (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
              ),
            ),
          ),
        );
        chunk.forEach((key, j) => {
          const one = run.then((embs): Embedding | Error => {
            const e = embs[j]!;
            if (!(e instanceof Error)) {
              images.set(key, e);
              dim = e.length;
            }
            pending.delete(key);
            return e;
          });
          pending.set(key, one);
          waits.set(key, one);
        });
      }
      const done = await Promise.all(keys.map((k) => waits.get(k)!));
      return done.map((e): EmbedResult => {
        if (!(e instanceof Error)) return { ok: true, embedding: e };
        const code = /input|image|format|unsupported/i.test(e.message) ? 'bad_image' : 'inference';
        return { ok: false, error: makeError(code, e.message) };
      });
    },
    async embedTexts(list) {
      const found = new Map<string, Embedding>();
      for (const t of list) {
        const hit = texts.get(t);
        if (hit) found.set(t, hit);
      }
      const missing = [...new Set(list.filter((t) => !found.has(t)))];
      if (missing.length > 0) {
        const embs = await queue(async () => {
          const inputs = tokenizer(missing, { padding: true, truncation: true });
          // transformers.js feeds the session only the inputs it declares (some CLIP exports
          // have no attention_mask: they pool at the end-of-text token).
          const out = (await textModel(inputs)) as { text_embeds: TensorLike };
          return rows(out.text_embeds);
        });
        stats.textsEmbedded += missing.length;
        missing.forEach((t, i) => {
          texts.set(t, embs[i]!);
          found.set(t, embs[i]!);
          dim = embs[i]!.length;
        });
      }
      return list.map((t) => found.get(t)!);
    },
    async close() {
      await Promise.allSettled([textModel.dispose(), visionModel.dispose()]);
    },
  };
  return model;
}

async function loadParts(tf: Transformers, id: string) {
  const [tokenizer, processor, textModel, visionModel] = await Promise.all([
    tf.AutoTokenizer.from_pretrained(id),
    tf.AutoProcessor.from_pretrained(id),
    tf.CLIPTextModelWithProjection.from_pretrained(id),
    tf.CLIPVisionModelWithProjection.from_pretrained(id),
  ]);
  return { tokenizer, processor, textModel, visionModel };
}

/**
 * The CLIP model folder could not be loaded (code `model_load`); the message names the files
 * expected.
 */
export class ClipLoadError extends RubricaError<'model_load'> {
  constructor(model: string, cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      'model_load',
      `could not load the CLIP model from ${model}: ${why}. Expected a folder with ` +
        'onnx/text_model.onnx, onnx/vision_model.onnx, config.json, tokenizer.json, ' +
        'tokenizer_config.json and preprocessor_config.json (Xenova/clip-vit-large-patch14 layout).',
      { cause },
    );
  }
}
