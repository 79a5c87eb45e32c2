// Tolerant extraction of the JSON in a model's answer.
import { describe, expect, it } from 'vitest';
import { extractJson, stripThinking } from './extract-json.ts';

const value = (text: string) => {
  const r = extractJson(text);
  return r.ok ? r.value : `no: ${r.reason}`;
};

describe('extractJson', () => {
  it('reads plain JSON, objects and arrays', () => {
    expect(extractJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 }, from: 'whole' });
    expect(value('  [1,2]\n')).toEqual([1, 2]);
  });

  it('prefers a fenced block', () => {
    const text = 'Sure: {"draft":true}\n```json\n{"a":{"b":[1,2]}}\n```\nDone.';
    expect(extractJson(text)).toEqual({ ok: true, value: { a: { b: [1, 2] } }, from: 'fence' });
    expect(value('```\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(value('```json\n{"a":1}')).toEqual({ a: 1 }); // unclosed fence
  });

  it('drops <think> blocks, stray closings and unclosed reasoning', () => {
    expect(value('<think>maybe {"a":0}?</think>{"a":1}')).toEqual({ a: 1 });
    expect(value('<THINK>x</THINK> <think>y {"a":2}</think> ok {"a":3}')).toEqual({ a: 3 });
    expect(value('reasoning {"a":0} goes here</think>\n{"a":1}')).toEqual({ a: 1 });
    expect(value('<think>{"a":0} and never finished')).toMatch(/^no: empty answer/);
    expect(stripThinking('a<think>b</think>c<think>d')).toBe('ac');
  });

  it('takes an answer that is JSON as a whole as it is, whatever its strings say', () => {
    // A guided decoder may write any text inside a string, reasoning tags and fences too.
    const answer = { reasoning: 'I wrote </think> then ```json {"a":0}``` and <think>', score: 1 };
    expect(extractJson(` ${JSON.stringify(answer)}\n`)).toEqual({
      ok: true,
      value: answer,
      from: 'whole',
    });
  });

  it('finds JSON inside prose, skipping braces that are not JSON', () => {
    expect(
      value('My verdict {in short}: {"score": 0.5, "note": "a } in a string"} — thanks'),
    ).toEqual({ score: 0.5, note: 'a } in a string' });
    expect(value('an unclosed { brace, then {"a":1}')).toEqual({ a: 1 });
    expect(value('see [1] and {"a":[1,{"b":2}]}')).toEqual({ a: [1, { b: 2 }] });
    expect(value('only a list: [1, 2, 3].')).toEqual([1, 2, 3]);
  });

  it('handles escaped quotes in strings', () => {
    expect(value('x {"q":"say \\"hi\\" {"}')).toEqual({ q: 'say "hi" {' });
  });

  it('reports answers without JSON instead of throwing', () => {
    expect(extractJson('')).toMatchObject({ ok: false });
    expect(extractJson('I refuse.')).toEqual({
      ok: false,
      reason: 'no JSON object found in the answer',
    });
    expect(extractJson('{"a": 1,}')).toMatchObject({ ok: false });
  });

  it('stays linear on hostile input', () => {
    const hostile = `${'{'.repeat(200_000)}${'<think>'.repeat(20_000)}${'</think>'.repeat(20_000)}`;
    const t0 = performance.now();
    expect(extractJson(hostile).ok).toBe(false);
    expect(extractJson(`${'{"a":'.repeat(50_000)}`).ok).toBe(false);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
