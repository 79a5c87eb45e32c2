// The Rubric-S hack under cover of a prompt that asks for text: the prompt asks for a sign
// that says "OPEN", and the drawing also writes the prompt's own sentence as a title ("A
// cosy bakery on a rainy street"). Asking for some text exempts the text asked for, not a
// copy of the prompt. A copy is one text element of the drawing that repeats a stretch of
// the prompt's content words in the prompt's order (stop words skipped): at least
// `minRun` of them in a row. Labels are not copies: each names one part in its own element
// ("Left ventricle", "Aorta"), and a sign's own words ("Fresh bread daily") are at most a
// short stretch; requested words (quoted, or after "says", "titled", …) never count.
import { contentSequence } from './prompt-words.ts';

export interface PromptCopy {
  /** The drawing's text that copies the prompt. */
  text: string;
  /** The prompt's content words it repeats in order. */
  run: string[];
}

/** Longest stretch of `a` that also appears contiguously in `b` (both short: ≤ 64 words). */
function longestCommonRun(a: string[], b: string[]): string[] {
  let best: [number, number] = [0, 0];
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      if (a[i - 1] === b[j - 1]) {
        row[j] = prev[j - 1]! + 1;
        if (row[j]! > best[1]) best = [i, row[j]!];
      }
    }
    prev = row;
  }
  return a.slice(best[0] - best[1], best[0]);
}

/** Runs this long copy the prompt: 3 content words for a short prompt, 4 otherwise. */
export function minRun(promptContentWords: number): number {
  return promptContentWords <= 5 ? 3 : 4;
}

/**
 * The drawing's text element that writes the longest stretch of the prompt's content words
 * (`content`: the prompt's content stems, requested text already removed), or null.
 */
export function promptCopy(
  prompt: string,
  content: ReadonlySet<string>,
  texts: readonly string[],
): PromptCopy | null {
  const seq = contentSequence(prompt)
    .filter((w) => content.has(w))
    .slice(0, 400);
  let best: PromptCopy | null = null;
  for (const text of texts) {
    const run = longestCommonRun(contentSequence(text).slice(0, 64), seq);
    if (run.length > (best?.run.length ?? 0)) best = { text: text.slice(0, 200), run };
  }
  return best;
}
