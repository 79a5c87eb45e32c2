// Price lookup, overrides and cost arithmetic.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelConfigError } from './errors.ts';
import { costOf, KNOWN_PRICES, loadPrices, priceFor } from './prices.ts';
import { parseModelSpec } from './spec.ts';

const spec = parseModelSpec;

describe('prices', () => {
  it('finds exact names and dated snapshots, not near names', () => {
    expect(priceFor(spec('openai:gpt-5-mini'), KNOWN_PRICES)).toEqual({ input: 0.25, output: 2 });
    expect(priceFor(spec('openai:gpt-5-2025-08-07'), KNOWN_PRICES)).toEqual({
      input: 1.25,
      output: 10,
    });
    expect(priceFor(spec('anthropic:claude-sonnet-4-5-20250929'), KNOWN_PRICES)?.input).toBe(3);
    expect(priceFor(spec('openai:gpt-5-pro'), KNOWN_PRICES)).toBeUndefined();
    expect(priceFor(spec('vllm:Qwen/Qwen3-VL-8B-Instruct'), KNOWN_PRICES)).toBeUndefined();
  });

  it('computes USD per million tokens, null when unknown', () => {
    expect(costOf({ input: 3, output: 15 }, 1_000_000, 200_000)).toBeCloseTo(6, 12);
    expect(costOf(undefined, 10, 10)).toBeNull();
  });

  it('layers RUBRICA_PRICES and the option over the built-ins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-prices-'));
    const file = join(dir, 'prices.json');
    writeFileSync(
      file,
      JSON.stringify({
        'vllm:q': { input: 0.1, output: 0.2 },
        'openai:gpt-5': { input: 9, output: 9 },
      }),
    );
    const fromEnv = loadPrices(undefined, { RUBRICA_PRICES: file });
    expect(fromEnv['vllm:q']).toEqual({ input: 0.1, output: 0.2 });
    expect(fromEnv['openai:gpt-5']).toEqual({ input: 9, output: 9 });
    expect(fromEnv['openai:gpt-5-mini']).toEqual(KNOWN_PRICES['openai:gpt-5-mini']);
    const both = loadPrices({ 'vllm:q': { input: 1, output: 1 } }, { RUBRICA_PRICES: file });
    expect(both['vllm:q']).toEqual({ input: 1, output: 1 });
    expect(loadPrices(file, {})['vllm:q']?.output).toBe(0.2);
  });

  it('rejects unreadable or malformed price files with a config error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-prices-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ 'vllm:q': { input: -1, output: 0 } }));
    expect(() => loadPrices(bad, {})).toThrow(/vllm:q\.input/);
    expect(() => loadPrices(join(dir, 'missing.json'), {})).toThrow(ModelConfigError);
    expect(() => loadPrices({ x: { input: 'cheap' } } as never, {})).toThrow(ModelConfigError);
  });
});
