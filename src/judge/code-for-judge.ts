// What a code judge reads: the answer's program without the parts that cannot change the
// picture (comments; in SVG also <metadata> and <foreignObject>, which rubrica's sanitiser
// drops before rendering), so a policy cannot write to its judge in them — and the fence the
// program sits in, longer than any backtick or tilde run inside it, so (CommonMark) the
// program can never close its own block and speak as rubrica's template.
//
// What is kept: string literals (a plot title is a string), `<title>`/`<desc>` (accessibility
// criteria ask about them), mermaid `%%{init}%%` directives (they style the picture). A code
// rubric whose criteria ask about comments or metadata gets the program unchanged.
import { type JudgedCode, stripCodeComments } from '../artifact/code-comments.ts';

export type { JudgedCode } from '../artifact/code-comments.ts';

/** Criteria that talk about what is stripped: such a rubric is judged on the raw program. */
const ASKS_ABOUT_STRIPPED = /comment|metadata|foreignobject|docstring|documented|annotat/i;

/**
 * The copy of `code` (in `domain`) that a code judge reads; unchanged when a criterion
 * (`criteria`, the items' texts) asks about comments or metadata.
 */
export function codeForJudge(code: string, domain: string, criteria: string[] = []): JudgedCode {
  if (criteria.some((c) => ASKS_ABOUT_STRIPPED.test(c)))
    return { code, removed: 0, comments: [], strings: [] };
  return stripCodeComments(code, domain);
}

function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/**
 * A backtick fence longer than any backtick or tilde run in `code` (at least three): no line
 * of `code` can close it (CommonMark: a closer is a run of the same character at least as
 * long as the opener).
 */
export function fenceFor(code: string): string {
  return '`'.repeat(Math.max(3, longestRun(code, '`') + 1, longestRun(code, '~') + 1));
}
