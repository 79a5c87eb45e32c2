// The persistent vega runtime (a sandboxed process started by runtime.ts; plain JS so it
// starts without a TypeScript loader). Compiles Vega-Lite (or takes a Vega spec) and renders it to
// SVG headlessly. Nothing is ever fetched: the loader refuses every URL, file and data: URI,
// so only inline `values` can feed a chart — and the task's own data files (issue 23): a
// `data.url` that is exactly the name of one of the job's assets (or `./` + it) loads that
// content, from memory; every other URL is refused as before. The parent bounds its heap, kills it on a
// timeout and replaces it when it dies; it exits when its stdin closes.
// Expressions (signals, filters, calculate, encodings) are evaluated by Vega's AST interpreter
// (vega-interpreter, Vega's CSP-safe mode), never compiled: vega's default runtime turns the
// policy's expression text into JavaScript with `Function`, and parsing-and-rewriting sandboxes
// have a history of escapes (CVE-2025-59840). The process also runs with V8's
// --disallow-code-generation-from-strings (sandbox-spec.ts), so any path to eval/Function left in a
// library throws instead of compiling text.
import { dsvFormat } from 'd3-dsv';
import * as vega from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { compile } from 'vega-lite';

/**
 * CSV/TSV/DSV readers that build rows without code generation. d3-dsv (which vega uses) turns
 * the header line into the body of a `new Function`; a policy can write inline CSV
 * (`values` as a string with a csv format), so its column names would be text given to it.
 */
function delimitedReader(fixedDelimiter) {
  const reader = (data, format) => {
    const delimiter = fixedDelimiter ?? format?.delimiter;
    const rows = dsvFormat(delimiter).parseRows(String(data));
    const columns = Array.isArray(format?.header)
      ? format.header.map(String)
      : (rows.shift() ?? []);
    const out = rows.map((row) => {
      const o = {};
      for (let i = 0; i < columns.length; i++) o[columns[i]] = row[i] || '';
      return o;
    });
    out.columns = columns;
    return out;
  };
  reader.responseType = 'text';
  return reader;
}
vega.formats('dsv', delimitedReader(undefined));
vega.formats('csv', delimitedReader(','));
vega.formats('tsv', delimitedReader('\t'));

function refusingLoader(attempts, assets) {
  const refuse = async (uri) => {
    attempts.push(String(uri).slice(0, 200));
    throw new Error(`external resources are not allowed: ${String(uri).slice(0, 200)}`);
  };
  // Only data loads (context 'dataflow') may read an asset; an image mark's href never does.
  const load = async (uri, options) => {
    const name = typeof uri === 'string' ? uri.replace(/^\.\//, '') : '';
    const context = options?.context;
    if (context === 'dataflow' && Object.hasOwn(assets, name)) return assets[name];
    return refuse(uri);
  };
  return { load, sanitize: refuse, http: refuse, file: refuse };
}

/** Rows of inline data, over every `values` array in the spec (datasets included). */
function countRows(node, depth = 0) {
  if (depth > 64 || node === null || typeof node !== 'object') return 0;
  let n = 0;
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'values' || depth === 1) && Array.isArray(v)) n += v.length;
    else if (k === 'sequence' && v && typeof v === 'object') n += sequenceLength(v);
    else if (typeof v === 'object') n += countRows(v, depth + 1);
  }
  return n;
}

/** Rows a `sequence` generator would make (vega-lite's and vega's), when its bounds are numbers. */
function sequenceLength(seq) {
  const start = Number(seq.start ?? 0);
  const stop = Number(seq.stop);
  const step = Math.abs(Number(seq.step ?? 1)) || 1;
  return Number.isFinite(start) && Number.isFinite(stop) ? Math.abs(stop - start) / step : 0;
}

/**
 * The row limit, applied where vega generates rows: a `sequence` whose bounds are signals or
 * expressions is invisible to countRows, so the transform itself refuses to make more than
 * the limit (the heap limit stays the last line for every other way to build big data).
 */
const SEQUENCE_LIMIT = 'rows from a sequence';
let maxGeneratedRows = 50_000;
/** Set when a sequence was refused in the current job (vega logs transform errors). */
let refused = null;
const Sequence = vega.transforms.sequence;
const sequenceTransform = Sequence.prototype.transform;
Sequence.prototype.transform = function limitedSequence(_, pulse) {
  const start = Number(_.start);
  const stop = Number(_.stop);
  const step = Number(_.step ?? 1) || 1;
  const n = Math.ceil((stop - start) / step);
  if (n > maxGeneratedRows) {
    refused = `${SEQUENCE_LIMIT}: ${n} (limit ${maxGeneratedRows})`;
    throw new Error(refused);
  }
  return sequenceTransform.call(this, _, pulse);
};

async function render({ spec, maxRows, assets }) {
  maxGeneratedRows = maxRows;
  refused = null;
  let parsed;
  try {
    parsed = JSON.parse(spec);
  } catch (e) {
    return { ok: false, code: 'exec_error', message: `not valid JSON: ${e.message}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, code: 'exec_error', message: 'the spec is not a JSON object' };
  }
  const rows = countRows(parsed);
  if (rows > maxRows) {
    return {
      ok: false,
      code: 'too_large',
      message: `${rows} rows of inline data (limit ${maxRows})`,
    };
  }
  const schema = typeof parsed.$schema === 'string' ? parsed.$schema : '';
  const isVega = /\/vega\/v\d/.test(schema) && !schema.includes('vega-lite');
  const warnings = [];
  let vgSpec;
  try {
    vgSpec = isVega ? parsed : compile(parsed, { logger: quietLogger(warnings) }).spec;
  } catch (e) {
    return { ok: false, code: 'exec_error', message: `Vega-Lite rejected the spec: ${e.message}` };
  }
  const attempts = [];
  try {
    // ast: true keeps each expression's parsed tree for the interpreter (no code strings run).
    const view = new vega.View(vega.parse(vgSpec, undefined, { ast: true }), {
      expr: expressionInterpreter,
      renderer: 'none',
      loader: refusingLoader(attempts, assets ?? {}),
      logger: quietLogger(warnings),
    });
    const svg = await view.toSVG();
    view.finalize();
    if (refused) return { ok: false, code: 'too_large', message: refused };
    if (attempts.length > 0) {
      return {
        ok: false,
        code: 'exec_error',
        message: `the chart asks for external data, which is never fetched (inline "values" only): ${attempts[0]}`,
      };
    }
    return { ok: true, svg, rows, warnings: warnings.slice(0, 20) };
  } catch (e) {
    if (attempts.length > 0) {
      return {
        ok: false,
        code: 'exec_error',
        message: `external data is never fetched (inline "values" only): ${attempts[0]}`,
      };
    }
    if (refused) return { ok: false, code: 'too_large', message: refused };
    return { ok: false, code: 'exec_error', message: `vega failed: ${e.message}` };
  }
}

function quietLogger(sink) {
  let lvl = 2;
  const push = (...a) => {
    if (sink.length < 50) sink.push(a.map(String).join(' ').slice(0, 300));
  };
  const logger = {
    level(l) {
      if (l === undefined) return lvl;
      lvl = l;
      return logger;
    },
    error: push,
    warn: push,
    info: () => logger,
    debug: () => logger,
  };
  return logger;
}

// The protocol of line-worker.ts: a job is "<n>\n" + n bytes of JSON, then "<nonce>\n"; its
// answer is the one line "<nonce> <json>". stdout carries answers only: whatever a library
// prints goes to stderr, so it can never be read as (or break) an answer.
for (const k of ['log', 'info', 'debug', 'warn', 'trace']) console[k] = console.error;

const input = { chunks: [], wake: null };
process.stdin.on('data', (b) => {
  input.chunks.push(b);
  input.wake?.();
});
// The parent closed the channel (close(), or it died): nothing more will come.
process.stdin.on('end', () => process.exit(0));

/** The first `n` bytes of input, or the bytes up to a newline when n is undefined. */
async function take(n) {
  for (;;) {
    const all =
      input.chunks.length > 1 ? Buffer.concat(input.chunks) : (input.chunks[0] ?? Buffer.alloc(0));
    input.chunks = all.length ? [all] : [];
    const end = n === undefined ? all.indexOf(10) : all.length >= n ? n : -1;
    if (end >= 0) {
      const skip = n === undefined ? 1 : 0;
      const rest = all.subarray(end + skip);
      input.chunks = rest.length ? [rest] : [];
      return all.subarray(0, end);
    }
    await new Promise((resolve) => {
      input.wake = resolve;
    });
    input.wake = null;
  }
}

async function serve() {
  for (;;) {
    const size = Number((await take()).toString('latin1'));
    const job = JSON.parse((await take(size)).toString('utf8'));
    let out;
    try {
      out = await render(job);
    } catch (e) {
      out = { ok: false, code: 'exec_error', message: String(e?.message ?? e) };
    }
    const nonce = (await take()).toString('latin1');
    process.stdout.write(`${nonce} ${JSON.stringify(out)}\n`);
  }
}

process.stdout.write('ready\n');
await serve();
