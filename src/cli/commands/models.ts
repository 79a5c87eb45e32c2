// `rubrica models check SPEC`: one small structured call with a picture, to see that a model
// server is reachable, honours the JSON schema and sees images before a long run.
import { checkModel, formatModelCheck } from '../../models/check.ts';
import { createModelClient } from '../../models/client.ts';
import { ModelConfigError } from '../../models/errors.ts';
import type { Role } from '../../models/types.ts';
import type { RegisterCommand } from '../register.ts';
import { UsageError } from '../usage-error.ts';

interface CheckFlags {
  role: string;
  baseUrl?: string;
  timeoutMs: string;
  retries: string;
  image: boolean;
  json?: boolean;
}

const ROLES: Role[] = ['author', 'judge', 'policy'];

function int(name: string, raw: string, min: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

export const register: RegisterCommand = (program, setExit) => {
  const models = program.command('models').description('model servers: check a configuration');
  models
    .command('check')
    .description('one structured call with an image: reachable, schema honoured, image seen')
    .argument('<spec>', 'provider:model, e.g. vllm:Qwen/Qwen3-VL-8B-Instruct')
    .option(
      '--role <role>',
      'whose RUBRICA_<ROLE>_* variables to read: author, judge, policy',
      'judge',
    )
    .option(
      '--base-url <url>',
      'server base URL ending in /v1 (else RUBRICA_<ROLE>_BASE_URL, else the default)',
    )
    .option('--timeout-ms <n>', 'per-attempt timeout', '60000')
    .option('--retries <n>', 'retries after the first attempt', '1')
    .option('--no-image', 'ask a text-only question (for models without vision)')
    .option('--json', 'print the result as JSON')
    .action(async (spec: string, flags: CheckFlags) => {
      if (!ROLES.includes(flags.role as Role)) {
        throw new UsageError(`--role must be one of ${ROLES.join(', ')}, got "${flags.role}"`);
      }
      const timeoutMs = int('--timeout-ms', flags.timeoutMs, 1);
      const maxRetries = int('--retries', flags.retries, 0);
      let client: ReturnType<typeof createModelClient>;
      try {
        client = createModelClient(spec, {
          role: flags.role as Role,
          ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
          timeoutMs,
          maxRetries,
        });
      } catch (err) {
        if (err instanceof ModelConfigError) throw new UsageError(err.message);
        throw err;
      }
      const result = await checkModel(client, { image: flags.image });
      const out = flags.json
        ? `${JSON.stringify({ ...result, baseUrl: client.baseUrl })}\n`
        : `base URL:  ${client.baseUrl}\n${formatModelCheck(result)}`;
      process.stdout.write(out);
      if (!result.ok) setExit(1);
    });
};
