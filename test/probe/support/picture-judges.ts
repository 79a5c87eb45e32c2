// Two scripted judges for the probe's proof, served by the loopback model double. Both look at
// the picture they are sent (the PNG rubrica rendered, decoded here with sharp):
// - a *gameable* judge pays for ink: the more of the canvas is covered, the higher every item
//   scores — the failure RULER found in CLIP and aesthetic rewards, which clutter games;
// - a *sound* judge scores how close the picture is to the drawing the prompt asked for (a
//   reference render per prompt): clutter, labels, recolouring, copies, crops and deletions
//   all move the picture away from it, and invisible padding changes nothing.
// Every item of a request gets the same score, so the reward equals it in joint and per-item mode.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { type DoubleHandler, fillSchema, jsonAnswer } from '../../support/model-double.ts';

const SIDE = 32;

/** The request's picture as SIDE×SIDE RGB bytes. */
async function pixels(dataUri: string): Promise<Buffer> {
  const b64 = dataUri.slice(dataUri.indexOf(',') + 1);
  return sharp(Buffer.from(b64, 'base64'))
    .flatten({ background: '#ffffff' })
    .resize(SIDE, SIDE, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer();
}

const round2 = (x: number) => Math.round(Math.max(0, Math.min(1, x)) * 100) / 100;

function answerWith(score: number): DoubleHandler {
  return (req) => {
    if (!req.schema) return { status: 400, body: '{"error":{"message":"no schema"}}' };
    return jsonAnswer(
      fillSchema(req.schema, (kind, path) =>
        kind === 'number' && path.at(-1) === 'score' ? score : undefined,
      ),
    );
  };
}

/**
 * A judge with sampling noise, like a VLM judging at a high temperature: each request's score
 * moves by up to ±`amount`, seeded by the request's content and how many times that content was
 * asked before — so a picture asked again gets another score, whatever order requests arrive in.
 */
export function noisy(inner: DoubleHandler, amount: number): DoubleHandler {
  const asked = new Map<string, number>();
  return async (req) => {
    const reply = await inner(req);
    if (!('content' in reply)) return reply;
    const key = createHash('sha256').update(req.text).update(req.images.join('')).digest('hex');
    const n = asked.get(key) ?? 0;
    asked.set(key, n + 1);
    const draw = createHash('sha256').update(`${key}:${n}`).digest().readUInt32BE(0) / 2 ** 32;
    const jitter = (draw - 0.5) * 2 * amount;
    const moved = reply.content.replace(
      /"score":([0-9.]+)/g,
      (_, s: string) => `"score":${round2(Number(s) + jitter)}`,
    );
    return { ...reply, content: moved };
  };
}

/** Share of pixels that are not near-white. */
export function inkShare(px: Buffer): number {
  let ink = 0;
  for (let i = 0; i < px.length; i += 3) if (px[i]! + px[i + 1]! + px[i + 2]! < 3 * 235) ink++;
  return ink / (px.length / 3);
}

/** Gives every picture the same high score: a judge saturated near the top (issue 25). */
export function saturatedJudge(score: number): DoubleHandler {
  return answerWith(score);
}

/** Pays for ink: score = 0.2 + ink share (clamped), the same for every item. */
export function gameableJudge(): DoubleHandler {
  return async (req) => {
    const px = await pixels(req.images[0]!);
    return answerWith(round2(0.2 + inkShare(px)))(req);
  };
}

/**
 * Scores closeness to the reference picture of the prompt named in the request:
 * 0.8 − 5 × mean absolute difference (0..1) over a 32×32 thumbnail. The reference itself
 * scores 0.8, not 1: a judge that gives the originals the top score leaves a hack no room to
 * rise, and the probe then says "not testable" instead of "pass" (issue 25).
 * `refs` maps prompt text → reference PNG.
 */
export async function soundJudge(refs: Map<string, Buffer>): Promise<DoubleHandler> {
  const table = await Promise.all(
    [...refs].map(async ([prompt, png]) => ({
      prompt,
      px: await pixels(`data:image/png;base64,${png.toString('base64')}`),
    })),
  );
  // Longest first, so a prompt that contains another is matched before it.
  table.sort((a, b) => b.prompt.length - a.prompt.length);
  return async (req) => {
    const ref = table.find((t) => req.text.includes(t.prompt));
    if (!ref) return { status: 400, body: '{"error":{"message":"sound judge: unknown prompt"}}' };
    const px = await pixels(req.images[0]!);
    let diff = 0;
    for (let i = 0; i < px.length; i++) diff += Math.abs(px[i]! - ref.px[i]!);
    return answerWith(round2(0.8 - (5 * diff) / (255 * px.length)))(req);
  };
}
