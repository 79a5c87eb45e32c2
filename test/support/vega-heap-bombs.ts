// Vega specs a policy can write to exhaust the vega runtime's heap (issue 22, item 3). Before
// the runtime was its own process, V8's fatal out-of-memory error in its worker thread
// aborted the whole Node process: `inspect` exited 134 with no JSON, `serve` died mid-batch.

/** The spec found from outside: a `sequence` whose stop is a signal (the row count saw 0). */
export const SIGNAL_SEQUENCE = JSON.stringify({
  $schema: 'https://vega.github.io/schema/vega/v5.json',
  width: 100,
  height: 100,
  signals: [{ name: 'n', value: 1e9 }],
  data: [{ name: 't', transform: [{ type: 'sequence', start: 0, stop: { signal: 'n' } }] }],
  marks: [{ type: 'symbol', from: { data: 't' }, encode: { enter: { x: { field: 'data' } } } }],
});

/**
 * Arrays built by an expression no row count can see: eight rows × sequence(0, 2e7), about
 * 1.3 GB of numbers, so only the heap limit stops it (in about a second).
 */
export const EXPRESSION_ARRAYS = JSON.stringify({
  $schema: 'https://vega.github.io/schema/vega/v5.json',
  width: 100,
  height: 100,
  signals: [{ name: 'n', value: 2e7 }],
  data: [
    {
      name: 't',
      values: Array.from({ length: 8 }, (_, a) => ({ a })),
      transform: [{ type: 'formula', expr: 'sequence(0, n)', as: 'b' }],
    },
  ],
  marks: [{ type: 'symbol', from: { data: 't' }, encode: { enter: { x: { field: 'a' } } } }],
});
