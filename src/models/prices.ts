// Prices of hosted models, USD per million input / output tokens, so every call can carry a
// cost. Keys are `provider:model`. Dated snapshots (`…-2025-08-07`, `…-20250929`) and
// `-latest` fall back to their base name; anything else must match exactly, because near
// names can cost very differently (gpt-5 vs gpt-5-pro). Unknown model → cost null.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { readEnv } from '../core/env.ts';
import { checkRegularFileSync } from '../core/read-input-text.ts';
import { ModelConfigError } from './errors.ts';
import type { ModelSpec } from './types.ts';

export interface Price {
  /** USD per 1M input (prompt) tokens. */
  input: number;
  /** USD per 1M output (completion) tokens. */
  output: number;
}

/** USD per million input and output tokens, keyed by model spec. */
export type PriceTable = Record<string, Price>;

/**
 * List prices as published by the vendors in late 2025 (standard tier, no caching or batch
 * discounts, Gemini 2.5 Pro at its ≤200k-token rate). Check them before trusting a bill.
 */
export const KNOWN_PRICES: Readonly<PriceTable> = {
  'openai:gpt-5': { input: 1.25, output: 10 },
  'openai:gpt-5-mini': { input: 0.25, output: 2 },
  'openai:gpt-5-nano': { input: 0.05, output: 0.4 },
  'openai:gpt-4.1': { input: 2, output: 8 },
  'openai:gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'openai:gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'openai:gpt-4o': { input: 2.5, output: 10 },
  'openai:gpt-4o-mini': { input: 0.15, output: 0.6 },
  'anthropic:claude-opus-4-1': { input: 15, output: 75 },
  'anthropic:claude-opus-4-5': { input: 5, output: 25 },
  'anthropic:claude-sonnet-4-5': { input: 3, output: 15 },
  'anthropic:claude-sonnet-4': { input: 3, output: 15 },
  'anthropic:claude-haiku-4-5': { input: 1, output: 5 },
  'google:gemini-2.5-pro': { input: 1.25, output: 10 },
  'google:gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'google:gemini-2.5-flash-lite': { input: 0.1, output: 0.4 },
};

const priceFileSchema = z.record(
  z.string().min(1),
  z.object({ input: z.number().min(0), output: z.number().min(0) }),
);

function validPrices(data: unknown, where: string): PriceTable {
  const parsed = priceFileSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const what = issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid';
  throw new ModelConfigError('bad_prices', `${where}: ${what}`);
}

/** Reads a JSON price file `{"provider:model": {"input": 0.2, "output": 0.8}}`. */
export function readPriceFile(path: string): PriceTable {
  let data: unknown;
  try {
    checkRegularFileSync(path); // RUBRICA_PRICES naming a FIFO must not block the process
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ModelConfigError('bad_prices', `cannot read price file ${path}: ${String(err)}`);
  }
  return validPrices(data, `price file ${path}`);
}

/**
 * The table in force: built-ins, then the file named by RUBRICA_PRICES, then `override`
 * (a table or a file path); later entries replace earlier ones key by key.
 */
export function loadPrices(
  override?: PriceTable | string,
  env: NodeJS.ProcessEnv = process.env,
): PriceTable {
  const table: PriceTable = { ...KNOWN_PRICES };
  const envPath = readEnv('RUBRICA_PRICES', env)?.trim();
  if (envPath) Object.assign(table, readPriceFile(envPath));
  if (typeof override === 'string') Object.assign(table, readPriceFile(override));
  else if (override) Object.assign(table, validPrices(override, 'price table option'));
  return table;
}

const SNAPSHOT = /(-\d{4}-\d{2}-\d{2}|-\d{8}|-latest)$/;

export function priceFor(spec: ModelSpec, table: PriceTable): Price | undefined {
  const key = `${spec.provider}:${spec.model}`;
  return table[key] ?? table[key.replace(SNAPSHOT, '')];
}

/** USD for one call, or null when the model has no known price. */
export function costOf(price: Price | undefined, inputTokens: number, outputTokens: number) {
  if (!price) return null;
  return (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}
