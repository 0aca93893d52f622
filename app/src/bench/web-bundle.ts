import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { printTable, type Cell } from './table.ts';

const dist = fileURLToPath(new URL('../../../web/dist', import.meta.url));

interface Asset {
  file: string;
  raw: number;
  gzip: number;
}

async function measure(file: string): Promise<Asset> {
  const bytes = await readFile(path.join(dist, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes).length };
}

/** The JavaScript index.html makes the browser fetch before anything renders: the entry and its modulepreloads. */
export function firstPageScripts(html: string): string[] {
  const entry = [...html.matchAll(/<script[^>]*type="module"[^>]*src="\/([^"]+)"/g)].map(
    (m) => m[1]!,
  );
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+)"/g)].map(
    (m) => m[1]!,
  );
  return [...entry, ...preloads];
}

/** Gzipped bytes of these dist files (paths as served, e.g. "/assets/home-x.js"). */
export async function gzipTotal(files: string[]): Promise<number> {
  const sizes = await Promise.all(files.map((file) => measure(file.replace(/^\//, ''))));
  return sizes.reduce((total, asset) => total + asset.gzip, 0);
}

const kB = (bytes: number): Cell => ({ value: bytes / 1024, digits: 1 });

/** Prints the production bundle: what the first page loads, gzipped, and every lazy chunk. */
export async function bundleReport(): Promise<void> {
  const html = await readFile(path.join(dist, 'index.html'), 'utf8');
  const first = firstPageScripts(html);
  if (first.length === 0) throw new Error('web/dist/index.html names no module script');
  const all = (await readdir(path.join(dist, 'assets'))).map((name) => `assets/${name}`);
  const initial = await Promise.all(first.map(measure));
  const lazy = await Promise.all(
    all.filter((file) => file.endsWith('.js') && !first.includes(file)).map(measure),
  );
  const css = await Promise.all(all.filter((file) => file.endsWith('.css')).map(measure));
  lazy.sort((a, b) => b.gzip - a.gzip);

  const sum = (assets: Asset[], key: 'raw' | 'gzip') =>
    assets.reduce((total, asset) => total + asset[key], 0);
  const row =
    (kind: string) =>
    (asset: Asset): Cell[] => [kind, asset.file, kB(asset.raw), kB(asset.gzip)];
  printTable(
    'Web bundle (web/dist), kB; gzip at zlib default level',
    ['loaded', 'file', 'raw', 'gzip'],
    [
      ...initial.map(row('first page')),
      [
        'first page',
        `total JavaScript, ${initial.length} files`,
        kB(sum(initial, 'raw')),
        kB(sum(initial, 'gzip')),
      ],
      ...css.map(row('first page (CSS)')),
      ...lazy.map(row('lazy')),
      ['lazy', `total, ${lazy.length} chunks`, kB(sum(lazy, 'raw')), kB(sum(lazy, 'gzip'))],
    ],
  );
}
