// Finds a non-SVG domain's code in a completion: the last fenced block of that domain in the
// answer (never in <think> reasoning; an <answer> block wins), or, unfenced, the answer tag's
// contents or an HTML page. With no domain given, the fences decide (their language, then
// their content), and completions whose answer is an SVG stay in the svg domain exactly as
// before. Never throws.
import { splitFences } from '../artifact/fences.ts';
import { asciiLower, findAnswerTags, type Span, splitReasoning } from '../artifact/regions.ts';
import type { DomainId } from '../core/domain-ids.ts';
import { DOMAINS, detectDomain, domainOfFence } from './registry.ts';

export type DomainCodeSource = 'fence' | 'answer_tag' | 'html_page' | 'inline';

export type DomainCode =
  | { found: true; domain: DomainId; code: string; source: DomainCodeSource }
  | { found: false; domain: DomainId | undefined; message: string; truncated: boolean };

interface Block {
  domain: DomainId | undefined;
  lang: string;
  code: string;
  inAnswerTag: boolean;
  /** The fence ran to the end of the completion (no closer: out of tokens?). */
  open: boolean;
}

function blocks(text: string): { blocks: Block[]; answerTags: Span[]; answer: Span[] } {
  const lower = asciiLower(text);
  const regions = splitReasoning(lower);
  const answerTags = findAnswerTags(lower, regions.answer);
  const out: Block[] = [];
  for (const span of regions.answer) {
    const local = lower.slice(span.start, span.end);
    for (const seg of splitFences(local, { start: 0, end: local.length })) {
      if (seg.kind !== 'fence') continue;
      const start = seg.start + span.start;
      const end = seg.end + span.start;
      const code = text.slice(start, end);
      const lang = seg.lang ?? '';
      const named = lang === 'json' || lang === '' ? undefined : domainOfFence(lang);
      out.push({
        domain: named ?? detectDomain(code),
        lang,
        code,
        inAnswerTag: answerTags.some((t) => t.start <= start && end <= t.end),
        open: end === text.length && !/```\s*$/.test(text),
      });
    }
  }
  return { blocks: out, answerTags, answer: regions.answer };
}

/** The domain a completion is written in, from its fences (undefined: none claimed). */
export function detectCompletionDomain(completion: string): DomainId | undefined {
  const { blocks: all } = blocks(typeof completion === 'string' ? completion : '');
  const tagged = all.filter((b) => b.inAnswerTag && b.domain);
  return (tagged.length > 0 ? tagged : all.filter((b) => b.domain)).at(-1)?.domain;
}

/**
 * Finds `domain`'s code in a completion: the last fenced block of that language (inside an
 * `<answer>` tag if there is one), else an answer tag or, for html, a whole page. Not found is
 * a value (`found: false`), never a throw.
 */
export function locateDomainCode(completion: string, domain: DomainId): DomainCode {
  const text = typeof completion === 'string' ? completion : '';
  const found = blocks(text);
  const mine = found.blocks.filter((b) => b.domain === domain);
  const pick = (mine.some((b) => b.inAnswerTag) ? mine.filter((b) => b.inAnswerTag) : mine).at(-1);
  if (pick && pick.code.trim() !== '') {
    return { found: true, domain, code: pick.code, source: 'fence' };
  }
  const tag = found.answerTags.at(-1);
  if (tag) {
    const inner = text.slice(tag.start, tag.end).trim();
    if (inner && DOMAINS[domain].detect(inner) > 0) {
      return { found: true, domain, code: inner, source: 'answer_tag' };
    }
  }
  const answer = found.answer.map((s) => text.slice(s.start, s.end)).join('\n');
  if (domain === 'html') {
    const m = /<!doctype\s+html[\s\S]*?(?:<\/html>|$)|<html[\s>][\s\S]*?(?:<\/html>|$)/i.exec(
      answer,
    );
    if (m) return { found: true, domain, code: m[0], source: 'html_page' };
  } else if (found.blocks.length === 0 && DOMAINS[domain].detect(answer.trim()) > 0) {
    // No fence at all and the whole answer reads as this domain's code: the answer is the code.
    return { found: true, domain, code: answer.trim(), source: 'inline' };
  }
  const truncated = pick?.open === true || mine.some((b) => b.open);
  return {
    found: false,
    domain,
    truncated,
    message:
      text.trim() === '' ? 'the completion is empty' : `the completion holds no ${domain} code`,
  };
}
