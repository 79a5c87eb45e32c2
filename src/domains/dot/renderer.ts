// The dot domain: Graphviz `dot -Tpng` inside the sandbox. SERVER_NAME makes Graphviz
// confine `image=`/`shapefile=` to GV_FILE_PATH, an empty directory — on top of the
// sandbox, where the host's files are absent anyway.
//
// A graph Graphviz refuses is a failure with Graphviz's own words, never a picture or a
// sandbox fault: input with no graph in it (dot exits 0 and writes no file) is `exec_error`;
// a graph too big for a bitmap (dot warns "too large for cairo-renderer bitmaps" and writes
// an empty file, or cannot create its cairo surface) is `too_large`; any other run that
// wrote nothing is `exec_error` with dot's warnings.
import type { SandboxLimits } from '../sandbox/bwrap.ts';
import { createOneShotRenderer, EXIT_NO_OUTPUT, EXIT_TOOL_FAILED } from '../sandbox/one-shot.ts';
import type { DomainRender, DomainRenderer, DomainRenderOptions } from '../types.ts';

export interface DotRendererOptions {
  timeoutMs?: number;
  /** Default 96 dpi (a graph may set its own). */
  dpi?: number;
  limits?: Partial<SandboxLimits>;
}

/** Written by the pipeline when dot read no graph at all. */
const NO_GRAPH = 'rubrica: no graph in the input';
/** dot's words for a graph it cannot fit in a bitmap. */
const TOO_BIG = /too large for cairo-renderer bitmaps|failure to create cairo surface/;

/** A refusal in dot's own words: the failure code that fits it. */
export function dotRefusal(r: DomainRender): DomainRender {
  if (r.ok) return r;
  const { code } = r.error;
  const tail = r.notes?.stderrTail ?? '';
  if ((code === 'exec_error' || code === 'no_output') && TOO_BIG.test(tail)) {
    const message = `dot: the graph is too large to draw as a bitmap:\n${tail}`;
    return { ...r, error: { code: 'too_large', message } };
  }
  if (code === 'exec_error' && tail.includes(NO_GRAPH)) {
    return { ...r, error: { code: 'exec_error', message: 'dot: no graph in the input' } };
  }
  if (code === 'no_output') {
    const message = `dot wrote no picture${tail ? `:\n${tail}` : ''}`;
    return { ...r, error: { code: 'exec_error', message } };
  }
  return r;
}

export function createDotRenderer(opts: DotRendererOptions = {}): DomainRenderer {
  const dpi = opts.dpi ?? 96;
  const inner = createOneShotRenderer({
    name: 'dot',
    spec: {
      argv: [
        '/bin/sh',
        '-c',
        [
          `mkdir -p /tmp/no-images && cat > g.dot && dot -Gdpi=${dpi} -Tpng -o out.png g.dot 2> err.txt; rc=$?`,
          'tail -c 1500 err.txt >&2',
          `[ $rc = 0 ] || exit ${EXIT_TOOL_FAILED}`,
          // dot exits 0 without a file when the input holds no graph, and with an empty one
          // when it could not draw the graph it read.
          `[ -e out.png ] || { echo '${NO_GRAPH}' >&2; exit ${EXIT_TOOL_FAILED}; }`,
          `[ -s out.png ] || exit ${EXIT_NO_OUTPUT}`,
          'cat out.png',
        ].join('; '),
      ],
      env: { SERVER_NAME: 'rubrica', GV_FILE_PATH: '/tmp/no-images/' },
      limits: { cpuSeconds: 20, memoryBytes: 1024 ** 3, ...opts.limits },
    },
    timeoutMs: opts.timeoutMs ?? 20_000,
    maxCodeBytes: 256 * 1024,
  });
  return {
    render: async (code: string, ro?: DomainRenderOptions) =>
      dotRefusal(await inner.render(code, ro)),
    close: () => inner.close(),
  };
}
