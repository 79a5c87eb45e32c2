// Reads a raw chat request (OpenAI-compatible, Anthropic Messages or Gemini generateContent) into one neutral shape
// the test double's scripts can inspect: messages, prompt text, images, the JSON schema asked for.

export type DoubleApi = 'openai' | 'anthropic' | 'google';

export interface DoubleMessage {
  role: string;
  /** All text parts of the message joined with newlines. */
  text: string;
  /** Images as `data:` URIs (Anthropic / Gemini base64 parts are turned back into data URIs). */
  images: string[];
}

export interface DoubleRequest {
  /** 0-based arrival order at this double. */
  index: number;
  api: DoubleApi;
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body exactly as it arrived. */
  body: Record<string, unknown>;
  model: string;
  stream: boolean;
  messages: DoubleMessage[];
  /** The text of every message (system included), joined with blank lines. */
  text: string;
  /** Every image of every message, in order. */
  images: string[];
  /** OpenAI `response_format` as sent, if any. */
  responseFormat?: unknown;
  /**
   * The schema the client asked the answer to follow: OpenAI response_format, Anthropic
   * output_config or json tool (JSON Schema), Gemini generationConfig.responseSchema (OpenAPI).
   */
  schema?: Record<string, unknown>;
  /** The schema's name, when the protocol carries one. */
  schemaName?: string;
  /** Anthropic: the name of the tool the client forces (the AI SDK's `json` tool mode). */
  forcedTool?: string;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readParts(content: unknown, api: DoubleApi): { text: string; images: string[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  const texts: string[] = [];
  const images: string[] = [];
  if (!Array.isArray(content)) return { text: '', images };
  for (const part of content) {
    if (!isObject(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    if (api === 'openai' && part.type === 'image_url') {
      const iu = part.image_url;
      const url = isObject(iu) ? iu.url : iu;
      if (typeof url === 'string') images.push(url);
    }
    if (api === 'google') {
      if (typeof part.text === 'string') texts.push(part.text);
      const inline = part.inlineData;
      if (isObject(inline))
        images.push(`data:${String(inline.mimeType)};base64,${String(inline.data)}`);
    }
    if (api === 'anthropic' && part.type === 'image' && isObject(part.source)) {
      const s = part.source;
      if (s.type === 'base64') images.push(`data:${String(s.media_type)};base64,${String(s.data)}`);
      else if (s.type === 'url' && typeof s.url === 'string') images.push(s.url);
    }
  }
  return { text: texts.join('\n'), images };
}

/** Gemini puts the model in the path (`/v1beta/models/<model>:generateContent`) and the turns in `contents`. */
function readGoogle(body: Json, path: string): { model: string; messages: DoubleMessage[] } {
  const messages: DoubleMessage[] = [];
  const sys = body.systemInstruction;
  if (isObject(sys)) messages.push({ role: 'system', ...readParts(sys.parts, 'google') });
  for (const c of Array.isArray(body.contents) ? body.contents : []) {
    if (!isObject(c)) continue;
    const role = c.role === 'model' ? 'assistant' : String(c.role ?? 'user');
    messages.push({ role, ...readParts(c.parts, 'google') });
  }
  const m = /\/models\/(.+):generateContent$/.exec(path.split('?')[0] ?? '');
  return { model: m?.[1] ?? '', messages };
}

export function readRequest(
  index: number,
  api: DoubleApi,
  path: string,
  headers: Record<string, string>,
  body: Json,
): DoubleRequest {
  if (api === 'google') {
    const { model, messages } = readGoogle(body, path);
    const req: DoubleRequest = {
      index,
      api,
      path,
      headers,
      body,
      model,
      stream: false,
      messages,
      text: messages.map((m) => m.text).join('\n\n'),
      images: messages.flatMap((m) => m.images),
    };
    const gc = body.generationConfig;
    if (isObject(gc) && isObject(gc.responseSchema)) req.schema = gc.responseSchema;
    return req;
  }
  const messages: DoubleMessage[] = [];
  if (api === 'anthropic' && body.system !== undefined) {
    messages.push({ role: 'system', ...readParts(body.system, api) });
  }
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObject(m)) continue;
    messages.push({ role: String(m.role), ...readParts(m.content, api) });
  }
  const req: DoubleRequest = {
    index,
    api,
    path,
    headers,
    body,
    model: typeof body.model === 'string' ? body.model : '',
    stream: body.stream === true,
    messages,
    text: messages.map((m) => m.text).join('\n\n'),
    images: messages.flatMap((m) => m.images),
  };
  if (api === 'openai' && body.response_format !== undefined) {
    req.responseFormat = body.response_format;
    const rf = body.response_format;
    if (isObject(rf) && isObject(rf.json_schema)) {
      if (isObject(rf.json_schema.schema)) req.schema = rf.json_schema.schema;
      if (typeof rf.json_schema.name === 'string') req.schemaName = rf.json_schema.name;
    }
  }
  if (api === 'anthropic') {
    const oc = body.output_config;
    if (isObject(oc) && isObject(oc.format) && isObject(oc.format.schema)) {
      req.schema = oc.format.schema;
    }
    // A forced tool is `{type:'tool', name}`, or `{type:'any'}` with a single tool on offer.
    const tc = body.tool_choice;
    const tools = (Array.isArray(body.tools) ? body.tools : []).filter(isObject);
    const forced =
      isObject(tc) && tc.type === 'tool' && typeof tc.name === 'string'
        ? tools.find((t) => t.name === tc.name)
        : isObject(tc) && tc.type === 'any' && tools.length === 1
          ? tools[0]
          : undefined;
    if (forced && typeof forced.name === 'string') {
      req.forcedTool = forced.name;
      req.schemaName = forced.name;
      if (isObject(forced.input_schema)) req.schema = forced.input_schema;
    }
  }
  return req;
}
