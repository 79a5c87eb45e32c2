// A smoke test for a configured model before a long run: one structured call with a small
// PNG, showing that the server answers, honours the JSON schema and really sees images.

import { z } from 'zod';
import type { Usage } from '../core/usage.ts';
import sharp from '../render/sharp.ts';
import type { ChatMessage, FinishReason, ModelCallError, ModelClient } from './types.ts';

/**
 * The outcome of checkModel: whether the model answered in the structured shape, whether it
 * saw the image, the error if not, and what the call cost.
 */
export interface ModelCheck {
  spec: string;
  ok: boolean;
  /** The structured answer, when one validated. */
  answer?: { colour: string };
  /** Whether the colour named is the one painted (null when no image was sent). */
  seesImage: boolean | null;
  error?: ModelCallError;
  raw?: string;
  finishReason?: FinishReason;
  attempts?: number;
  usage: Usage;
}

const answerSchema = z.object({ colour: z.string().min(1) });

/** A 64×64 PNG filled with one colour, as a data URI. */
async function swatch(): Promise<string> {
  const png = await sharp({
    create: { width: 64, height: 64, channels: 3, background: { r: 220, g: 20, b: 20 } },
  })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

/**
 * Asks the model one small structured question about a one-colour picture (or, with
 * `image: false`, a text-only one), to show before a run that the server answers, returns
 * valid JSON and sees images. Never rejects: a failure is `ok: false` with the error.
 * @example
 * ```ts
 * const check = await checkModel(client, { image: true });
 * if (!check.ok) console.error(formatModelCheck(check));
 * ```
 */
export async function checkModel(
  client: ModelClient,
  opts: { image?: boolean; signal?: AbortSignal } = {},
): Promise<ModelCheck> {
  const withImage = opts.image ?? true;
  const question = withImage
    ? 'Which single colour fills this image? Answer as JSON: {"colour": "<one word>"}.'
    : 'Name the colour of a ripe tomato. Answer as JSON: {"colour": "<one word>"}.';
  const content: ChatMessage['content'] = withImage
    ? [
        { type: 'text', text: question },
        { type: 'image', dataUrl: await swatch() },
      ]
    : question;
  const r = await client.generateObject([{ role: 'user', content }], answerSchema, 'colour', {
    temperature: 0,
    maxTokens: 2048, // room for a reasoning model's thinking before the JSON
    // A check must reach the model: a caching proxy in front of it (rubrica judge-proxy)
    // must not answer it from a kept answer (a /readyz saying "ready" for a judge that is down).
    headers: { 'cache-control': 'no-cache' },
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const base = { spec: client.spec.id, usage: r.usage, attempts: r.attempts };
  if (!r.ok) {
    return {
      ...base,
      ok: false,
      seesImage: null,
      error: r.error,
      ...(r.raw ? { raw: r.raw } : {}),
    };
  }
  const seesImage = withImage ? /\bred\b|crimson|scarlet/i.test(r.value.colour) : null;
  return {
    ...base,
    ok: seesImage !== false,
    answer: r.value,
    seesImage,
    raw: r.raw,
    ...(r.finishReason ? { finishReason: r.finishReason } : {}),
  };
}

/** A model check as the few lines `rubrica models check` prints. */
export function formatModelCheck(c: ModelCheck): string {
  const u = c.usage;
  const cost = u.costUsd === null ? 'unknown' : `$${u.costUsd.toFixed(6)}`;
  const lines = [
    `model:     ${c.spec}`,
    `status:    ${c.ok ? 'ok' : 'FAILED'}`,
    c.error
      ? `error:     ${c.error.code}${c.error.status ? ` ${c.error.status}` : ''}: ${c.error.message}`
      : '',
    c.answer ? `answer:    ${JSON.stringify(c.answer)}` : '',
    c.seesImage === null
      ? ''
      : `image:     ${c.seesImage ? 'seen (named the colour)' : 'NOT seen (wrong colour)'}`,
    `attempts:  ${c.attempts ?? 0}`,
    `tokens:    ${u.inputTokens} in, ${u.outputTokens} out; cost ${cost}; ${Math.round(u.latencyMs)} ms`,
  ];
  return `${lines.filter((l) => l !== '').join('\n')}\n`;
}
