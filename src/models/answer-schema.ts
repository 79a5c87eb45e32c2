// The JSON Schema a structured call sends, derived from its zod schema in one place so the
// client, the docs and the tests all see the same object. It is the AI SDK's own conversion
// (draft-07, every object closed with `additionalProperties: false`), which is what travels
// in `response_format` (OpenAI-compatible), as the forced tool's input schema (Anthropic) or,
// converted once more by the SDK, as `responseSchema` (Gemini).
import { zodSchema } from 'ai';
import type { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** Already converted schemas (a judge reuses one schema object for every call). */
const converted = new WeakMap<object, JsonSchema>();

export async function answerJsonSchema(schema: z.ZodType): Promise<JsonSchema> {
  let out = converted.get(schema);
  if (out === undefined) {
    out = (await zodSchema(schema).jsonSchema) as JsonSchema;
    converted.set(schema, out);
  }
  return out;
}
