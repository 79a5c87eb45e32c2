// The schema-driven answerer: a model-double handler that answers every structured request
// with an arbitrary value the request's own JSON Schema allows (test/support/schema-random.ts)
// — a model that follows the schema and nothing else, as guided decoding makes it. Each answer
// is seeded from the seed and the request's content, so it does not depend on arrival order,
// and is recorded so a test can compute what rubrica must make of it.
import type { DoubleHandler, DoubleReply } from './model-double-answers.ts';
import { jsonAnswer } from './model-double-answers.ts';
import type { DoubleRequest } from './model-double-request.ts';
import { hashString, randomInstance, seededRng } from './schema-random.ts';

export interface SchemaAnswer {
  req: DoubleRequest;
  value: unknown;
}

export interface SchemaAnswerer {
  readonly handler: DoubleHandler;
  /** Every structured answer given, in arrival order. */
  readonly answers: SchemaAnswer[];
  /** The answers to requests whose text contains `needle` (and whose schema is named `name`). */
  find(needle: string, name?: string): SchemaAnswer[];
}

export function schemaAnswerer(
  opts: { seed?: number; free?: (req: DoubleRequest) => DoubleReply } = {},
): SchemaAnswerer {
  const answers: SchemaAnswer[] = [];
  const handler: DoubleHandler = (req) => {
    if (!req.schema) {
      if (opts.free) return opts.free(req);
      return { status: 400, body: '{"error":{"message":"schema answerer: no schema"}}' };
    }
    const content = JSON.stringify([req.schemaName, req.text, req.images, req.schema]);
    const rng = seededRng(hashString(content) ^ (opts.seed ?? 1));
    const value = randomInstance(req.schema, rng);
    answers.push({ req, value });
    // A schema-only model writes what the schema allows: a digit judge's 0 or 1 is a digit.
    return jsonAnswer(value, { asWritten: true });
  };
  return {
    handler,
    answers,
    find: (needle, name) =>
      answers.filter(
        (a) => a.req.text.includes(needle) && (name === undefined || a.req.schemaName === name),
      ),
  };
}
