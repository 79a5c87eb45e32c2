// The dot domain: Graphviz `dot -Tpng` inside the sandbox. SERVER_NAME makes Graphviz
// confine `image=`/`shapefile=` to GV_FILE_PATH, an empty directory — on top of the
// sandbox, where the host's files are absent anyway.
import type { SandboxLimits } from '../sandbox/bwrap.ts';
import { createOneShotRenderer, EXIT_TOOL_FAILED } from '../sandbox/one-shot.ts';
import type { DomainRenderer } from '../types.ts';

export interface DotRendererOptions {
  timeoutMs?: number;
  /** Default 96 dpi (a graph may set its own). */
  dpi?: number;
  limits?: Partial<SandboxLimits>;
}

export function createDotRenderer(opts: DotRendererOptions = {}): DomainRenderer {
  const dpi = opts.dpi ?? 96;
  return createOneShotRenderer({
    name: 'dot',
    spec: {
      argv: [
        '/bin/sh',
        '-c',
        `mkdir -p /tmp/no-images && cat > g.dot && dot -Gdpi=${dpi} -Tpng -o out.png g.dot 2> err.txt; rc=$?; tail -c 1500 err.txt >&2; [ $rc = 0 ] || exit ${EXIT_TOOL_FAILED}; cat out.png`,
      ],
      env: { SERVER_NAME: 'rubrica', GV_FILE_PATH: '/tmp/no-images/' },
      limits: { cpuSeconds: 20, memoryBytes: 1024 ** 3, ...opts.limits },
    },
    timeoutMs: opts.timeoutMs ?? 20_000,
    maxCodeBytes: 256 * 1024,
  });
}
