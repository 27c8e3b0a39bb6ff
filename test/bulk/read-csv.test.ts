// readCsv, the command lines' CSV reader as bizmsg/bulk exports it: any source (a path, a URL, the
// text, a Node or web stream, an async iterable), strict decoding, editor line numbers, a row bound
// counted in bytes, and typed errors naming the line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CsvReadError, InvalidArgumentError, readCsv, type CsvSource } from '../../src/bulk/index.js';

const dir = mkdtempSync(join(tmpdir(), 'bizmsg-read-csv-'));
const CSV = 'phone,name\r\n+4915112345678,"Ada\nLovelace"\n\n0151 2345 6789 , Grace \n';
const ROWS = [
  { line: 2, row: { phone: '+4915112345678', name: 'Ada\nLovelace' } },
  { line: 5, row: { phone: '0151 2345 6789', name: 'Grace' } },
];

async function rows(source: CsvSource, limit?: number): Promise<unknown[]> {
  const read = [];
  for await (const row of readCsv(source, limit === undefined ? {} : { limit })) read.push(row);
  return read;
}

/** The error reading `source` ends with. */
async function failure(source: CsvSource, limit?: number): Promise<unknown> {
  return rows(source, limit).then(
    () => 'read to the end',
    (error: unknown) => error,
  );
}

describe('readCsv', () => {
  it('reads a path, a file URL, the text, its bytes, a Node stream, a web stream and an async iterable alike', async () => {
    const path = join(dir, 'two.csv');
    writeFileSync(path, CSV);
    const bytes = Buffer.from(CSV);
    const sources: CsvSource[] = [
      path,
      pathToFileURL(path),
      CSV,
      bytes,
      new Uint8Array(bytes),
      Readable.from([bytes.subarray(0, 7), bytes.subarray(7)]),
      new Blob([bytes]).stream(),
      (async function* () {
        yield 'phone,name\r\n+4915112345678,"Ada';
        yield '\nLovelace"\n\n0151 2345 6789 , Grace \n';
      })(),
    ];
    for (const source of sources) expect(await rows(source)).toEqual(ROWS);
  });

  it('reads UTF-16 with its BOM, and drops a UTF-8 BOM', async () => {
    expect(await rows(Readable.from([Buffer.from(`\uFEFF${CSV}`, 'utf16le')]))).toEqual(ROWS);
    expect(await rows(`\uFEFF${CSV}`)).toEqual(ROWS);
  });

  it('refuses a byte that is not UTF-8, naming its line and offset', async () => {
    const latin1 = Buffer.concat([
      Buffer.from('phone,name\n+4915112345678,Ada\n+4915112345679,J'),
      Buffer.from([0xfc]),
    ]);
    const error = await failure(Readable.from([latin1]));
    expect(error).toBeInstanceOf(CsvReadError);
    expect(error).toMatchObject({
      problem: 'encoding',
      line: 3,
      message: 'line 3 is not valid UTF-8 (byte offset 46): save the file as UTF-8 (in Excel: "CSV UTF-8")',
    });
  });

  it('bounds a row in bytes, separators included, whether one long cell or many empty ones', async () => {
    // 600 "é" are 600 characters but 1,200 bytes: over a 1,000-byte limit.
    for (const long of [`+4915112345678,${'é'.repeat(600)}`, `+4915112345678${','.repeat(2_000_000)}`]) {
      const error = await failure(`phone,name\n+4915112345679,Ada\n${long}\n+4915112345670,Eve\n`, 1000);
      expect(error).toBeInstanceOf(CsvReadError);
      expect(error).toMatchObject({
        problem: 'row-too-long',
        line: 3,
        message: 'the row at line 3 is longer than 1000 bytes',
      });
    }
    // Exactly at the limit is a row: 1,000 bytes with its line break.
    const atLimit = `+4915112345678,${'x'.repeat(1000 - 16)}`;
    expect(await rows(`phone,name\n${atLimit}\n`, 1000)).toEqual([
      { line: 2, row: { phone: '+4915112345678', name: 'x'.repeat(984) } },
    ]);
    expect(await failure(`phone,name\n${atLimit}x\n`, 1000)).toMatchObject({ problem: 'row-too-long', line: 2 });
  });

  it('refuses a header that names a column twice, and a malformed CSV, naming the line', async () => {
    expect(await failure('phone,name,name\n+4915112345678,A,B\n')).toMatchObject({
      name: 'CsvReadError',
      problem: 'malformed',
      line: 1,
      message: 'the header names the column "name" twice',
    });
    expect(await failure('phone,name\n+4915112345678,"Ada\n')).toMatchObject({ problem: 'malformed' });
  });

  it('says what is wrong with a source or a limit, and with a file that is not there', async () => {
    for (const source of [42, null, {}, ''] as unknown as CsvSource[])
      expect(await failure(source)).toBeInstanceOf(InvalidArgumentError);
    for (const limit of [0, -1, 1.5, Number.NaN])
      expect(await failure(CSV, limit)).toMatchObject({
        name: 'InvalidArgumentError',
        message: expect.stringContaining('`limit` must be a positive whole number of bytes'),
      });
    expect(await failure(join(dir, 'missing.csv'))).toMatchObject({
      problem: 'unreadable',
      message: expect.stringContaining('ENOENT'),
    });
  });
});
