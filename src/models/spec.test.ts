// Model specs and where each role's base URL and key come from.
import { describe, expect, it } from 'vitest';
import { ModelConfigError } from './errors.ts';
import { resolveRoleConfig } from './role-config.ts';
import { parseModelSpec, safeParseModelSpec } from './spec.ts';

describe('parseModelSpec', () => {
  it('splits on the first colon', () => {
    expect(parseModelSpec('vllm:Qwen/Qwen3-VL-8B-Instruct')).toEqual({
      provider: 'vllm',
      model: 'Qwen/Qwen3-VL-8B-Instruct',
      id: 'vllm:Qwen/Qwen3-VL-8B-Instruct',
    });
    expect(parseModelSpec('ollama:qwen3-vl:8b').model).toBe('qwen3-vl:8b');
    expect(parseModelSpec(' anthropic:claude-opus-4-6 ').provider).toBe('anthropic');
  });

  it.each([
    ['Qwen3-VL', 'bad_spec'],
    [':model', 'bad_spec'],
    ['vllm:', 'bad_spec'],
    ['hf:Qwen/Qwen3-VL', 'unknown_provider'],
    ['VLLM:x', 'unknown_provider'],
    ['toString:x', 'unknown_provider'],
  ])('rejects %s with %s', (text, code) => {
    const r = safeParseModelSpec(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe(code);
    expect(() => parseModelSpec(text)).toThrow(ModelConfigError);
  });

  it('names the known providers when one is unknown', () => {
    expect(() => parseModelSpec('hf:x')).toThrow(/vllm, sglang, ollama, openai-compatible/);
  });
});

describe('resolveRoleConfig', () => {
  const env = {
    RUBRICA_JUDGE_BASE_URL: 'http://judge-box:8000/v1/',
    RUBRICA_JUDGE_API_KEY: 'judge-key',
    OPENAI_API_KEY: 'openai-key',
    ANTHROPIC_API_KEY: 'anthropic-key',
  };

  it('prefers the flag, then the role variable, then the provider default', () => {
    const flag = resolveRoleConfig('judge', { provider: 'vllm', baseUrl: 'http://a:1/v1' }, env);
    expect([flag.baseUrl, flag.baseUrlFrom]).toEqual(['http://a:1/v1', 'flag']);
    const fromEnv = resolveRoleConfig('judge', { provider: 'vllm' }, env);
    expect([fromEnv.baseUrl, fromEnv.baseUrlFrom]).toEqual(['http://judge-box:8000/v1', 'env']);
    const def = resolveRoleConfig('author', { provider: 'vllm' }, env);
    expect([def.baseUrl, def.baseUrlFrom]).toEqual(['http://localhost:8000/v1', 'default']);
    expect(resolveRoleConfig('author', { provider: 'sglang' }, {}).baseUrl).toBe(
      'http://localhost:30000/v1',
    );
    expect(resolveRoleConfig('author', { provider: 'ollama' }, {}).baseUrl).toBe(
      'http://localhost:11434/v1',
    );
    const none = resolveRoleConfig('policy', { provider: 'openai-compatible' }, {});
    expect([none.baseUrl, none.baseUrlFrom]).toEqual([undefined, 'none']);
  });

  it('takes the key from the flag, then RUBRICA_<ROLE>_API_KEY, then the provider variable', () => {
    expect(resolveRoleConfig('judge', { provider: 'openai', apiKey: 'k' }, env)).toMatchObject({
      apiKey: 'k',
      apiKeyFrom: 'flag',
    });
    expect(resolveRoleConfig('judge', { provider: 'openai' }, env)).toMatchObject({
      apiKey: 'judge-key',
      apiKeyFrom: 'env:RUBRICA_JUDGE_API_KEY',
    });
    expect(resolveRoleConfig('author', { provider: 'anthropic' }, env)).toMatchObject({
      apiKey: 'anthropic-key',
      apiKeyFrom: 'env:ANTHROPIC_API_KEY',
    });
  });

  it('never hands an OpenAI key to another server', () => {
    const r = resolveRoleConfig(
      'author',
      { provider: 'openai-compatible', baseUrl: 'http://x/v1' },
      env,
    );
    expect(r.apiKey).toBeUndefined();
    expect(resolveRoleConfig('author', { provider: 'vllm' }, env).apiKey).toBeUndefined();
  });

  it('ignores empty values and rejects non-http URLs', () => {
    expect(resolveRoleConfig('judge', { provider: 'vllm', baseUrl: '  ' }, {}).baseUrlFrom).toBe(
      'default',
    );
    expect(() => resolveRoleConfig('judge', { baseUrl: 'localhost:8000' }, {})).toThrow(/not http/);
    expect(() => resolveRoleConfig('judge', { baseUrl: 'not a url' }, {})).toThrow(
      ModelConfigError,
    );
  });
});
