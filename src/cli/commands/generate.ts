// `rubrica generate`: sample n completions per prompt from a policy model into a rollouts
// JSONL (resumable; failed calls become error lines, retried on the next run). Thin: parse
// flags, build the client, call generateRollouts, print the usage ledger.
import { readFile } from 'node:fs/promises';
import type { GenerateSummary } from '../../eval/generate.ts';
import { readPromptsFile } from '../../eval/run-inputs.ts';
import { loadDwtSystemPrompt } from '../../export/dwt-prompt.ts';
import { createModelClient } from '../../models/client.ts';
import { inShard } from '../../store/shard.ts';
import { asUsage, parseCount } from '../flags.ts';
import { inputFile } from '../input-file.ts';
import { InterruptedError } from '../jsonl-command.ts';
import { preflight } from '../preflight.ts';
import type { RegisterCommand } from '../register.ts';
import { sampleWithProgress } from '../sample-with-progress.ts';
import { addShardFlags, parseShardFlags, type ShardFlags } from '../shard-flags.ts';
import { endShard, startShard } from '../shard-start.ts';
import { UsageError } from '../usage-error.ts';

export interface SamplingFlags {
  policy?: string;
  policyBaseUrl?: string;
  system?: string;
  temperature?: string;
  maxTokens?: string;
}

export function parseTemperature(raw: string | undefined): number {
  if (raw === undefined) return 1.0;
  const t = Number(raw);
  if (!Number.isFinite(t) || t < 0 || t > 2)
    throw new UsageError(`--temperature must be in [0,2], got "${raw}"`);
  return t;
}

/** --system FILE: the file's text; "none" sends no system message. */
export async function readSystemFlag(raw: string | undefined): Promise<string | null | undefined> {
  if (raw === undefined) return undefined;
  if (raw === 'none') return null;
  inputFile('--system', raw);
  try {
    return (await readFile(raw, 'utf8')).trim();
  } catch (err) {
    throw new UsageError(`--system: cannot read ${raw}: ${(err as Error).message}`);
  }
}

export function formatGenerateSummary(s: GenerateSummary, out: string): string {
  const u = s.usage;
  const failed = Object.entries(s.failedByCode)
    .map(([c, n]) => `${c} ${n}`)
    .join(', ');
  const cost =
    u.costUsd === null ? 'cost unknown (no price for this model)' : `cost $${u.costUsd.toFixed(4)}`;
  return [
    `generate: ${s.planned} samples planned, ${s.skipped} already in ${out}, ${s.written} written`,
    `  ok ${s.ok}${s.truncated ? ` (${s.truncated} cut at --max-tokens)` : ''}, failed ${s.failed}${failed ? ` (${failed}; re-run to retry them)` : ''}`,
    `  policy usage: ${u.calls} calls, ${u.inputTokens} input + ${u.outputTokens} output tokens, ${cost}, ${(u.latencyMs / 1000).toFixed(1)} s of model time`,
  ].join('\n');
}

interface GenerateFlags extends SamplingFlags, ShardFlags {
  prompts: string;
  policy: string;
  n?: string;
  out: string;
  concurrency?: string;
  dwt?: boolean;
}

async function generate(flags: GenerateFlags, setExit: (code: number) => void): Promise<void> {
  const n = parseCount('--n', flags.n, 8);
  const concurrency = parseCount('--concurrency', flags.concurrency, 8);
  const temperature = parseTemperature(flags.temperature);
  const maxTokens = parseCount('--max-tokens', flags.maxTokens, 4096);
  if (flags.dwt && flags.system !== undefined)
    throw new UsageError('give --system or --dwt, not both');
  inputFile('--prompts', flags.prompts);
  const shard = parseShardFlags(flags);
  // --dwt: Reason-SVG's Drawing-with-Thought prompt (six stages, then the SVG).
  const system = flags.dwt ? loadDwtSystemPrompt().text : await readSystemFlag(flags.system);
  const client = asUsage(() =>
    createModelClient(flags.policy, { role: 'policy', baseUrl: flags.policyBaseUrl, concurrency }),
  );
  await preflight(client, 'policy'); // a dead policy server is found in seconds
  const prompts = await readPromptsFile(flags.prompts);
  if (!prompts.ok) {
    process.stderr.write(`rubrica: ${prompts.error.message}\n`);
    setExit(1);
    return;
  }
  for (const i of prompts.issues)
    process.stderr.write(`rubrica: ${i.file}:${i.line}: ${i.message}\n`);
  if (prompts.issues.length) setExit(1);

  // A shard samples the prompts whose id hashes to it, all n samples of each (a GRPO group
  // stays whole); `rubrica merge` puts them back in the order of the prompts file.
  const car = shard
    ? await startShard({ ...shard, command: 'generate', by: 'prompt_id' }, flags.prompts, flags.out)
    : null;
  const summary = await sampleWithProgress({
    prompts: shard ? prompts.value.filter((p) => inShard(p.id, shard)) : prompts.value,
    client,
    n,
    out: flags.out,
    system,
    temperature,
    maxTokens,
    concurrency,
  });
  if (car) endShard(flags.out, car, !summary.interrupted);
  process.stdout.write(`${formatGenerateSummary(summary, flags.out)}\n`);
  if (summary.repairedBytes)
    process.stderr.write(`rubrica: repaired a torn last line in ${flags.out}\n`);
  if (summary.interrupted)
    throw new InterruptedError(
      `interrupted: ${flags.out} keeps the ${summary.written} samples written this run; run the same command again to resume`,
    );
  if (summary.failed > 0) {
    process.stderr.write(
      `rubrica: exit 1: ${summary.failed} of ${summary.written} policy calls failed; run the same command again to retry them\n`,
    );
    setExit(1);
  }
}

export const register: RegisterCommand = (program, setExit) => {
  const cmd = program
    .command('generate')
    .description('sample n completions per prompt from a policy model into rollouts.jsonl')
    .requiredOption('--prompts <file>', 'prompts.jsonl: lines {"id","prompt"}')
    .requiredOption('--policy <spec>', 'policy model, provider:model (e.g. vllm:Qwen/Qwen3-8B)')
    .requiredOption('--out <file>', 'rollouts.jsonl (appended; ids already answered are skipped)')
    .option('--n <n>', 'samples per prompt (default 8)')
    .option(
      '--system <file>',
      'system prompt file ("none": no system message; default asks for one SVG)',
    )
    .option('--dwt', 'Drawing-with-Thought: send prompts/dwt/system.md as the system prompt')
    .option('--temperature <t>', 'sampling temperature (default 1.0)')
    .option('--max-tokens <n>', 'completion token limit (default 4096)')
    .option(
      '--policy-base-url <url>',
      'policy base URL (else RUBRICA_POLICY_BASE_URL, else provider default)',
    )
    .option('--concurrency <n>', 'calls in flight at once (default 8)');
  addShardFlags(cmd).action((flags: GenerateFlags) => generate(flags, setExit));
};
