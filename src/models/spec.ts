// `provider:model` specs: which providers exist, their default base URLs and key variables.
import type { EnvName } from '../core/env.ts';
import { ModelConfigError } from './errors.ts';
import type { ModelSpec, Provider } from './types.ts';

export interface ProviderInfo {
  /** Base URL used when neither flag nor environment gives one (undefined: must be given). */
  defaultBaseUrl?: string;
  /** The provider's usual API-key variable, read last (never sent to other providers). */
  keyVariable?: EnvName;
  /** Hosted APIs refuse calls without a key, so a missing key is reported before any call. */
  needsKey: boolean;
  /** Which AI SDK package speaks to it. */
  sdk: 'openai-compatible' | 'openai' | 'anthropic' | 'google';
}

export const PROVIDERS: Readonly<Record<Provider, ProviderInfo>> = {
  vllm: {
    defaultBaseUrl: 'http://localhost:8000/v1',
    // `vllm serve --api-key` also reads VLLM_API_KEY, so the same variable works on both ends.
    keyVariable: 'VLLM_API_KEY',
    needsKey: false,
    sdk: 'openai-compatible',
  },
  sglang: {
    defaultBaseUrl: 'http://localhost:30000/v1',
    needsKey: false,
    sdk: 'openai-compatible',
  },
  ollama: {
    defaultBaseUrl: 'http://localhost:11434/v1',
    needsKey: false,
    sdk: 'openai-compatible',
  },
  'openai-compatible': { needsKey: false, sdk: 'openai-compatible' },
  openai: {
    defaultBaseUrl: 'https://api.openai.com/v1',
    keyVariable: 'OPENAI_API_KEY',
    needsKey: true,
    sdk: 'openai',
  },
  anthropic: {
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    keyVariable: 'ANTHROPIC_API_KEY',
    needsKey: true,
    sdk: 'anthropic',
  },
  google: {
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    keyVariable: 'GOOGLE_GENERATIVE_AI_API_KEY',
    needsKey: true,
    sdk: 'google',
  },
};

export function isProvider(name: string): name is Provider {
  return Object.hasOwn(PROVIDERS, name);
}

/**
 * Reads `provider:model`, splitting on the FIRST colon so model names may hold colons
 * (`ollama:qwen3-vl:8b` → model `qwen3-vl:8b`). Throws ModelConfigError on a bad spec.
 */
export function parseModelSpec(text: string): ModelSpec {
  const id = text.trim();
  const colon = id.indexOf(':');
  if (colon <= 0 || colon === id.length - 1) {
    throw new ModelConfigError(
      'bad_spec',
      `model spec "${text}" must look like provider:model (e.g. vllm:Qwen/Qwen3-VL-8B-Instruct)`,
    );
  }
  const provider = id.slice(0, colon);
  const model = id.slice(colon + 1);
  if (!isProvider(provider)) {
    throw new ModelConfigError(
      'unknown_provider',
      `unknown model provider "${provider}" in "${text}"; expected one of: ${Object.keys(PROVIDERS).join(', ')}`,
    );
  }
  return { provider, model, id };
}

/** The same as parseModelSpec, as a value: for validating user input without try/catch. */
export function safeParseModelSpec(
  text: string,
): { ok: true; spec: ModelSpec } | { ok: false; error: ModelConfigError } {
  try {
    return { ok: true, spec: parseModelSpec(text) };
  } catch (err) {
    if (err instanceof ModelConfigError) return { ok: false, error: err };
    throw err;
  }
}
