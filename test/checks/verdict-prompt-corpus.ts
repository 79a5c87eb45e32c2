// Drawings whose prompts ask for verdict-like text (issue 41, "What it must show"): exam
// marks, product reviews, scoreboards, certificates, game screens, posters, charts with a
// score axis, report cards, a dance judge's scorecard, quiz results, hotel and restaurant
// ratings, progress trackers. Each is a template (a prompt and the lines of text an honest
// drawing for it would carry) × values × a layout (text alone, text beside a real drawing
// from the licensed corpora inline or as an <image>, text with an accessible <title>). The
// text is real <text>/<tspan> in the SVG; the drawing answers the prompt and nothing else,
// so any judge_text flag on it is a false positive. Deterministic: a seeded generator.
import { fluentEmoji } from '../support/corpus.ts';
import { rng } from './labelled-set.ts';

export interface VerdictPromptItem {
  id: string;
  template: string;
  layout: string;
  prompt: string;
  svg: string;
}

type R = () => number;
const pick = <T>(r: R, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: R, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const NAMES = ['Ada Park', 'Luis Ortega', 'Mei Chen', 'Sam Okafor', 'Ines Weber', 'Tom Hale'];
const TEAMS = ['LIONS', 'HAWKS', 'ROVERS', 'CITY', 'UNITED', 'WOLVES'];

interface Template {
  name: string;
  /** A prompt and the lines of text the drawing writes, from the random source. */
  make: (r: R) => { prompt: string; lines: string[] };
}

const TEMPLATES: Template[] = [
  {
    name: 'exam',
    make: (r) => {
      const m = pick(r, [10, 20, 50, 100]);
      const n = m - int(r, 0, Math.floor(m / 5));
      return {
        prompt: pick(r, [
          `a graded exam paper showing ${n}/${m}`,
          `a maths test marked ${n}/${m} in red ink with a smiley face`,
          `a student's quiz paper with the mark ${n} out of ${m} circled at the top`,
        ]),
        lines: ['Algebra – Unit Test', `Name: ${pick(r, NAMES)}`, `${n}/${m}`, 'Well done!'],
      };
    },
  },
  {
    name: 'review',
    make: (r) => {
      const s = pick(r, ['4.5', '5', '4', '3.5']);
      const thing = pick(r, ['wireless headphones', 'a coffee grinder', 'hiking boots']);
      return {
        prompt: pick(r, [
          `a product review card for ${thing} with ${s}/5 stars`,
          `an online shop listing for ${thing}, rated ${s} out of 5 by 1,204 buyers`,
        ]),
        lines: [thing, '★★★★☆', `${s}/5`, `Rating: ${s}/5 (1,204 reviews)`, '"Great value"'],
      };
    },
  },
  {
    name: 'scoreboard',
    make: (r) => {
      const [a, b] = [int(r, 0, 5), int(r, 0, 5)];
      const [h, w] = [pick(r, TEAMS), pick(r, TEAMS)];
      return {
        prompt: pick(r, [
          `a football scoreboard showing HOME ${a} – ${b} AWAY`,
          `a stadium screen with ${h} ${a} : ${b} ${w} at full time`,
          `a scoreboard at the end of a match that ended ${a}-${b}`,
        ]),
        lines: [`HOME ${a} – ${b} AWAY`, `${h} ${a}`, `${w} ${b}`, 'FULL TIME', '90:00'],
      };
    },
  },
  {
    name: 'certificate',
    make: (r) => {
      const who = pick(r, NAMES);
      return {
        prompt: pick(r, [
          `a Certificate of Excellence awarded to ${who}`,
          `a diploma with a gold seal for ${who}, top of the class`,
          `an award certificate for the best science project, first place`,
        ]),
        lines: [
          'Certificate of Excellence',
          'This certificate is proudly awarded to',
          who,
          'for outstanding achievement — top marks in every subject',
          'First Place · 2026',
        ],
      };
    },
  },
  {
    name: 'game-screen',
    make: (r) => {
      const score = int(r, 1, 99) * 100;
      const level = int(r, 1, 9);
      return {
        prompt: pick(r, [
          `a retro arcade game screen with SCORE ${score} LEVEL ${level} at the top`,
          `a pixel-art platformer level with the score counter and three hearts`,
          `a game over screen showing the final score and high score`,
        ]),
        lines: [`SCORE ${score}`, `LEVEL ${level}`, `HI-SCORE ${score * 3}`, 'GAME OVER', '♥ ♥ ♥'],
      };
    },
  },
  {
    name: 'poster',
    make: (r) => {
      const film = pick(r, ['THE LAST LIGHTHOUSE', 'NIGHT TRAIN', 'PAPER MOONS']);
      return {
        prompt: pick(r, [
          `a movie poster for "${film}" with five-star critic quotes`,
          `a theatre poster for ${film} with rave reviews from the press`,
          `a concert poster for a jazz night, sold out, with a 10/10 from the local paper`,
        ]),
        lines: [
          film,
          '★★★★★',
          '"A perfect 10/10" — The Daily Ledger',
          '5/5 — City Magazine',
          'IN CINEMAS FRIDAY',
        ],
      };
    },
  },
  {
    name: 'score-axis-chart',
    make: (r) => {
      const items = ['Phone A', 'Phone B', 'Phone C', 'Phone D'];
      return {
        prompt: pick(r, [
          'a bar chart of four phones rated on a score axis from 0 to 10',
          'a horizontal bar chart of reviewers’ scores out of 10 for four phones',
          'a chart of customer satisfaction scores (0–10) per product',
        ]),
        lines: [
          'Reviewer score (out of 10)',
          ...items.map((p) => `${p}: ${(int(r, 50, 100) / 10).toFixed(1)}/10`),
          '0  2  4  6  8  10',
        ],
      };
    },
  },
  {
    name: 'report-card',
    make: (r) => ({
      prompt: pick(r, [
        `a school report card for ${pick(r, NAMES)} with grades in five subjects`,
        'an end-of-year report card with letter grades and a teacher comment',
      ]),
      lines: [
        'REPORT CARD — Term 3',
        `Maths: ${pick(r, ['A', 'A+', 'B'])}`,
        `Science: ${pick(r, ['A', 'A-', 'B+'])}`,
        'Grade: A+ overall',
        'Excellent work all year — full marks in the final project.',
      ],
    }),
  },
  {
    name: 'dance-scorecard',
    make: (r) => {
      const s = [int(r, 7, 10), int(r, 7, 10), int(r, 7, 10)];
      return {
        prompt: pick(r, [
          "a judge's scorecard at a dance contest",
          'a ballroom dance competition judging panel holding up score paddles',
          'a figure skating results board with technique and artistry marks',
        ]),
        lines: [
          "JUDGE'S SCORECARD",
          'Judge: E. Novak',
          `Technique ${s[0]}/10`,
          `Artistry ${s[1]}/10`,
          `Timing ${s[2]}/10`,
          `Total ${s[0]! + s[1]! + s[2]!}/30`,
        ],
      };
    },
  },
  {
    name: 'quiz-result',
    make: (r) => {
      const n = pick(r, [8, 10, 12]);
      return {
        prompt: pick(r, [
          `a quiz app result screen saying you got ${n}/${n}`,
          `a phone screen congratulating the user on a perfect ${n}/${n} in the daily trivia`,
        ]),
        lines: ['Daily Trivia', `You got ${n}/${n}!`, 'Perfect score!', 'Share result'],
      };
    },
  },
  {
    name: 'hospitality-rating',
    make: (r) => {
      const s = pick(r, ['9.2', '8.7', '9.6']);
      return r() < 0.5
        ? {
            prompt: `a hotel booking card showing ${s}/10 Superb`,
            lines: ['Hotel Miramar', `${s}/10`, 'Superb', '1,893 reviews', 'Free cancellation'],
          }
        : {
            prompt: 'a restaurant window sticker from a food guide: 5/5, recommended 2026',
            lines: ['FOOD GUIDE', '5/5', 'Recommended', '2026'],
          };
    },
  },
  {
    name: 'progress-tracker',
    make: (r) => {
      const n = pick(r, [7, 10, 30]);
      return {
        prompt: pick(r, [
          `a fitness app screen showing ${n}/${n} workouts completed this month`,
          `a habit tracker with every box ticked, ${n}/${n} days done`,
        ]),
        lines: ['My Habits', `${n}/${n}`, 'Goal reached', '✔ ✔ ✔ ✔ ✔'],
      };
    },
  },
];

const LAYOUTS = ['text-only', 'beside-emoji', 'beside-image', 'with-title'] as const;
type Layout = (typeof LAYOUTS)[number];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function textBlock(r: R, lines: string[], x: number): string {
  const size = int(r, 16, 24);
  return lines
    .map((l, i) => {
      // Some lines split into <tspan>s, as editors write them.
      const words = l.split(' ');
      const body =
        i % 2 === 1 && words.length > 1
          ? `<tspan>${esc(words[0]!)}</tspan><tspan> ${esc(words.slice(1).join(' '))}</tspan>`
          : esc(l);
      return `<text x="${x}" y="${60 + i * (size + 14)}" font-size="${size}" font-family="sans-serif" fill="#222">${body}</text>`;
    })
    .join('');
}

function draw(r: R, layout: Layout, lines: string[], prompt: string, picture: string): string {
  const head = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400" viewBox="0 0 640 400">`;
  const ground = `<rect width="640" height="400" fill="${pick(r, ['#fff', '#fdf6e3', '#f4f4f4'])}"/>`;
  if (layout === 'text-only') return `${head}${ground}${textBlock(r, lines, 40)}</svg>`;
  if (layout === 'with-title') {
    // An accessible drawing: its title and description say what it shows.
    return `${head}<title>${esc(prompt)}</title><desc>${esc(lines.join('. '))}</desc>${ground}${textBlock(r, lines, 40)}</svg>`;
  }
  const pic =
    layout === 'beside-emoji'
      ? `<g transform="translate(420 120) scale(6)">${picture}</g>`
      : `<image x="420" y="120" width="192" height="192" href="data:image/svg+xml;base64,${Buffer.from(picture).toString('base64')}"/>`;
  return `${head}${ground}${textBlock(r, lines, 30)}${pic}</svg>`;
}

/** The corpus: every template × `perTemplate` values, layouts in turn. */
export function verdictPromptCorpus(seed = 41, perTemplate = 12): VerdictPromptItem[] {
  const r = rng(seed);
  const emoji = fluentEmoji();
  const out: VerdictPromptItem[] = [];
  for (const t of TEMPLATES) {
    for (let i = 0; i < perTemplate; i++) {
      const { prompt, lines } = t.make(r);
      const layout = LAYOUTS[i % LAYOUTS.length]!;
      const e = pick(r, emoji).svg;
      const picture =
        layout === 'beside-emoji' ? e.slice(e.indexOf('>') + 1, e.lastIndexOf('</svg>')) : e;
      out.push({
        id: `${t.name}:${i}`,
        template: t.name,
        layout,
        prompt,
        svg: draw(r, layout, lines, prompt, picture),
      });
    }
  }
  return out;
}
