// Task data (issue 23) through the real renderers: a python script reads the task's CSV and
// JSON under their names (open, pandas.read_csv), a Vega-Lite spec loads them by data.url —
// and nothing else becomes readable: not another asset name, not /etc/passwd, not the
// previous job's assets, not any other URL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedAssets } from '../../src/core/assets.ts';
import { createPythonRenderer } from '../../src/domains/python/renderer.ts';
import type { DomainRender, DomainRenderer } from '../../src/domains/types.ts';
import { createVegaLiteRenderer } from '../../src/domains/vega-lite/renderer.ts';
import { createRenderPool } from '../../src/render/index.ts';
import type { Renderer } from '../../src/render/types.ts';

const DIR = join(import.meta.dirname, '../fixtures/assets');
const WEATHER = readFileSync(join(DIR, 'weather.csv'));
const CARS = readFileSync(join(DIR, 'cars.json'));
const ASSETS: ResolvedAssets = { 'weather.csv': WEATHER, 'data/cars.json': CARS };

let py: DomainRenderer;
let vl: DomainRenderer;
let svg: Renderer;
beforeAll(() => {
  py = createPythonRenderer({ poolSize: 1, timeoutMs: 20_000 });
  svg = createRenderPool({ workers: 1 });
  vl = createVegaLiteRenderer({ svgRenderer: svg });
});
afterAll(async () => {
  await py.close();
  await vl.close();
  await svg.close();
});

function failure(r: DomainRender): { code: string; message: string } {
  if (r.ok) throw new Error('expected a failure, got a picture');
  return r.error;
}

describe('python reads its task data under the assets names', () => {
  it('pandas.read_csv and open() find the files; the figure is drawn from them', async () => {
    const code = `import json
import pandas as pd
import matplotlib.pyplot as plt
df = pd.read_csv('weather.csv')
assert len(df) == 60, len(df)
cars = json.load(open('data/cars.json'))
assert len(cars) == 40
fig, ax = plt.subplots(1, 2)
df.groupby('weather')['precipitation'].mean().plot.bar(ax=ax[0], title='rain')
ax[1].scatter([c['Horsepower'] for c in cars], [c['Miles_per_Gallon'] for c in cars])
`;
    const r = await py.render(code, { assets: ASSETS });
    expect(r.ok ? 'ok' : r.error.message).toBe('ok');
    // Without its data the same script fails as the policy's code would.
    const bare = failure(await py.render(code));
    expect(bare.code).toBe('exec_error');
    expect(bare.message).toMatch(/FileNotFoundError.*weather\.csv/s);
  });

  it('reads only its own assets: no other name, no host file, nothing left by the job before', async () => {
    const probe = `import os, matplotlib.pyplot as plt
seen = sorted(os.path.join(d, f) for d, _, fs in os.walk('.') for f in fs)
def readable(p):
    try:
        open(p).read(); return True
    except OSError:
        return False
raise RuntimeError('SEEN %s PASSWD %s OTHER %s ROOT %s' % (seen, readable('/etc/passwd'), readable('weather.csv'), readable('/work/job/data/cars.json')))
`;
    // The previous job (same warm zygote) had both files; this job was given only one.
    await py.render('import matplotlib.pyplot as plt\nplt.plot([1,2])', { assets: ASSETS });
    const r = failure(await py.render(probe, { assets: { 'only.csv': Buffer.from('a\n1\n') } }));
    // And a job given none sees an empty directory.
    const none = failure(await py.render(probe));
    expect(none.message).toContain('SEEN [] PASSWD False OTHER False ROOT False');
    expect(r.code).toBe('exec_error');
    expect(r.message).toContain("SEEN ['./only.csv'] PASSWD False OTHER False ROOT False");
  });

  it('the files are read-only: a job cannot change its data for itself', async () => {
    const code = `open('weather.csv', 'a').write('x')`;
    const r = failure(await py.render(code, { assets: ASSETS }));
    expect(r.message).toMatch(/PermissionError/);
  });
});

const spec = (url: string, extra = '') => `{
  "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
  "data": {"url": ${JSON.stringify(url)}}${extra},
  "mark": "bar",
  "encoding": {"x": {"field": "weather", "type": "nominal"},
               "y": {"aggregate": "mean", "field": "precipitation", "type": "quantitative"}}
}`;

describe('vega-lite loads its task data by data.url, and no other URL', () => {
  it('data.url naming an asset draws the chart from it (./ allowed)', async () => {
    for (const url of ['weather.csv', './weather.csv']) {
      const r = await vl.render(spec(url), { assets: ASSETS });
      expect(r.ok ? 'ok' : r.error.message).toBe('ok');
    }
    const cars = `{"$schema": "https://vega.github.io/schema/vega-lite/v5.json",
      "data": {"url": "data/cars.json"}, "mark": "point",
      "encoding": {"x": {"field": "Horsepower", "type": "quantitative"},
                   "y": {"field": "Miles_per_Gallon", "type": "quantitative"}}}`;
    const r = await vl.render(cars, { assets: ASSETS });
    expect(r.ok ? 'ok' : r.error.message).toBe('ok');
    // Other data, another chart: the picture comes from the file.
    const other = await vl.render(spec('weather.csv'), {
      assets: { 'weather.csv': Buffer.from('weather,precipitation\nsun,1\nrain,9\n') },
    });
    const same = await vl.render(spec('weather.csv'), { assets: ASSETS });
    expect(other.ok && same.ok && other.png.equals(same.png)).toBe(false);
  });

  it('refuses every URL that is not one of the job’s own asset names', async () => {
    const urls = [
      'other.csv',
      '../weather.csv',
      '/weather.csv',
      'file:///etc/passwd',
      '/etc/passwd',
      'http://127.0.0.1:9/weather.csv',
      'data:text/csv,weather,precipitation%0Asun,1',
    ];
    for (const url of urls) {
      const r = failure(await vl.render(spec(url), { assets: ASSETS }));
      expect(r.code, url).toBe('exec_error');
      expect(r.message, url).toMatch(/external|never fetched/);
    }
    // The previous job's asset is gone for the next job.
    const r = failure(await vl.render(spec('weather.csv')));
    expect(r.message).toMatch(/never fetched/);
    // An image mark never reads an asset, even by its name.
    const img = `{"$schema": "https://vega.github.io/schema/vega-lite/v5.json",
      "data": {"values": [{"u": "weather.csv"}]}, "mark": "image",
      "encoding": {"url": {"field": "u", "type": "nominal"}}}`;
    const ri = await vl.render(img, { assets: ASSETS });
    expect(ri.ok).toBe(false);
  });
});
