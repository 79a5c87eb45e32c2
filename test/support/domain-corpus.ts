// Small generated corpora of each domain (written for rubrica; no third-party text): the
// kinds of pictures a visual-code policy is asked for — line, bar, scatter, histogram and
// pandas plots; TikZ shapes and pgfplots axes; styled HTML pages; DOT graphs; Vega-Lite
// charts. `n` files each, deterministic variations.
export function pythonCorpus(n: number): string[] {
  const kinds = [
    (i: number) =>
      `import matplotlib.pyplot as plt\nimport numpy as np\nx = np.linspace(0, ${4 + i}, 200)\nplt.plot(x, np.sin(x * ${1 + (i % 3)}), label='sin')\nplt.plot(x, np.cos(x), '--', label='cos')\nplt.legend()\nplt.title('Waves ${i}')\nplt.xlabel('x')\nplt.ylabel('y')\nplt.show()\n`,
    (i: number) =>
      `import matplotlib.pyplot as plt\nnames = ['alpha', 'beta', 'gamma', 'delta']\nvalues = [${3 + i}, 7, ${5 + (i % 4)}, 2]\nfig, ax = plt.subplots(figsize=(6, 4))\nax.bar(names, values, color=['#4c72b0', '#dd8452', '#55a868', '#c44e52'])\nax.set_title('Sales by team')\nfor j, v in enumerate(values):\n    ax.text(j, v + 0.1, str(v), ha='center')\nplt.tight_layout()\n`,
    (i: number) =>
      `import numpy as np\nimport matplotlib.pyplot as plt\nrng = np.random.default_rng(${i})\nx = rng.normal(size=300)\ny = 2 * x + rng.normal(size=300)\nplt.scatter(x, y, c=y, cmap='viridis', s=12)\nplt.colorbar(label='y')\nplt.title('Scatter ${i}')\n`,
    (i: number) =>
      `import numpy as np\nimport matplotlib.pyplot as plt\nrng = np.random.default_rng(${i})\nfig, axes = plt.subplots(1, 2, figsize=(8, 3))\naxes[0].hist(rng.normal(size=1000), bins=30, color='steelblue')\naxes[0].set_title('Normal')\naxes[1].hist(rng.exponential(size=1000), bins=30, color='darkorange')\naxes[1].set_title('Exponential')\nfig.suptitle('Distributions')\n`,
    (i: number) =>
      `import pandas as pd\nimport matplotlib.pyplot as plt\ndf = pd.DataFrame({'month': ['Jan', 'Feb', 'Mar', 'Apr', 'May'], 'a': [1, ${3 + i}, 2, 5, 4], 'b': [2, 2, 3, 1, ${i % 5}]})\nax = df.plot(x='month', kind='line', marker='o', title='Pandas ${i}')\nax.set_ylabel('count')\n`,
  ];
  return Array.from({ length: n }, (_, i) => kinds[i % kinds.length]!(i));
}

export function latexCorpus(n: number): string[] {
  const kinds = [
    (i: number) =>
      String.raw`\begin{tikzpicture}\draw[thick,fill=blue!${10 + i * 5}] (0,0) rectangle (3,2);\draw[red,thick] (1.5,1) circle (0.8);\node at (1.5,-0.4) {Figure ${i}};\end{tikzpicture}`,
    (i: number) =>
      String.raw`\begin{tikzpicture}\begin{axis}[xlabel=$x$,ylabel=$y$,title={Plot ${i}}]\addplot[blue,domain=0:${4 + i},samples=50]{sin(deg(x))};\addplot[red,domain=0:${4 + i},samples=50]{cos(deg(x))};\end{axis}\end{tikzpicture}`,
    (i: number) =>
      String.raw`\begin{tikzpicture}[node distance=2cm,every node/.style={draw,rounded corners}]\node (a) {Input};\node[right=of a] (b) {Model ${i}};\node[right=of b] (c) {Reward};\draw[-{Latex}] (a) -- (b);\draw[-{Latex}] (b) -- (c);\end{tikzpicture}`,
    (i: number) =>
      String.raw`\begin{tikzpicture}\foreach \k in {0,...,${5 + (i % 4)}} {\fill[orange!\the\numexpr\k*10\relax] (\k*0.6,0) circle (0.25);}\draw[->] (0,-0.6) -- (4,-0.6) node[right] {$t$};\end{tikzpicture}`,
  ];
  return Array.from({ length: n }, (_, i) => kinds[i % kinds.length]!(i));
}

export function htmlCorpus(n: number): string[] {
  return Array.from(
    { length: n },
    (_, i) => `<!doctype html><html><head><meta charset="utf-8"><style>
body{font-family:sans-serif;margin:0;background:#f5f7fb}
header{background:hsl(${(i * 37) % 360},60%,45%);color:white;padding:24px 40px}
.cards{display:grid;grid-template-columns:repeat(3,1fr);gap:20px;padding:32px 40px}
.card{background:white;border-radius:12px;padding:20px;box-shadow:0 2px 8px #0002}
button{background:#222;color:white;border:0;border-radius:6px;padding:8px 16px}
</style></head><body><header><h1>Landing page ${i}</h1><p>A product that does things.</p></header>
<section class="cards"><div class="card"><h3>Fast</h3><p>Renders quickly.</p><button>Try</button></div>
<div class="card"><h3>Safe</h3><p>Runs in a sandbox.</p></div><div class="card"><h3>Open</h3><p id="n"></p></div></section>
<script>document.getElementById('n').textContent = 'Item ' + (${i} * 7);</script></body></html>`,
  );
}

export function dotCorpus(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const edges = Array.from(
      { length: 6 + (i % 6) },
      (_, j) => `  n${j} -> n${(j * 3 + i + 1) % (7 + (i % 5))};`,
    );
    return `digraph G${i} {\n  rankdir=${i % 2 ? 'LR' : 'TB'};\n  node [shape=box, style=rounded];\n${edges.join('\n')}\n}`;
  });
}

export function vegaLiteCorpus(n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      title: `Chart ${i}`,
      data: {
        values: Array.from({ length: 8 + (i % 5) }, (_, j) => ({
          x: `c${j}`,
          y: (j * 7 + i) % 13,
        })),
      },
      mark: ['bar', 'line', 'point', 'area'][i % 4],
      encoding: {
        x: { field: 'x', type: 'nominal' },
        y: { field: 'y', type: 'quantitative' },
      },
    }),
  );
}

/** Small illustrations: shapes, a gradient and text, varied per file. */
export function svgCorpus(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const shapes = Array.from({ length: 4 + (i % 5) }, (_, j) => {
      const x = 20 + ((j * 37 + i * 11) % 150);
      const y = 20 + ((j * 53 + i * 7) % 150);
      return j % 2
        ? `<circle cx="${x}" cy="${y}" r="${10 + (j % 4) * 6}" fill="hsl(${(i * 40 + j * 60) % 360},70%,50%)"/>`
        : `<rect x="${x}" y="${y}" width="${20 + j * 4}" height="${14 + j * 3}" rx="4" fill="url(#g)"/>`;
    });
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><defs><linearGradient id="g"><stop offset="0" stop-color="#36c"/><stop offset="1" stop-color="#c63"/></linearGradient></defs>${shapes.join('')}<text x="100" y="190" text-anchor="middle" font-size="14">icon ${i}</text></svg>`;
  });
}

/** Flowcharts, sequence diagrams and gantt charts, in turn. */
export function mermaidCorpus(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    if (i % 3 === 0) {
      const steps = Array.from(
        { length: 3 + (i % 4) },
        (_, j) => `  s${j}[Step ${j} of ${i}] --> s${j + 1}`,
      );
      return `flowchart ${i % 2 ? 'LR' : 'TD'}\n${steps.join('\n')}`;
    }
    if (i % 3 === 1) {
      const msgs = Array.from(
        { length: 2 + (i % 4) },
        (_, j) => `  ${j % 2 ? 'B->>A' : 'A->>B'}: message ${j}`,
      );
      return `sequenceDiagram\n${msgs.join('\n')}`;
    }
    const tasks = Array.from(
      { length: 2 + (i % 3) },
      (_, j) => `  Task ${j} :t${j}, ${j ? `after t${j - 1}` : '2026-01-01'}, ${3 + j}d`,
    );
    return `gantt\n  dateFormat YYYY-MM-DD\n  title Plan ${i}\n  section Work\n${tasks.join('\n')}`;
  });
}

/** Short melodies (bare music expressions, wrapped by the renderer). */
export function lilypondCorpus(n: number): string[] {
  const notes = ['c', 'd', 'e', 'f', 'g', 'a', 'b'];
  return Array.from({ length: n }, (_, i) => {
    const bar = Array.from(
      { length: 8 },
      (_, j) => `${notes[(i + j * 3) % 7]}'${j % 2 ? '8' : '4'}`,
    );
    return `\\relative { \\time 4/4 ${bar.join(' ')} }`;
  });
}

/** Molecules: a few common ones per file, named. */
export function smilesCorpus(n: number): string[] {
  const mols = [
    ['ethanol', 'CCO'],
    ['benzene', 'c1ccccc1'],
    ['aspirin', 'CC(=O)Oc1ccccc1C(=O)O'],
    ['caffeine', 'Cn1cnc2c1c(=O)n(C)c(=O)n2C'],
    ['acetone', 'CC(C)=O'],
    ['phenol', 'Oc1ccccc1'],
    ['glycine', 'NCC(=O)O'],
  ];
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: 1 + (i % 4) }, (_, j) => {
      const [name, smi] = mols[(i + j * 2) % mols.length]!;
      return `${smi} ${name}`;
    }).join('\n'),
  );
}
