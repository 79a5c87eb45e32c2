// Runs the vega worker (the path in argv[2]) with every way to compile text into code
// replaced by a trap that records the text and throws: the global Function and eval, and the
// constructors reached through a function's prototype ((function(){}).constructor, and the
// async / generator ones). The libraries load first, so only what runs during a job meets the
// traps. Every message the worker sends carries `trapped`: the texts that reached a trap since
// the last message. Used by no-codegen.slow.test.ts; never part of the product.
import 'vega';
import 'vega-lite';
import { pathToFileURL } from 'node:url';

const trapped = [];
const record = (args) => {
  trapped.push(args.map((a) => String(a).slice(0, 200)).join(' | '));
  throw new EvalError('code generation from strings is trapped in this test');
};
const trap = (Original) =>
  new Proxy(Original, {
    apply: (_target, _self, args) => record(args),
    construct: (_target, args) => record(args),
  });

const constructors = [() => {}, async () => {}, function* () {}, async function* () {}].map((f) =>
  Object.getPrototypeOf(f),
);
for (const proto of constructors) {
  Object.defineProperty(proto, 'constructor', {
    value: trap(proto.constructor),
    writable: true,
    configurable: true,
  });
}
globalThis.Function = trap(Function);
// biome-ignore lint/security/noGlobalEval: replacing eval with a trap, never calling it
globalThis.eval = trap(globalThis.eval);

const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const m = typeof chunk === 'string' ? /^(\S+) (\{.*\})\n$/s.exec(chunk) : null;
  if (!m) return write(chunk, ...rest);
  const answer = { ...JSON.parse(m[2]), trapped: trapped.splice(0) };
  return write(`${m[1]} ${JSON.stringify(answer)}\n`, ...rest);
};

await import(pathToFileURL(process.argv[2]).href);
