// Checks a parsed answer against its zod schema and says, in one line a log can hold,
// which fields were wrong (e.g. `items.2.score: Too big: expected number to be <=1`).
import type { z } from 'zod';

export function validateAnswer<T>(
  schema: z.ZodType<T>,
  value: unknown,
): { ok: true; value: T } | { ok: false; message: string } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.slice(0, 5).map((i) => {
    const where = i.path.length > 0 ? i.path.map(String).join('.') : '(root)';
    return `${where}: ${i.message}`;
  });
  const more = parsed.error.issues.length > 5 ? ` (+${parsed.error.issues.length - 5} more)` : '';
  return { ok: false, message: `answer does not match the schema: ${issues.join('; ')}${more}` };
}
