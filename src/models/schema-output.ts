// How a structured answer is asked for: an AI SDK output mode that sends the JSON Schema of
// the expected answer (guided decoding on vLLM/SGLang/Ollama) but leaves parsing to rubrica's
// tolerant extractor. The JSON Schema itself comes from answer-schema.ts.
import type { OutputInterface } from 'ai';

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
