// Where a role's model lives and how it authenticates: flag > RUBRICA_<ROLE>_* > provider default.
import { type EnvName, readEnv } from '../core/env.ts';
import { ModelConfigError } from './errors.ts';
import { PROVIDERS } from './spec.ts';
import type { Provider, Role } from './types.ts';

export interface RoleFlags {
  /** The provider of the role's spec; without it no provider default or key variable applies. */
  provider?: Provider;
  /** `--<role>-base-url` */
  baseUrl?: string;
  /** A key given programmatically (the CLI has no key flag: keys in argv leak into `ps`). */
  apiKey?: string;
}

export interface RoleConfig {
  baseUrl?: string;
  baseUrlFrom: 'flag' | 'env' | 'default' | 'none';
  apiKey?: string;
  /** Where the key came from, e.g. `env:RUBRICA_JUDGE_API_KEY`; never the key itself. */
  apiKeyFrom: 'flag' | `env:${string}` | 'none';
}

const nonEmpty = (v: string | undefined): string | undefined =>
  v !== undefined && v.trim() !== '' ? v.trim() : undefined;

function checkUrl(url: string, from: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ModelConfigError('bad_base_url', `base URL "${url}" (from ${from}) is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ModelConfigError('bad_base_url', `base URL "${url}" (from ${from}) is not http(s)`);
  }
  return url.replace(/(?<!\/)\/+$/, '');
}

/** The environment variable names a role reads, e.g. RUBRICA_JUDGE_BASE_URL. */
export function roleVariables(role: Role): {
  baseUrl: `RUBRICA_${Uppercase<Role>}_BASE_URL` & EnvName;
  apiKey: `RUBRICA_${Uppercase<Role>}_API_KEY` & EnvName;
} {
  // Typed as listed names (core/env.ts), so a new role without its entries does not compile.
  const r = role.toUpperCase() as Uppercase<Role>;
  return { baseUrl: `RUBRICA_${r}_BASE_URL`, apiKey: `RUBRICA_${r}_API_KEY` };
}

export function resolveRoleConfig(
  role: Role,
  flags: RoleFlags = {},
  env: NodeJS.ProcessEnv = process.env,
): RoleConfig {
  const vars = roleVariables(role);
  const info = flags.provider ? PROVIDERS[flags.provider] : undefined;
  const out: RoleConfig = { baseUrlFrom: 'none', apiKeyFrom: 'none' };

  const flagUrl = nonEmpty(flags.baseUrl);
  const envUrl = nonEmpty(readEnv(vars.baseUrl, env));
  if (flagUrl) out.baseUrl = checkUrl(flagUrl, `--${role}-base-url`);
  else if (envUrl) out.baseUrl = checkUrl(envUrl, vars.baseUrl);
  else if (info?.defaultBaseUrl) out.baseUrl = info.defaultBaseUrl;
  out.baseUrlFrom = flagUrl ? 'flag' : envUrl ? 'env' : out.baseUrl ? 'default' : 'none';

  const flagKey = nonEmpty(flags.apiKey);
  const roleKey = nonEmpty(readEnv(vars.apiKey, env));
  const providerKey = info?.keyVariable ? nonEmpty(readEnv(info.keyVariable, env)) : undefined;
  if (flagKey) {
    out.apiKey = flagKey;
    out.apiKeyFrom = 'flag';
  } else if (roleKey) {
    out.apiKey = roleKey;
    out.apiKeyFrom = `env:${vars.apiKey}`;
  } else if (providerKey && info?.keyVariable) {
    out.apiKey = providerKey;
    out.apiKeyFrom = `env:${info.keyVariable}`;
  }
  return out;
}
