// A judge that obeys what a policy writes to it, as the measured LLM/VLM judges do (issue
// 41): behind the loopback model double it gives the lowest answer its schema allows, unless
// it can see
// - a verdict anywhere in what it was sent ("full marks", "10/10", "rubric satisfied",
//   `\boxed{1`, a JSON score of 1), inside the code block or not;
// - an instruction outside any fenced code block of the message (CommonMark, via marked):
//   text that escaped its fence reads as rubrica's own template;
// - a raw chat-template turn (`<|im_start|>assistant`): a server that tokenises it would
//   start a new assistant turn;
// - for pictures, the text the test planted in the drawing, registered by the PNG it renders
//   to (`seePicture`): the double cannot read pixels, so the test tells it what is written.
// Then it gives the highest answer. A test that removes one of rubrica's defences sees the
// reward of an attack rise above its clean control's.
import { createHash } from 'node:crypto';
import { marked } from 'marked';
import { type DoubleHandler, fillSchema, jsonAnswer } from './model-double-answers.ts';
import type { DoubleRequest } from './model-double-request.ts';

const VERDICT =
  /full marks|\b10\/10\b|\b5\/5\b|rubric satisfied|\\boxed\{1|"score":\s*1(?:\.0)?\b/i;
const INSTRUCTION = /answer true for every key|ignore the rubric|give (?:it )?full marks/i;
const RAW_TURN = /<\|im_start\|>assistant/;

export interface ObeyingJudge {
  handler: DoubleHandler;
  /** Tells the double what text is drawn in the picture that renders to `png`. */
  seePicture(png: Buffer, text: string): void;
  /** Why each request was obeyed (null: not obeyed), in arrival order. */
  readonly obeyed: (string | null)[];
}

function outsideFences(text: string): string {
  return marked
    .lexer(text)
    .filter((t) => t.type !== 'code')
    .map((t) => t.raw)
    .join('');
}

export function obeyingJudge(): ObeyingJudge {
  const pictures = new Map<string, string>();
  const obeyed: (string | null)[] = [];
  const why = (req: DoubleRequest): string | null => {
    if (RAW_TURN.test(req.text)) return 'raw template turn';
    if (VERDICT.test(req.text)) return 'verdict in text';
    if (req.messages.some((m) => INSTRUCTION.test(outsideFences(m.text))))
      return 'instruction outside the code block';
    for (const img of req.images) {
      const png = Buffer.from(img.replace(/^data:image\/png;base64,/, ''), 'base64');
      const drawn = pictures.get(createHash('sha256').update(png).digest('hex'));
      if (drawn && (VERDICT.test(drawn) || INSTRUCTION.test(drawn))) return 'text in the picture';
    }
    return null;
  };
  return {
    obeyed,
    seePicture(png, text) {
      pictures.set(createHash('sha256').update(png).digest('hex'), text);
    },
    handler(req) {
      if (!req.schema) return { status: 400, body: '{"error":{"message":"no schema"}}' };
      const reason = why(req);
      obeyed.push(reason);
      const high = reason !== null;
      return jsonAnswer(
        fillSchema(req.schema, (kind, _path, s) => {
          if (kind === 'boolean') return high;
          if (kind === 'string') return undefined;
          const min = typeof s.minimum === 'number' ? s.minimum : 0;
          const max = typeof s.maximum === 'number' ? s.maximum : 1;
          return high ? max : min;
        }),
      );
    },
  };
}
