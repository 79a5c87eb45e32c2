// A pairwise judge for the model double (issue 37): a request with two pictures is a
// comparison, answered like a judge with a strong liking for the picture shown first — every
// close call (latent qualities closer than `close`) goes to the first picture, otherwise the
// better one wins. A request with one picture goes to `single` (the absolute judge). The
// latent quality is read from the pixels (`quality`), so the double judges what was drawn.
import sharp from 'sharp';
import type { DoubleHandler, DoubleReply } from './model-double-answers.ts';
import type { DoubleRequest } from './model-double-request.ts';

/** Share of non-white pixels of a PNG data: URL (0 blank … 1 all ink). */
export async function inkShare(dataUrl: string): Promise<number> {
  const b64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const { data, info } = await sharp(Buffer.from(b64, 'base64'))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let ink = 0;
  for (let p = 0; p < data.length; p += info.channels) {
    if (data[p]! + data[p + 1]! + data[p + 2]! < 3 * 128) ink++;
  }
  return ink / (info.width * info.height);
}

export interface FirstBiasOptions {
  /** Latent quality of a picture. */
  quality: (dataUrl: string) => number | Promise<number>;
  /** Qualities closer than this are a close call: given to the first picture. */
  close: number;
  /** Answers requests with one picture. */
  single: DoubleHandler;
  /** A comparison this says true for gets a 500 (a fault to mask). */
  fails?: (first: number, second: number) => boolean;
}

/** The handler; `answers` counts what it said, to measure its bias. */
export function pairwiseFirstBias(o: FirstBiasOptions): DoubleHandler & {
  answers: { first: number; second: number; tie: number };
} {
  const memo = new Map<string, Promise<number>>();
  const q = (u: string) => {
    let v = memo.get(u);
    if (!v) {
      v = Promise.resolve(o.quality(u));
      memo.set(u, v);
    }
    return v;
  };
  const answers = { first: 0, second: 0, tie: 0 };
  const handler = async (req: DoubleRequest): Promise<DoubleReply> => {
    if (req.images.length !== 2) return o.single(req);
    const [a, b] = await Promise.all([q(req.images[0]!), q(req.images[1]!)]);
    if (o.fails?.(a, b)) return { status: 500 };
    const winner = Math.abs(a - b) < o.close ? 'first' : a > b ? 'first' : 'second';
    answers[winner]++;
    return { content: JSON.stringify({ reasoning: `qualities ${a} and ${b}`, winner }) };
  };
  return Object.assign(handler, { answers });
}
