// The DOCTYPE's internal subset as the XML parser needs it: fast-xml-parser knows general
// entities (`<!ENTITY c "#c00">`) but refuses parameter entities (`<!ENTITY % p "…"> %p;`),
// which an XML processor expands inside the subset before reading the declarations they
// spell. Internal ones are expanded here, within the same bounds as general entities;
// external ones (`<!ENTITY % x SYSTEM "…">`) are never fetched: the file is refused.
// Also refused: characters XML 1.0 forbids (NUL and other C0 controls), written raw or
// as a character reference, so a NUL is a parse_error and not a renderer failure.

// Written so that no two repeats can share a run of characters (`\s+[^[>]*`, `[^>]*)\s*>`
// could, quadratic in a long run of spaces), and the subset's end is looked for once, after
// the first opener only: a lazy `\[([\s\S]*?)\]\s*>` scanned to the end of the file again
// from every "<!DOCTYPE x [" of a file that repeats them without an end.
const DOCTYPE_OPEN = /<!DOCTYPE\s[^[<>]*\[/i;
const SUBSET_END = /\]\s*>/g;
const PE_DECL =
  /<!ENTITY\s+%\s+([A-Za-z_:][\w.:-]*)\s+(?:"([^"]*)"\s*|'([^']*)'\s*|(SYSTEM|PUBLIC)\b[^<>]*)>/g;
const MAX_PARAMETER_ENTITIES = 64;
const MAX_SUBSET_CHARS = 65_536;
const MAX_PASSES = 4;

// XML 1.0 Char excludes U+0000–U+0008, U+000B, U+000C, U+000E–U+001F, U+FFFE, U+FFFF.
// Built from code points so the source holds no control characters itself.
const FORBIDDEN_CHAR = new RegExp(
  `[${String.fromCharCode(0)}-${String.fromCharCode(8, 11, 12, 14)}-${String.fromCharCode(31)}\uFFFE\uFFFF]`,
);
const CHAR_REF = /&#(x[0-9a-fA-F]+|[0-9]+);/g;

export type DtdResult = { ok: true; text: string } | { ok: false; message: string };

function lineCol(text: string, at: number): string {
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return `line ${line}, col ${at - before.lastIndexOf('\n')}`;
}

function forbidden(cp: number): boolean {
  return (
    (cp < 0x20 && cp !== 0x9 && cp !== 0xa && cp !== 0xd) ||
    cp === 0xfffe ||
    cp === 0xffff ||
    (cp >= 0xd800 && cp <= 0xdfff) ||
    cp > 0x10ffff
  );
}

/** A message naming the first character XML forbids, raw or referenced; null if none. */
export function findForbiddenChar(text: string): string | null {
  const raw = FORBIDDEN_CHAR.exec(text);
  if (raw) {
    const cp = raw[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    const what = cp === '0000' ? 'a NUL character (U+0000)' : `the control character U+${cp}`;
    return `SVG holds ${what} at ${lineCol(text, raw.index)}; XML forbids it`;
  }
  if (!text.includes('&#')) return null;
  for (const m of text.matchAll(CHAR_REF)) {
    const v = m[1]!;
    const cp = v[0] === 'x' ? Number.parseInt(v.slice(1), 16) : Number.parseInt(v, 10);
    if (forbidden(cp)) {
      return `character reference ${m[0]} at ${lineCol(text, m.index)} names a character XML forbids`;
    }
  }
  return null;
}

/** Expands internal parameter entities in the internal subset; refuses external ones. */
export function expandParameterEntities(text: string): DtdResult {
  if (!text.includes('%')) return { ok: true, text };
  const open = DOCTYPE_OPEN.exec(text);
  if (!open) return { ok: true, text };
  const start = open.index + open[0].length;
  SUBSET_END.lastIndex = start;
  const close = SUBSET_END.exec(text);
  if (!close || !text.slice(start, close.index).includes('%')) return { ok: true, text };
  const end = close.index;
  let subset = text.slice(start, end);
  const values = new Map<string, string>();
  for (let pass = 0; pass < MAX_PASSES && subset.includes('%'); pass++) {
    let external: string | null = null;
    subset = subset.replace(PE_DECL, (_m, name: string, dq?: string, sq?: string, ext?: string) => {
      if (ext) external ??= name;
      else if (!values.has(name)) values.set(name, dq ?? sq ?? '');
      return '';
    });
    if (external)
      return { ok: false, message: `external parameter entity %${external}; (never fetched)` };
    if (values.size > MAX_PARAMETER_ENTITIES) {
      return { ok: false, message: `more than ${MAX_PARAMETER_ENTITIES} parameter entities` };
    }
    let undefinedName: string | null = null;
    subset = subset.replace(/%([A-Za-z_:][\w.:-]*);/g, (_m, name: string) => {
      const v = values.get(name);
      if (v === undefined) undefinedName ??= name;
      return v ?? '';
    });
    if (undefinedName)
      return { ok: false, message: `undefined parameter entity %${undefinedName};` };
    if (subset.length > MAX_SUBSET_CHARS) {
      return {
        ok: false,
        message: `parameter entities expand past ${MAX_SUBSET_CHARS} characters`,
      };
    }
  }
  if (/<!ENTITY\s+%|%[A-Za-z_:][\w.:-]*;/.test(subset)) {
    return { ok: false, message: `parameter entities nested deeper than ${MAX_PASSES}` };
  }
  return { ok: true, text: text.slice(0, start) + subset + text.slice(end) };
}
