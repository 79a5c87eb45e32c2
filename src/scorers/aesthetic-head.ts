// The LAION "improved aesthetic predictor" head. Its published MLP is a stack of linear layers
// with no activations between them (768→1024→128→64→16→1; the dropouts do nothing at
// inference), so the whole head is one affine map: score = w·e + b, with e the L2-normalised
// ViT-L/14 image embedding. We load the published weights, exported to JSON, and collapse them.
import { readFileSync } from 'node:fs';
import { type ErrorValue, makeError } from '../core/errors.ts';

export interface AffineHead {
  w: Float64Array;
  b: number;
  /** How the file described the head: already collapsed, or a layer stack we collapsed. */
  source: 'collapsed' | 'layers';
  layers: number;
}

interface Layer {
  weight: number[][]; // [out][in], PyTorch's nn.Linear layout
  bias: number[];
}

export type HeadResult =
  | { ok: true; head: AffineHead }
  | { ok: false; error: ErrorValue<'bad_weights'> };

const bad = (message: string): HeadResult => ({
  ok: false,
  error: makeError('bad_weights', message),
});

const isNumArray = (v: unknown): v is number[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x));
const isMatrix = (v: unknown): v is number[][] =>
  Array.isArray(v) && v.length > 0 && v.every(isNumArray);

/**
 * Accepts three JSON shapes:
 *  - `{"w": [768 numbers], "b": number}` (already collapsed);
 *  - `{"layers": [{"weight": [[…]], "bias": […]}, …]}` in forward order;
 *  - a state dict dumped as JSON, e.g. `{"layers.0.weight": [[…]], "layers.0.bias": […], …}`,
 *    ordered by the number in each key (the published `sac+logos+ava1-l14-linearMSE.pth`).
 */
export function parseAestheticHead(json: unknown): HeadResult {
  if (typeof json !== 'object' || json === null) return bad('weights file is not a JSON object');
  const o = json as Record<string, unknown>;
  if ('w' in o) {
    if (!isNumArray(o.w) || typeof o.b !== 'number')
      return bad('"w" must be numbers and "b" a number');
    return {
      ok: true,
      head: { w: Float64Array.from(o.w), b: o.b, source: 'collapsed', layers: 1 },
    };
  }
  let layers: Layer[];
  if (Array.isArray(o.layers)) {
    layers = o.layers as Layer[];
  } else {
    const found = new Map<number, Partial<Layer>>();
    for (const [key, value] of Object.entries(o)) {
      const m = /(?<!\d)(\d+)\.(weight|bias)$/.exec(key);
      if (!m) continue;
      const entry = found.get(Number(m[1])) ?? {};
      if (m[2] === 'weight') entry.weight = value as number[][];
      else entry.bias = value as number[];
      found.set(Number(m[1]), entry);
    }
    layers = [...found.entries()].sort((a, b) => a[0] - b[0]).map(([, l]) => l as Layer);
  }
  if (layers.length === 0)
    return bad('no layers found (expected "w"/"b", "layers", or "N.weight" keys)');
  for (const [i, l] of layers.entries()) {
    if (!isMatrix(l.weight) || !isNumArray(l.bias))
      return bad(`layer ${i}: weight must be a matrix and bias numbers`);
    if (l.bias.length !== l.weight.length)
      return bad(`layer ${i}: ${l.weight.length} rows but ${l.bias.length} biases`);
    const next = layers[i + 1];
    if (next && isMatrix(next.weight) && next.weight[0]!.length !== l.weight.length)
      return bad(
        `layer ${i + 1} takes ${next.weight[0]!.length} inputs but layer ${i} gives ${l.weight.length}`,
      );
  }
  const last = layers[layers.length - 1]!;
  if (last.weight.length !== 1)
    return bad(`the last layer must have one output, not ${last.weight.length}`);
  return { ok: true, head: { ...collapse(layers), source: 'layers', layers: layers.length } };
}

/**
 * y = W_n(…(W_1 x + b_1)…) + b_n  ⇒  y = v·x + c, walking back from the output:
 * v starts as W_n's single row, c as b_n; each earlier layer adds v·b_k to c and v ← v·W_k.
 */
function collapse(layers: Layer[]): { w: Float64Array; b: number } {
  const last = layers[layers.length - 1]!;
  let v = Float64Array.from(last.weight[0]!);
  let c = last.bias[0]!;
  for (let k = layers.length - 2; k >= 0; k--) {
    const { weight, bias } = layers[k]!;
    for (let o = 0; o < bias.length; o++) c += v[o]! * bias[o]!;
    const next = new Float64Array(weight[0]!.length);
    for (let o = 0; o < weight.length; o++) {
      const row = weight[o]!;
      const vo = v[o]!;
      for (let i = 0; i < row.length; i++) next[i]! += vo * row[i]!;
    }
    v = next;
  }
  return { w: v, b: c };
}

/**
 * Reads the LAION aesthetic head (the linear layer over CLIP embeddings) from a JSON file. A
 * missing or malformed file is an error value (`bad_weights`), not a throw.
 */
export function loadAestheticHead(file: string): HeadResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return bad(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return parseAestheticHead(JSON.parse(text));
  } catch (err) {
    return bad(`${file} is not JSON: ${(err as Error).message}`);
  }
}

export function applyHead(head: AffineHead, e: ArrayLike<number>): number {
  let s = head.b;
  for (let i = 0; i < head.w.length; i++) s += head.w[i]! * e[i]!;
  return s;
}
