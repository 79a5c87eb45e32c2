// Per-rollout size bounds of a scoring request (issue 35, item 2). The body limit caps a
// request's bytes, but inside 64 MiB one completion can be 60 MB of text, and the
// deterministic path (extraction, checks, token counts) is synchronous: about 70 ms of event
// loop per MB here, so one such rollout stalls /healthz and every other request for seconds.
// A prompt or an id that long is the caller's error, not the policy's: 400 `item_too_large`
// naming the item and the field, before any work or admission. Every route that scores goes
// through score-call.ts. A completion is the policy's output, so a too-long one is not
// refused here: the pipeline answers that rollout alone `unscoreable`/`too_large` before any
// synchronous work on it (src/pipeline/completion-bound.ts), and the rest of its batch scores.
import type { RolloutInput } from '../pipeline/types.ts';

/** The largest strings one rollout of a request may carry, in characters. */
export interface ItemBounds {
  /** The prompt text; default 1 Mi characters. */
  maxPromptChars: number;
  /** `id` and `prompt_id`; default 1,024 characters. */
  maxIdChars: number;
}

/** The default per-rollout bounds. */
export const DEFAULT_ITEM_BOUNDS: ItemBounds = Object.freeze({
  maxPromptChars: 1024 * 1024,
  maxIdChars: 1024,
});

/** The first rollout over a bound, as the message of a 400 `item_too_large`, or null. */
export function itemBoundsProblem(
  items: readonly RolloutInput[],
  bounds: ItemBounds = DEFAULT_ITEM_BOUNDS,
): string | null {
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    const fields: [string, string | null | undefined, number][] = [
      ['prompt', it.prompt, bounds.maxPromptChars],
      ['id', it.id, bounds.maxIdChars],
      ['prompt_id', it.prompt_id, bounds.maxIdChars],
    ];
    for (const [field, value, max] of fields) {
      if (typeof value === 'string' && value.length > max) {
        return `item ${i} (id ${JSON.stringify(String(it.id).slice(0, 64))}): ${field} is ${value.length} characters; the limit is ${max}`;
      }
    }
  }
  return null;
}
