// What was done to the text a judge was sent, counted per rollout (issue 41): the scorer runs
// one rollout's judging inside `tallyJudgeInput`, and every judge message built in that async
// context (judge/template-tokens.ts) adds the chat-template token strings it rewrote, so the
// record can say `judge_input: { neutralised: N }` without threading a counter through every
// judge and cache layer. Only messages actually built count: an answer read from the cache
// sent nothing, so it adds nothing.
import { AsyncLocalStorage } from 'node:async_hooks';

interface Tally {
  neutralised: number;
}

const store = new AsyncLocalStorage<Tally>();

/** Adds `n` rewritten template-token strings to the current rollout's tally (if any). */
export function countNeutralised(n: number): void {
  const t = store.getStore();
  if (t && n > 0) t.neutralised += n;
}

/** Runs `fn` with a fresh tally; returns its value and the template tokens neutralised. */
export async function tallyJudgeInput<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; neutralised: number }> {
  const tally: Tally = { neutralised: 0 };
  const value = await store.run(tally, fn);
  return { value, neutralised: tally.neutralised };
}
