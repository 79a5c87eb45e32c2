// The pre-flight probe of batch commands: before `score`, `rubric synth`, `generate` or
// `serve` spends minutes on retries and backoff against a model server that is not there,
// one cheap request (GET <base URL>/models, as `eval` does) finds out in seconds. Any HTTP
// answer counts as "there" (a 401 or 404 is the server speaking); only silence stops the
// command, with the URL tried and how to start a server.
import { readEnv } from '../core/env.ts';
import { judgeStartHints, probeJudge } from '../eval/run-judge.ts';
import type { CircuitEvent } from '../models/circuit-breaker.ts';
import { ModelUnreachableError } from '../models/errors.ts';
import type { ModelClient, Role } from '../models/types.ts';

/** Throws ModelUnreachableError when the client's server does not answer within `timeoutMs`. */
export async function preflight(
  client: ModelClient | undefined,
  role: Role,
  timeoutMs = Number(readEnv('RUBRICA_PREFLIGHT_TIMEOUT_MS')) || 3000,
): Promise<void> {
  if (!client?.baseUrl) return;
  const probe = await probeJudge(client.baseUrl, timeoutMs);
  if (probe.reachable) return;
  const hints = judgeStartHints(client.spec).map((l) => `  ${l}`);
  throw new ModelUnreachableError(
    [
      `the ${role} model did not answer: ${client.spec.id} at ${probe.url} (${probe.detail ?? 'no answer'}).`,
      `Start it, or point --${role}-base-url at a running server, e.g.:`,
      ...hints,
    ].join('\n'),
    probe.url,
  );
}

/** One stderr line when a model's circuit opens or closes, so a long run says why it sped up. */
export function reportCircuit(e: CircuitEvent & { model: string; baseUrl: string }): void {
  if (e.state === 'half-open') return;
  const line =
    e.state === 'open'
      ? `${e.model} at ${e.baseUrl} failed ${e.failures} attempts in a row` +
        `${e.lastError ? ` (${e.lastError.code}: ${e.lastError.message.slice(0, 160)})` : ''}; ` +
        `not calling it for ${Math.ceil((e.retryInMs ?? 0) / 1000)} s — rollouts meanwhile are grader faults`
      : `${e.model} at ${e.baseUrl} answers again`;
  process.stderr.write(`rubrica: ${line}\n`);
}

/**
 * Pre-flight probes the judges of a panel after the first (`judging.panel`, each made with
 * the first judge's client options). A panel answers while its quorum does, so a judge that
 * is not there is one stderr line while enough of the others are; below the quorum it stops
 * the command like a lone judge would.
 */
export async function preflightPanel(
  specs: readonly string[],
  quorum: number | null,
  make: (spec: string) => ModelClient,
): Promise<void> {
  const others = specs.slice(1);
  let dead = 0;
  let first: unknown = null;
  for (const spec of others) {
    try {
      await preflight(make(spec), 'judge');
    } catch (err) {
      if (!(err instanceof ModelUnreachableError)) throw err;
      dead++;
      first ??= err;
      process.stderr.write(`rubrica: panel judge not reachable: ${err.message.split('\n')[0]}\n`);
    }
  }
  if (dead > 0 && specs.length - dead < (quorum ?? specs.length)) throw first;
}
