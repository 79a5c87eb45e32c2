// The one list of environment variables rubrica's TypeScript code reads: name, what it
// changes, what applies when it is unset, and who reads it. `rubrica --help` prints this list
// (cli/main.ts), docs/environment.md documents it, and env.test.ts fails when code reads a
// name that is not here, when a listed name is read by no code, or when the help or the
// docs leave one out. Read a variable through `readEnv`, which accepts only listed names.
//
// This module is loaded by the render worker (through core/fonts.ts) and by the root help:
// it holds plain data and no imports, so it costs those start-ups nothing worth measuring.

/** One environment variable rubrica reads. */
export interface EnvVar {
  /** The variable's name, e.g. `RUBRICA_JUDGE_BASE_URL`. */
  readonly name: string;
  /** What setting it changes, in one line (printed by `rubrica --help`). */
  readonly meaning: string;
  /** What applies when it is unset, in words (the same text in docs/environment.md). */
  readonly default: string;
  /** The room or commands that read it. */
  readonly readBy: string;
}

const MODELS = 'models: commands with a model';

/**
 * Every variable, grouped as `rubrica --help` lists them: model servers, the services,
 * run behaviour, paths, then the development ones. The role variables (`RUBRICA_<ROLE>_*`,
 * models/role-config.ts) and the providers' key variables (models/spec.ts) are spelt out
 * one by one, so each has an entry a reader can find and the type below can check.
 */
export const ENV_VARS = [
  {
    name: 'RUBRICA_AUTHOR_BASE_URL',
    meaning: "the rubric author's server when --author-base-url is not given",
    default: "the provider's default URL",
    readBy: `${MODELS} (rubric synth, curate, models check)`,
  },
  {
    name: 'RUBRICA_AUTHOR_API_KEY',
    meaning: "the rubric author's API key, tried before the provider's key",
    default: "the provider's key variable",
    readBy: `${MODELS} (rubric synth, curate, models check)`,
  },
  {
    name: 'RUBRICA_JUDGE_BASE_URL',
    meaning: "the judge's server when --judge-base-url is not given",
    default: "the provider's default URL",
    readBy: `${MODELS} (score, eval, serve, probe, rubric synth, curate, models check); judge-proxy with --token`,
  },
  {
    name: 'RUBRICA_JUDGE_BASE_URLS',
    meaning:
      'several judge servers (comma list) when --judge-base-url is not given: least-loaded healthy server, failing ones ejected and probed back, hedges to another',
    default: 'none',
    readBy: `${MODELS} (score, eval, serve, probe)`,
  },
  {
    name: 'RUBRICA_JUDGE_API_KEY',
    meaning: "the judge's API key, tried before the provider's key",
    default: "the provider's key variable",
    readBy: `${MODELS} (score, eval, serve, probe, rubric synth, curate, models check)`,
  },
  {
    name: 'RUBRICA_POLICY_BASE_URL',
    meaning: "the policy's server when --policy-base-url is not given",
    default: "the provider's default URL",
    readBy: `${MODELS} (generate, eval, curate, models check)`,
  },
  {
    name: 'RUBRICA_POLICY_API_KEY',
    meaning: "the policy's API key, tried before the provider's key",
    default: "the provider's key variable",
    readBy: `${MODELS} (generate, eval, curate, models check)`,
  },
  {
    name: 'OPENAI_API_KEY',
    meaning: 'API key of openai: models (required), after RUBRICA_<ROLE>_API_KEY',
    default: 'none',
    readBy: MODELS,
  },
  {
    name: 'ANTHROPIC_API_KEY',
    meaning: 'API key of anthropic: models (required), after RUBRICA_<ROLE>_API_KEY',
    default: 'none',
    readBy: MODELS,
  },
  {
    name: 'GOOGLE_GENERATIVE_AI_API_KEY',
    meaning: 'API key of google: models (required), after RUBRICA_<ROLE>_API_KEY',
    default: 'none',
    readBy: MODELS,
  },
  {
    name: 'VLLM_API_KEY',
    meaning: 'API key of vllm: models (optional), after RUBRICA_<ROLE>_API_KEY',
    default: 'none: no key is sent',
    readBy: MODELS,
  },
  {
    name: 'RUBRICA_PRICES',
    meaning: 'a JSON price file (USD per million tokens) laid over the built-in prices',
    default: 'built-in prices only',
    readBy: `${MODELS} (cost in usage reports)`,
  },
  {
    name: 'RUBRICA_PREFLIGHT_TIMEOUT_MS',
    meaning: 'ms the pre-flight GET <base URL>/models waits for a model server',
    default: '3000',
    readBy: 'cli: score, serve, generate, rubric synth, curate',
  },
  {
    name: 'RUBRICA_TOKEN',
    meaning: 'bearer token of serve, studio and judge-proxy when --token is not given',
    default: 'none: loopback only unless --insecure',
    readBy: 'cli: serve, studio, judge-proxy',
  },
  {
    name: 'RUBRICA_PROGRESS_INTERVAL_MS',
    meaning: 'ms between progress lines when stderr is not a terminal; 0 = none',
    default: '30000',
    readBy: 'store (score, eval, generate, rubric synth, curate); cli: probe',
  },
  {
    name: 'RUBRICA_DRAIN_SECONDS',
    meaning: 'seconds a batch told to stop by SIGTERM goes on finishing the calls in flight',
    default: '25 (Slurm and Kubernetes send SIGKILL 30 s after SIGTERM)',
    readBy: 'cli (score, rubric synth, curate, eval)',
  },
  {
    name: 'RUBRICA_CHROMIUM',
    meaning: 'the Chromium executable (Chromium renderer, html and mermaid domains)',
    default: '/usr/bin/chromium',
    readBy: 'browser',
  },
  {
    name: 'RUBRICA_FONT_DIR',
    meaning: 'the folder of the DejaVu fonts every renderer draws text with',
    default: '/usr/share/fonts/truetype/dejavu',
    readBy: 'core (render workers, browser)',
  },
  {
    name: 'RUBRICA_CGROUP_ROOT',
    meaning:
      'the cgroup directory (a delegated cgroup v2 subtree, or a v1 memory cgroup) under which each sandbox gets its memory cgroup',
    default: "rubrica's own cgroup, from /proc/self/cgroup",
    readBy: 'domains (sandboxes; serve --require-cgroup, doctor)',
  },
  {
    name: 'RUBRICA_CACHE_DIR',
    meaning: 'the folder for derived files (the token-count table)',
    default: '$XDG_CACHE_HOME/rubrica',
    readBy: 'artifact (token counts: inspect, score, eval)',
  },
  {
    name: 'XDG_CACHE_HOME',
    meaning: 'the user cache folder, used when RUBRICA_CACHE_DIR is unset',
    default: '~/.cache',
    readBy: 'artifact (token counts: inspect, score, eval)',
  },
  {
    name: 'SLURM_ARRAY_TASK_ID',
    meaning:
      'set by Slurm in a job array: the shard index for --shard auto (less SLURM_ARRAY_TASK_MIN)',
    default: 'unset: --shard auto looks for JOB_COMPLETION_INDEX',
    readBy: 'cli (--shard auto: score, rubric synth, generate, curate, eval)',
  },
  {
    name: 'SLURM_ARRAY_TASK_MIN',
    meaning: "set by Slurm: the array's first index, subtracted from SLURM_ARRAY_TASK_ID",
    default: '0',
    readBy: 'cli (--shard auto: score, rubric synth, generate, curate, eval)',
  },
  {
    name: 'SLURM_ARRAY_TASK_MAX',
    meaning: "set by Slurm: the array's last index; N = MAX - MIN + 1 when COUNT is unset",
    default: 'unset',
    readBy: 'cli (--shard auto: score, rubric synth, generate, curate, eval)',
  },
  {
    name: 'SLURM_ARRAY_TASK_COUNT',
    meaning: 'set by Slurm: the number of shards for --shard auto (unless --shards)',
    default: 'unset: MAX - MIN + 1',
    readBy: 'cli (--shard auto: score, rubric synth, generate, curate, eval)',
  },
  {
    name: 'JOB_COMPLETION_INDEX',
    meaning: 'set by a Kubernetes Indexed Job: the shard index for --shard auto, with --shards N',
    default: 'unset',
    readBy: 'cli (--shard auto: score, rubric synth, generate, curate, eval)',
  },
  {
    name: 'RUBRICA_FROM_SOURCE',
    meaning: '1 = run the TypeScript sources instead of dist/ (in a clone)',
    default: 'unset: run dist/',
    readBy: 'bin/rubrica.js',
  },
  {
    name: 'VITEST',
    meaning: 'set by vitest: run the sources, as RUBRICA_FROM_SOURCE=1 does',
    default: 'unset',
    readBy: 'bin/rubrica.js',
  },
] as const satisfies readonly EnvVar[];

/** A name in the list: the only names `readEnv` accepts. */
export type EnvName = (typeof ENV_VARS)[number]['name'];

/**
 * The value of a listed environment variable, unchanged (`undefined` when unset; an empty
 * string stays empty, since some readers treat it differently from unset). `env` is the
 * environment to read, for callers that are handed one (the model clients take an `env`
 * option so a test or an embedding program can pass its own).
 *
 * @example const dir = readEnv('RUBRICA_CACHE_DIR') ?? defaultDir;
 */
export function readEnv(
  name: EnvName,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  return env[name];
}
