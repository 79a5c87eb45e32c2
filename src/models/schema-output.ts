// How a structured answer is asked for: an AI SDK output mode that sends the JSON Schema of
// the expected answer (guided decoding on vLLM/SGLang/Ollama) but leaves parsing to rubrica's
// tolerant extractor, and a cache of JSON Schemas already derived from zod schemas.
import { type OutputInterface, zodSchema } from 'ai';
import type { z } from 'zod';

export type SchemaOutput = OutputInterface<string, string, never>;

/** An output mode that asks for JSON with a schema but leaves parsing to us (tolerantly). */
export function schemaOutput(jsonSchema: unknown, name: string): SchemaOutput {
  return {
    name: 'rubrica-json',
    responseFormat: Promise.resolve({ type: 'json', schema: jsonSchema as never, name }),
    parseCompleteOutput: async ({ text }) => text,
    parsePartialOutput: async ({ text }) => ({ partial: text }),
    createElementStreamTransform: () => undefined,
  };
}

/** JSON Schemas already derived from zod schemas (judges reuse one schema for every call). */
const schemaCache = new WeakMap<object, unknown>();

export async function jsonSchemaOf(schema: z.ZodType): Promise<unknown> {
  let jsonSchema = schemaCache.get(schema);
  if (jsonSchema === undefined) {
    jsonSchema = await zodSchema(schema).jsonSchema;
    schemaCache.set(schema, jsonSchema);
  }
  return jsonSchema;
}
