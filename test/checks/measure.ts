// Prints the labelled set's table for one seed (default 11; 2026 is the held-out seed):
//   node --import tsx test/checks/measure.ts [seed]
// The same evaluate() and table() the slow test uses, plus the per-part figures the docs
// give for `clipped` (false positives on the openclipart drawings, recall on emoji and on
// openclipart cuts), so a change to a rule is judged on both seeds the same way.
import { evaluate, figures, table } from './evaluate.ts';
import { labelledSet } from './labelled-set.ts';

const seed = Number(process.argv[2] ?? 11);
const outcomes = await evaluate(labelledSet(seed));
console.log(`seed ${seed}: ${outcomes.length} drawings\n${table(figures(outcomes), outcomes)}`);
const count = (family: (f: string) => boolean, flag: string) => {
  const part = outcomes.filter((o) => family(o.item.family));
  return `${part.filter((o) => o.flags.has(flag)).length}/${part.length}`;
};
console.log(
  `clipped: FP on openclipart ${count((f) => f === 'clean:openclipart', 'clipped')}, recall on emoji cuts ${count((f) => f === 'hack:cut-by-frame', 'clipped')}, on openclipart cuts ${count((f) => f === 'hack:openclipart-cut', 'clipped')}`,
);
