// Builds a tiny CLIP-shaped model folder on disk, laid out like Xenova/clip-vit-large-patch14
// (onnx/text_model.onnx, onnx/vision_model.onnx, config.json, tokenizer.json,
// tokenizer_config.json, preprocessor_config.json), so tests run the real
// transformers.js + onnxruntime-node loading and inference path with no download.
//
// Text tower:   input_ids → Gather(token table) → mean over attended tokens → × W_text.
// Vision tower: pixel_values → [mean R, mean G, mean B, mean |horizontal difference|] → × W_vision.
// The fourth image feature is an "edge density": a drawing made of many strokes has lots of
// it, which lets a test build a CLIP that (like the real one, per the RULER paper) rewards
// squiggle spam. `handTextEmbed` / `handImageFeatures` redo the same maths in plain JS.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  encodeModel,
  FLOAT,
  floatTensor,
  INT64,
  int64Tensor,
  node,
  valueInfo,
} from './onnx-graph.ts';

export interface TinyClipSpec {
  /** word → embedding (length `hidden`); lower-case words. */
  words: Record<string, number[]>;
  hidden: number;
  /** hidden × dim, row-major. */
  textProjection: number[];
  /** 4 × dim, row-major (features: R, G, B, edge density). */
  visionProjection: number[];
  dim: number;
  imageSize: number;
  imageMean: [number, number, number];
  imageStd: [number, number, number];
  /**
   * `ids-only` writes a text tower with no attention_mask input (plain mean over all tokens),
   * like exports of CLIP that pool at the end-of-text token; default `ids-and-mask`.
   */
  textInputs?: 'ids-and-mask' | 'ids-only';
}

export const PAD = '<pad>';
export const UNK = '<unk>';

/** Token ids: pad 0, unk 1, then the words in insertion order. */
export function vocabOf(spec: TinyClipSpec): Record<string, number> {
  const vocab: Record<string, number> = { [PAD]: 0, [UNK]: 1 };
  let id = 2;
  for (const w of Object.keys(spec.words)) vocab[w] = id++;
  return vocab;
}

function tokenTable(spec: TinyClipSpec): number[] {
  const zeros = new Array<number>(spec.hidden).fill(0);
  // <unk> gets a small constant vector so unknown words still count in the mean.
  const unk = new Array<number>(spec.hidden).fill(0.01);
  return [...zeros, ...unk, ...Object.values(spec.words).flat()];
}

function textGraph(spec: TinyClipSpec): Uint8Array {
  const V = Object.keys(spec.words).length + 2;
  if (spec.textInputs === 'ids-only') {
    return encodeModel({
      name: 'tiny_clip_text_ids_only',
      inputs: [valueInfo('input_ids', INT64, ['batch', 'seq'])],
      outputs: [valueInfo('text_embeds', FLOAT, ['batch', spec.dim])],
      initializers: [
        floatTensor('token_table', [V, spec.hidden], tokenTable(spec)),
        floatTensor('w_text', [spec.hidden, spec.dim], spec.textProjection),
      ],
      nodes: [
        node('Gather', ['token_table', 'input_ids'], ['tok'], [{ name: 'axis', i: 0 }]),
        node(
          'ReduceMean',
          ['tok'],
          ['pooled'],
          [
            { name: 'axes', ints: [1] },
            { name: 'keepdims', i: 0 },
          ],
        ),
        node('MatMul', ['pooled', 'w_text'], ['text_embeds']),
      ],
    });
  }
  return encodeModel({
    name: 'tiny_clip_text',
    inputs: [
      valueInfo('input_ids', INT64, ['batch', 'seq']),
      valueInfo('attention_mask', INT64, ['batch', 'seq']),
    ],
    outputs: [valueInfo('text_embeds', FLOAT, ['batch', spec.dim])],
    initializers: [
      floatTensor('token_table', [V, spec.hidden], tokenTable(spec)),
      floatTensor('w_text', [spec.hidden, spec.dim], spec.textProjection),
      int64Tensor('axis1', [1]),
      int64Tensor('axis2', [2]),
    ],
    nodes: [
      node('Gather', ['token_table', 'input_ids'], ['tok'], [{ name: 'axis', i: 0 }]),
      node('Cast', ['attention_mask'], ['maskf'], [{ name: 'to', i: FLOAT }]),
      node('Unsqueeze', ['maskf', 'axis2'], ['mask3']),
      node('Mul', ['tok', 'mask3'], ['masked']),
      node('ReduceSum', ['masked', 'axis1'], ['summed'], [{ name: 'keepdims', i: 0 }]),
      node('ReduceSum', ['mask3', 'axis1'], ['count'], [{ name: 'keepdims', i: 0 }]),
      node('Div', ['summed', 'count'], ['pooled']),
      node('MatMul', ['pooled', 'w_text'], ['text_embeds']),
    ],
  });
}

function visionGraph(spec: TinyClipSpec): Uint8Array {
  const S = spec.imageSize;
  return encodeModel({
    name: 'tiny_clip_vision',
    inputs: [valueInfo('pixel_values', FLOAT, ['batch', 3, S, S])],
    outputs: [valueInfo('image_embeds', FLOAT, ['batch', spec.dim])],
    initializers: [
      floatTensor('w_vision', [4, spec.dim], spec.visionProjection),
      int64Tensor('start0', [0]),
      int64Tensor('start1', [1]),
      int64Tensor('endS', [S]),
      int64Tensor('endS1', [S - 1]),
      int64Tensor('axis3', [3]),
      int64Tensor('axis1', [1]),
    ],
    nodes: [
      node(
        'ReduceMean',
        ['pixel_values'],
        ['chan'],
        [
          { name: 'axes', ints: [2, 3] },
          { name: 'keepdims', i: 0 },
        ],
      ),
      node('Slice', ['pixel_values', 'start1', 'endS', 'axis3'], ['right']),
      node('Slice', ['pixel_values', 'start0', 'endS1', 'axis3'], ['left']),
      node('Sub', ['right', 'left'], ['dx']),
      node('Abs', ['dx'], ['adx']),
      node(
        'ReduceMean',
        ['adx'],
        ['edge'],
        [
          { name: 'axes', ints: [1, 2, 3] },
          { name: 'keepdims', i: 0 },
        ],
      ),
      node('Unsqueeze', ['edge', 'axis1'], ['edge2']),
      node('Concat', ['chan', 'edge2'], ['features'], [{ name: 'axis', i: 1 }]),
      node('MatMul', ['features', 'w_vision'], ['image_embeds']),
    ],
  });
}

/** Writes the model folder and returns its path. */
export function writeTinyClip(dir: string, spec: TinyClipSpec): string {
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'text_model.onnx'), textGraph(spec));
  writeFileSync(join(dir, 'onnx', 'vision_model.onnx'), visionGraph(spec));
  const json = (name: string, v: unknown) =>
    writeFileSync(join(dir, name), JSON.stringify(v, null, 2));
  json('config.json', {
    architectures: ['CLIPModel'],
    model_type: 'clip',
    projection_dim: spec.dim,
    text_config: { model_type: 'clip_text_model', hidden_size: spec.hidden },
    vision_config: { model_type: 'clip_vision_model', image_size: spec.imageSize },
  });
  json('tokenizer.json', {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [
      {
        id: 0,
        content: PAD,
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: true,
      },
      {
        id: 1,
        content: UNK,
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: true,
      },
    ],
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: null,
    decoder: null,
    model: { type: 'WordLevel', vocab: vocabOf(spec), unk_token: UNK },
  });
  json('tokenizer_config.json', {
    tokenizer_class: 'CLIPTokenizer',
    pad_token: PAD,
    unk_token: UNK,
    model_max_length: 77,
  });
  json('preprocessor_config.json', {
    image_processor_type: 'CLIPImageProcessor',
    do_convert_rgb: true,
    do_resize: true,
    size: { shortest_edge: spec.imageSize },
    resample: 3,
    do_center_crop: true,
    crop_size: { height: spec.imageSize, width: spec.imageSize },
    do_rescale: true,
    rescale_factor: 1 / 255,
    do_normalize: true,
    image_mean: spec.imageMean,
    image_std: spec.imageStd,
  });
  return dir;
}

function matVec(v: number[], m: number[], cols: number): number[] {
  const out = new Array<number>(cols).fill(0);
  for (let i = 0; i < v.length; i++) {
    for (let j = 0; j < cols; j++) out[j]! += v[i]! * m[i * cols + j]!;
  }
  return out;
}

/** The text tower by hand: lower-case, split on whitespace/punctuation, mean, project. */
export function handTextEmbed(spec: TinyClipSpec, text: string): number[] {
  const vocab = vocabOf(spec);
  const table = tokenTable(spec);
  const words = text.toLowerCase().match(/\w+|[^\w\s]+/g) ?? [];
  const sum = new Array<number>(spec.hidden).fill(0);
  for (const w of words) {
    const id = vocab[w] ?? 1;
    for (let h = 0; h < spec.hidden; h++) sum[h]! += table[id * spec.hidden + h]!;
  }
  const pooled = sum.map((s) => s / words.length);
  return matVec(pooled, spec.textProjection, spec.dim);
}

/** The vision features by hand from raw RGB pixels already at imageSize × imageSize. */
export function handImageFeatures(spec: TinyClipSpec, rgb: Uint8Array): number[] {
  const S = spec.imageSize;
  const px = (c: number, y: number, x: number) =>
    (rgb[(y * S + x) * 3 + c]! / 255 - spec.imageMean[c]!) / spec.imageStd[c]!;
  const means = [0, 0, 0];
  let edge = 0;
  for (let c = 0; c < 3; c++) {
    for (let y = 0; y < S; y++) {
      for (let x = 0; x < S; x++) {
        means[c]! += px(c, y, x);
        if (x > 0) edge += Math.abs(px(c, y, x) - px(c, y, x - 1));
      }
    }
  }
  return [...means.map((m) => m / (S * S)), edge / (3 * S * (S - 1))];
}

export function handImageEmbed(spec: TinyClipSpec, rgb: Uint8Array): number[] {
  return matVec(handImageFeatures(spec, rgb), spec.visionProjection, spec.dim);
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / (Math.sqrt(na) * Math.sqrt(nb));
}
