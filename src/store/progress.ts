// A progress bar for long JSONL runs (cli-progress), on stderr and only on a TTY, with
// rate, ETA and the running cost of model calls.
import cliProgress from 'cli-progress';
import type { Usage } from '../core/usage.ts';

export interface RunProgress {
  tick(usage: Usage): void;
  stop(): void;
}

function money(usd: number | null): string {
  return usd === null ? 'n/a' : `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}

export function createRunProgress(
  label: string,
  total: number,
  enabled = Boolean(process.stderr.isTTY),
): RunProgress {
  if (!enabled || total === 0) return { tick() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {value}/{total} | {rate}/s | ETA {eta_formatted} | cost {cost}`,
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const start = Date.now();
  let cost: number | null = 0;
  let done = 0;
  bar.start(total, 0, { rate: '0.0', cost: money(0) });
  return {
    tick(usage) {
      done++;
      cost = cost === null || usage.costUsd === null ? null : cost + usage.costUsd;
      const secs = Math.max(0.001, (Date.now() - start) / 1000);
      bar.update(done, { rate: (done / secs).toFixed(1), cost: money(cost) });
    },
    stop() {
      bar.stop();
    },
  };
}
