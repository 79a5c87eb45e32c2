// Policy sampling: n completions per prompt from any provider, appended to a rollouts
// JSONL that `eval` and `score` read. Resumable: ids already answered are skipped, while a
// failed call is written as an error line and tried again on the next run (the last line
// of an id wins). A failed call never stops the run; a `refuse` hook (eval: a reward that does
// not apply to the sample's domain) stops it at the first sample it refuses.
import type { DomainId } from '../core/domain-ids.ts';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import type { ChatMessage, FinishReason, ModelClient } from '../models/types.ts';
import { itemsSource, openJsonlOutput, runJsonl } from '../store/jsonl.ts';
import type { PromptLine } from './run-inputs.ts';

/** Used when no --system file is given: asks for one SVG in a fenced block, nothing else. */
export const DEFAULT_POLICY_SYSTEM =
  'You are an expert vector illustrator. Draw what the user describes as one complete, ' +
  'self-contained SVG document (use a viewBox; no external images, fonts or scripts). ' +
  'Answer with the SVG code in a ```svg code block.';

/** What to sample: prompts, the policy client, samples per prompt and the file to append to. */
export interface GenerateOptions {
  prompts: readonly PromptLine[];
  client: ModelClient;
  /** Samples per prompt (GRPO's G; the paper evaluates with 8). */
  n: number;
  /** The rollouts file; appended to, never truncated. */
  out: string;
  /** System prompt; null sends none. Default {@link DEFAULT_POLICY_SYSTEM}. */
  system?: string | null;
  temperature?: number;
  maxTokens?: number;
  /** Calls in flight at once. Default 8. */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called once before sampling: samples to ask for now, and samples planned in all. */
  onStart?: (todo: number, planned: number) => void;
  /** Called after each line is written, in input order. */
  onLine?: (line: GeneratedLine) => void;
  /**
   * Why a written sample stops the run (e.g. the reward to be computed does not apply to the
   * domain the sample turned out to be in), or null. The first message stops sampling: calls
   * in flight are aborted and nothing more is asked; `refused` in the summary says why.
   */
  refuse?: (line: GeneratedLine) => string | null;
}

export interface GeneratedLine {
  id: string;
  prompt_id: string;
  prompt: string;
  sample: number;
  model: string;
  usage: Usage;
  /** The prompt's domain, when the prompts file gave one. */
  domain?: DomainId;
  completion?: string;
  finish_reason?: FinishReason;
  error?: { code: string; message: string };
}

/**
 * What a `generateRollouts` run did: samples planned, skipped as already answered, written, and
 * how many of those are ok.
 */
export interface GenerateSummary {
  /** Samples asked for: prompts × n. */
  planned: number;
  /** Already answered before this run. */
  skipped: number;
  written: number;
  ok: number;
  failed: number;
  failedByCode: Record<string, number>;
  truncated: number;
  usage: Usage;
  /** Bytes of a torn last line removed from the output before appending. */
  repairedBytes: number;
  /** Old lines (failed calls since answered) removed when the output was rewritten. */
  compacted: number;
  /** True when opts.signal stopped the run early (re-run to finish). */
  interrupted: boolean;
  /** Set when `refuse` stopped the run: its message and the sample it refused. */
  refused?: { id: string; message: string };
}

interface SampleTask {
  id: string;
  prompt_id: string;
  prompt: string;
  sample: number;
  domain?: DomainId;
}

export function sampleId(promptId: string, k: number): string {
  return `${promptId}#${k}`;
}

/**
 * Samples `n` completions per prompt from the policy and appends them to `opts.out`, one line
 * per id. Resumable: answered ids are skipped and failed calls written as error lines, then
 * asked again next time; a failed call never stops the run. Resolves a summary of what was
 * written.
 * @example
 * ```ts
 * const policy = createModelClient('vllm:Qwen/Qwen2.5-7B-Instruct', { role: 'policy' });
 * const prompts = [{ id: 'p1', prompt: 'a red apple' }];
 * const s = await generateRollouts({ prompts, client: policy, n: 8, out: 'rollouts.jsonl' });
 * ```
 */
export async function generateRollouts(opts: GenerateOptions): Promise<GenerateSummary> {
  const tasks: SampleTask[] = opts.prompts.flatMap((p) =>
    Array.from({ length: opts.n }, (_, k) => ({
      id: sampleId(p.id, k),
      prompt_id: p.id,
      prompt: p.prompt,
      sample: k,
      ...(p.domain ? { domain: p.domain } : {}),
    })),
  );
  // Only answered ids count as done: an id whose last line is an error is asked again, and
  // the answer replaces the error line when the run ends (one line per id).
  const out = await openJsonlOutput(opts.out, { redo: (l) => typeof l.completion !== 'string' });
  const answered = out.done;
  const system = opts.system === undefined ? DEFAULT_POLICY_SYSTEM : opts.system;
  const summary: GenerateSummary = {
    planned: tasks.length,
    skipped: 0,
    written: 0,
    ok: 0,
    failed: 0,
    failedByCode: {},
    truncated: 0,
    usage: emptyUsage(),
    repairedBytes: out.repairedBytes,
    compacted: 0,
    interrupted: false,
  };

  // Stops sampling when the caller's signal fires or `refuse` refuses a sample.
  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;

  const sampleOne = async (task: SampleTask): Promise<GeneratedLine> => {
    const messages: ChatMessage[] = [];
    if (system) messages.push({ role: 'system', content: system });
    messages.push({ role: 'user', content: task.prompt });
    const res = await opts.client.generateText(messages, {
      temperature: opts.temperature ?? 1.0,
      maxTokens: opts.maxTokens ?? 4096,
      signal,
    });
    const base = { ...task, model: opts.client.spec.id, usage: res.usage };
    if (!res.ok) return { ...base, error: { code: res.error.code, message: res.error.message } };
    const line: GeneratedLine = { ...base, completion: res.value };
    if (res.finishReason) line.finish_reason = res.finishReason;
    return line;
  };

  opts.onStart?.(tasks.filter((t) => !answered.has(t.id)).length, tasks.length);
  try {
    const result = await runJsonl<SampleTask, GeneratedLine>({
      source: itemsSource(tasks),
      out,
      signal,
      concurrency: opts.concurrency ?? 8,
      process: sampleOne,
      onWritten: (line) => {
        summary.usage = addUsage(summary.usage, line.usage);
        if (line.error) {
          summary.failed++;
          summary.failedByCode[line.error.code] = (summary.failedByCode[line.error.code] ?? 0) + 1;
        } else {
          summary.ok++;
          if (line.finish_reason === 'length') summary.truncated++;
        }
        opts.onLine?.(line);
        const refused = summary.refused ? null : (opts.refuse?.(line) ?? null);
        if (refused !== null) {
          summary.refused = { id: line.id, message: refused };
          stop.abort();
        }
      },
    });
    summary.written = result.written;
    summary.skipped = result.skippedDone;
    summary.interrupted = result.interrupted && !summary.refused;
    summary.compacted = await out.compact();
  } finally {
    out.close();
  }
  return summary;
}
