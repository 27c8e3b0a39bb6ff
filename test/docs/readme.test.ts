import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README is read in three places: on GitHub, on the registry's page (where only the packed
// files exist and relative links break) and in a terminal. These checks keep it working in all.

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
/** Where the repository's files are on GitHub: the links the README may use for files not shipped. */
const REPOSITORY_FILE =
  /^https:\/\/(?:github\.com\/bizmsg\/bizmsg\/(?:blob|tree)\/main|raw\.githubusercontent\.com\/bizmsg\/bizmsg\/main)\/(.+)$/;

/** Every link and image target of a Markdown text, code blocks and inline code left out. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

/** The anchors GitHub gives a Markdown text's headings. */
function anchorsOf(markdown: string): Set<string> {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
  return new Set(
    [...prose.matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
      match[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

/** The files a release ships (package.json `files`), as paths relative to the root. */
function shipped(path: string): boolean {
  const { files } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
  return files.some((entry) => path === entry || path.startsWith(`${entry}/`));
}

describe('the README', () => {
  it('stays under 32,000 bytes: guides live in docs/', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(32_000);
  });

  it('opens with what bizmsg is and how to install it, before any contributor command', () => {
    expect(readme.indexOf('npm install bizmsg')).toBeGreaterThan(0);
    expect(readme.indexOf('npm install bizmsg')).toBeLessThan(readme.indexOf('npm ci'));
    expect(readme.indexOf('## Contents')).toBeLessThan(readme.indexOf('## Quick start'));
  });

  it('links only to its own headings, shipped files, or absolute URLs; repository URLs name files that exist', () => {
    const anchors = anchorsOf(readme);
    const broken = linksOf(readme).filter((target) => {
      if (target.startsWith('#')) return !anchors.has(target.slice(1));
      const inRepository = REPOSITORY_FILE.exec(target);
      if (inRepository) return !existsSync(join(root, inRepository[1]!.replace(/#.*$/, '')));
      if (/^https?:\/\//.test(target)) return false;
      return !shipped(target);
    });
    expect(broken).toEqual([]);
  });

  it('links every guide in docs/', () => {
    const guides = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));
    const missing = guides.filter(
      (name) => !readme.includes(`https://github.com/bizmsg/bizmsg/blob/main/docs/${name}`),
    );
    expect(missing).toEqual([]);
  });
});

describe('the guides in docs/', () => {
  const guides = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, 'docs', name));

  it.each(guides.map((file) => [relative(root, file), file]))('%s links to files that exist', (_, file) => {
    const broken = linksOf(readFileSync(file, 'utf8'))
      .filter((target) => !/^(https?:|#|mailto:)/.test(target))
      .filter((target) => !existsSync(join(dirname(file), target.replace(/#.*$/, ''))));
    expect(broken).toEqual([]);
  });
});
