// The longest completion rubrica inspects (issue 35). Extraction, token counts and checks are
// synchronous: about 70 ms of event loop per MB here, so a 60 MB answer inside a legal request
// body would stall serve's loop (its /healthz, every deadline timer) for seconds. No policy
// writes that much honestly (a 128k-token answer is ~0.5 M characters), and the renderer
// refuses an SVG over 2 MiB anyway. A longer completion is still the policy's output, so it
// is a result like any other bad output — `unscoreable`, reason `too_large`, reward 0 — never
// a refusal of the whole request (which would cost a trainer its step).

/** Characters of one completion past which it is answered `too_large` without inspection. */
export const MAX_COMPLETION_CHARS = 2 * 1024 * 1024;

/** Why a completion is too long to inspect, or null. */
export function completionTooLarge(completion: string): string | null {
  if (completion.length <= MAX_COMPLETION_CHARS) return null;
  return `the completion is ${completion.length} characters; rubrica inspects at most ${MAX_COMPLETION_CHARS}`;
}
