// The JSON body of every HTTP refusal rubrica makes, the reward server's and the studio's
// alike: `{"error": {"code", "message"}}` with a stable code, and zod issues as one line.

/** `{"error": {"code", "message"}}`: the one shape of an HTTP error answer. */
export const errorBody = (code: string, message: string) => ({ error: { code, message } });

/** Zod issues as one line naming the fields: `items.0.completion: …; body: …`. */
export function issuesMessage(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
): string {
  const parts = issues
    .slice(0, 8)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : 'body'}: ${i.message}`);
  if (issues.length > 8) parts.push(`… and ${issues.length - 8} more`);
  return parts.join('; ');
}
