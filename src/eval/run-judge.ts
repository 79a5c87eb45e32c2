// The judge of an eval run: a cheap reachability probe before any work, a stand-in client
// that answers "not reached" at once when the probe failed (so the run still renders,
// checks and reports, with every rollout marked not judged), and the one-line way to
// start a judge for the provider the user asked for.
import { emptyUsage } from '../core/usage.ts';
import { PROVIDERS } from '../models/spec.ts';
import type { ModelClient, ModelResult, ModelSpec } from '../models/types.ts';

export interface JudgeProbe {
  reachable: boolean;
  /** The URL tried (base URL + /models). */
  url: string;
  /** HTTP status when something answered. */
  status?: number;
  /** Why it was not reachable, in one line. */
  detail?: string;
  ms: number;
}

/**
 * GET {baseUrl}/models with a short timeout. Any HTTP answer (even 401 or 404) means a
 * server is there and the run goes ahead; only "nothing answered" counts as unreachable.
 */
export async function probeJudge(baseUrl: string, timeoutMs = 3000): Promise<JudgeProbe> {
  const url = `${baseUrl.replace(/(?<!\/)\/+$/, '')}/models`;
  const t0 = performance.now();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return { reachable: true, url, status: res.status, ms: performance.now() - t0 };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const detail =
      e.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { reachable: false, url, detail, ms: performance.now() - t0 };
  }
}

/** A judge client that fails every call at once with `network`: "not judged", no waiting. */
export function unreachableJudge(spec: ModelSpec, reason: string): ModelClient {
  const fail = async <T>(): Promise<ModelResult<T>> => ({
    ok: false,
    error: { code: 'network', message: `judge not reached: ${reason}` },
    usage: emptyUsage(),
  });
  return { spec, generateText: fail, generateObject: fail };
}

/** The paper's judge, served locally: what the hints suggest when the user's judge is down. */
export const SUGGESTED_JUDGE = {
  ollama: 'ollama:qwen3-vl:8b',
  vllm: 'vllm:Qwen/Qwen3-VL-8B-Instruct',
};

/** Plain lines telling the user how to start a judge that `spec` would reach. */
export function judgeStartHints(spec: ModelSpec): string[] {
  const lines: string[] = [];
  switch (spec.provider) {
    case 'ollama':
      lines.push(`ollama pull ${spec.model} && ollama serve`);
      break;
    case 'vllm':
      lines.push(`vllm serve ${spec.model}`);
      break;
    case 'sglang':
      lines.push(`python -m sglang.launch_server --model-path ${spec.model}`);
      break;
    case 'openai-compatible':
      lines.push('start your OpenAI-compatible server and pass --judge-base-url');
      break;
    default: {
      const key = PROVIDERS[spec.provider].keyVariable;
      lines.push(`check the network${key ? ` and ${key}` : ''} (hosted API ${spec.provider})`);
    }
  }
  // Always offer the paper's judge on both local servers, unless that is what was tried.
  if (spec.id !== SUGGESTED_JUDGE.ollama) {
    lines.push(
      `ollama pull qwen3-vl:8b && ollama serve   # then --judge ${SUGGESTED_JUDGE.ollama}`,
    );
  }
  if (spec.id !== SUGGESTED_JUDGE.vllm) {
    lines.push(`vllm serve Qwen/Qwen3-VL-8B-Instruct   # then --judge ${SUGGESTED_JUDGE.vllm}`);
  }
  return lines;
}

/** What the CLI prints and the report shows when the judge could not be reached. */
export function judgeNotice(spec: ModelSpec, probe: JudgeProbe): string {
  return [
    `The judge was not reachable: ${spec.id} at ${probe.url} (${probe.detail ?? 'no answer'}).`,
    'Every rollout was still rendered and checked; none was judged (status judge_error, shown as "not judged").',
    'Start a judge, then run the same command again (rollouts not judged are scored on the re-run):',
    ...judgeStartHints(spec).map((l) => `  ${l}`),
  ].join('\n');
}
