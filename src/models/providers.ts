// Builds the AI SDK language model for a spec. Only well-kept SDK providers speak HTTP here;
// the SDK's own retries are switched off by the caller (maxRetries: 0) so ours is the only policy.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { ModelConfigError } from './errors.ts';
import type { RoleConfig } from './role-config.ts';
import { PROVIDERS } from './spec.ts';
import type { ModelSpec, Role } from './types.ts';

export interface ProviderSetup {
  role: Role;
  config: RoleConfig;
  fetch?: typeof globalThis.fetch;
  headers?: Record<string, string>;
}

export function languageModelFor(spec: ModelSpec, setup: ProviderSetup): LanguageModel {
  const info = PROVIDERS[spec.provider];
  const { baseUrl, apiKey } = setup.config;
  const vars = `RUBRICA_${setup.role.toUpperCase()}`;
  if (!baseUrl) {
    throw new ModelConfigError(
      'missing_base_url',
      `${spec.id}: no base URL; pass --${setup.role}-base-url or set ${vars}_BASE_URL`,
    );
  }
  if (info.needsKey && !apiKey) {
    throw new ModelConfigError(
      'missing_api_key',
      `${spec.id}: no API key; set ${vars}_API_KEY or ${info.keyVariable}`,
    );
  }
  const common = { baseURL: baseUrl, fetch: setup.fetch, headers: setup.headers };
  switch (info.sdk) {
    case 'openai-compatible':
      return createOpenAICompatible({
        ...common,
        name: spec.provider,
        ...(apiKey ? { apiKey } : {}),
        // Sends response_format {type: json_schema, json_schema: {name, schema}}, which
        // vLLM, SGLang and Ollama turn into guided decoding.
        supportsStructuredOutputs: true,
        includeUsage: true,
      }).chatModel(spec.model);
    case 'openai':
      // Chat Completions rather than the Responses API: the same wire format as every other
      // OpenAI-compatible server, so one test double and one parser cover both.
      return createOpenAI({ ...common, apiKey }).chat(spec.model);
    case 'anthropic':
      return createAnthropic({ ...common, apiKey })(spec.model);
    case 'google':
      return createGoogleGenerativeAI({ ...common, apiKey })(spec.model);
  }
}
