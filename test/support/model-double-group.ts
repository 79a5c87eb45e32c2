// A group judge for the model double (issue 37, `--judging group`): a request whose answer
// schema asks `p<N>_<item>` properties (the group prompt, src/judge/group.ts) is answered
// with one score per picture and item: the picture's latent quality (read from its pixels,
// like the pairwise double) plus a position bias — `first` added to the picture shown first,
// `slope` taken off in proportion to the position (0 first … slope last) — clamped to [0,1].
// Scores are written on the 0.01 grid; the double's grid rewrite (model-double-grid.ts) turns
// them into one digit with vLLM-shaped logprobs whose expected value is the score again. A
// request that is not a group call goes to `single`.
import type { DoubleHandler, DoubleReply } from './model-double-answers.ts';
import type { DoubleRequest } from './model-double-request.ts';

export interface GroupBiasOptions {
  /** Latent quality of a picture (a data: URL), in [0, 1]. */
  quality: (dataUrl: string) => number | Promise<number>;
  /** Added to the score of the picture shown first (a primacy bias). Default 0. */
  first?: number;
  /** Taken off a picture at position p of n: slope·p/(n−1) (a linear position bias). Default 0. */
  slope?: number;
  /** Answers requests that are not group calls. */
  single: DoubleHandler;
  /** A group call this says true for (latent qualities in the order shown) gets a 500. */
  fails?: (qualities: number[]) => boolean;
}

const GROUP_KEY = /^p(\d+)_(.+)$/;

/** The group call's property keys, or null when the request is not one. */
function groupKeys(req: DoubleRequest): { key: string; pos: number }[] | null {
  const props = Object.keys((req.schema?.properties ?? {}) as Record<string, unknown>);
  const keys = props.map((k) => {
    const m = GROUP_KEY.exec(k);
    return m ? { key: k, pos: Number(m[1]) - 1 } : null;
  });
  if (!keys.length || keys.some((k) => k === null)) return null;
  return keys as { key: string; pos: number }[];
}

/** The handler; `calls` counts the group calls it answered (faults included). */
export function groupPositionBias(o: GroupBiasOptions): DoubleHandler & { calls: () => number } {
  const memo = new Map<string, Promise<number>>();
  const q = (u: string) => {
    let v = memo.get(u);
    if (!v) {
      v = Promise.resolve(o.quality(u));
      memo.set(u, v);
    }
    return v;
  };
  let calls = 0;
  const handler = async (req: DoubleRequest): Promise<DoubleReply> => {
    const keys = groupKeys(req);
    if (!keys) return o.single(req);
    calls++;
    const n = req.images.length;
    const qs = await Promise.all(req.images.map(q));
    if (o.fails?.(qs)) return { status: 500 };
    const answer: Record<string, { reasoning: string; score: number }> = {};
    for (const { key, pos } of keys) {
      const bias = (pos === 0 ? (o.first ?? 0) : 0) - ((o.slope ?? 0) * pos) / Math.max(1, n - 1);
      const s = Math.min(1, Math.max(0, qs[pos]! + bias));
      // On the 0.01 grid, as a judge on the grid scale would write it.
      answer[key] = { reasoning: `picture ${pos + 1} of ${n}`, score: Math.round(s * 100) / 100 };
    }
    return { content: JSON.stringify(answer) };
  };
  return Object.assign(handler, { calls: () => calls });
}
