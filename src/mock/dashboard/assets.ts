// The built dashboard (dist/dashboard/: index.html and its hashed assets), read once on the first
// request for it: importing bizmsg/mock loads none of it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One file of the page, ready to answer. */
export interface DashboardFile {
  readonly type: string;
  readonly body: Buffer;
  /** The body gzipped, when that is smaller by enough to be worth it. */
  readonly gzip: Buffer | undefined;
  readonly etag: string;
}

/** The page's files by name (`index.html`, `main-3F2A.js`), or why there are none. */
export type DashboardFiles = { readonly files: ReadonlyMap<string, DashboardFile> } | { readonly missing: string };

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

let loaded: DashboardFiles | undefined;

/** The page's files, read on the first call. */
export function dashboardFiles(): DashboardFiles {
  return (loaded ??= load());
}

function load(): DashboardFiles {
  let dir: string;
  try {
    // The package finds itself by name (its exports list package.json): from dist/ and from src/ alike.
    dir = join(dirname(createRequire(import.meta.url).resolve('bizmsg/package.json')), 'dist', 'dashboard');
  } catch {
    return { missing: 'the bizmsg package that holds it could not be found' };
  }
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => TYPES[extname(name)] !== undefined);
  } catch {
    return { missing: `${dir} does not exist (npm run build writes it)` };
  }
  if (!names.includes('index.html')) return { missing: `${dir} has no index.html (npm run build writes it)` };
  return { files: new Map(names.map((name) => [name, fileOf(readFileSync(join(dir, name)), TYPES[extname(name)]!)])) };
}

function fileOf(body: Buffer, type: string): DashboardFile {
  const zipped = gzipSync(body, { level: 9 });
  return {
    type,
    body,
    gzip: zipped.byteLength < body.byteLength * 0.9 ? zipped : undefined,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  };
}
