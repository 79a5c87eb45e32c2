// Everything a model or a user wrote (prompts, completions, judge rationales, ids) reaches
// report.html only through these functions, so no such text can open a tag or an attribute.

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Text for element content or a quoted attribute value. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (c) => ENTITIES[c] ?? c);
}

/** A number for display: fixed decimals, or an en dash when missing. */
export function num(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value)
    ? '–'
    : value.toFixed(digits);
}

/** A CSS-safe token (class names, data attribute values used by the filter script). */
export function token(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9_-]+/g, '-');
}
