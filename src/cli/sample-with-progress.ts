// Sampling a policy from the CLI (`generate`, and `eval --policy`): generateRollouts with the
// run's progress display and Ctrl-C handling, wired once for both commands.
import { type GenerateOptions, type GenerateSummary, generateRollouts } from '../eval/generate.ts';
import { createRunProgress } from '../store/progress.ts';
import { withInterrupt } from './jsonl-command.ts';

export async function sampleWithProgress(
  opts: Omit<GenerateOptions, 'signal' | 'onStart' | 'onLine'>,
): Promise<GenerateSummary> {
  let progress = createRunProgress('generate', 0);
  return withInterrupt((signal) =>
    generateRollouts({
      ...opts,
      signal,
      onStart: (todo) => {
        progress = createRunProgress('generate', todo);
      },
      onLine: (line) => progress.tick(line.usage, line.error ? line.error.code : null),
    }),
  ).finally(() => progress.stop());
}
