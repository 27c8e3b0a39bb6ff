import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvRows } from '../../src/bulk/cli/csv.js';
import { bizmsg, useBulkEmulator } from './cli-process.js';

// How `bizmsg bulk` and `bizmsg contacts import` read a CSV's bytes: UTF-8 (with or without a BOM)
// or UTF-16 with its BOM; a file in another encoding (Latin-1, Windows-1252) refused by its line
// and byte offset before anything is sent; each row named by the line an editor shows it on,
// whatever line breaks the file mixes.

const emulator = useBulkEmulator({ order_update: { languages: ['en'], body: ['name'] } });

/** Writes `bytes` to the file `name` of the test folder; its path. */
function file(name: string, bytes: Uint8Array): string {
  const path = join(emulator.dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** Each send to the emulator: its number and the text of its body's parameters. */
const sends = () =>
  emulator.server.mock
    .requests()
    .filter((request) => request.method === 'POST')
    .map((request) => {
      const body = request.body as { to: string; components: { parameters: { text: string }[] }[] };
      return [body.to, body.components[0]!.parameters.map((parameter) => parameter.text)];
    });

/** A CSV of one row: `phone`, named Jürgen. */
const rowsOf = (phone: string) => `phone,name\n${phone},Jürgen\n`;
const EXCEL_HINT = 'save the file as UTF-8 (in Excel: "CSV UTF-8"). Nothing was sent.';

describe('bizmsg and the encoding of a CSV', () => {
  it(
    'refuses a Latin-1 CSV before anything is sent, naming its line and byte offset (exit 2); contacts import too',
    { timeout: 30_000 },
    async () => {
      emulator.server.mock.reset();
      const csv = file('latin1.csv', Buffer.from('phone,name,order_id\n+4915100000901,Jürgen,1\n', 'latin1'));
      const refusal = `bizmsg: ${csv}: line 2 is not valid UTF-8 (byte offset 36): ${EXCEL_HINT}\n`;
      const bulk = await bizmsg(emulator.server, emulator.args(csv));
      expect([bulk.code, bulk.stdout, bulk.stderr]).toEqual([2, '', refusal]);
      const contacts = await bizmsg(emulator.server, ['contacts', 'import', '--csv', csv]);
      expect([contacts.code, contacts.stdout, contacts.stderr]).toEqual([2, '', refusal]);
      const tty = await bizmsg(emulator.server, emulator.args(csv), { tty: true });
      expect([tty.code, tty.stdout.replaceAll('\r\n', '\n')]).toEqual([2, refusal]);
      expect(emulator.server.mock.requests()).toEqual([]);
    },
  );

  it('sends the text of a UTF-8 CSV with a BOM and of a UTF-16LE one with its BOM', { timeout: 30_000 }, async () => {
    emulator.server.mock.reset();
    const utf8 = file(
      'bom8.csv',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(rowsOf('+4915100000901'))]),
    );
    const utf16 = file(
      'bom16.csv',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(rowsOf('+4915100000902'), 'utf16le')]),
    );
    for (const csv of [utf8, utf16]) {
      const result = await bizmsg(emulator.server, emulator.args(csv));
      expect([result.code, result.stdout]).toEqual([0, expect.stringContaining('\n  sent     1\n')]);
    }
    expect(sends()).toEqual([
      ['+4915100000901', ['Jürgen']],
      ['+4915100000902', ['Jürgen']],
    ]);
  });
});

describe('the CSV reader', () => {
  /** The rows of the CSV `bytes`, by line and fields, or the message it is refused with. */
  async function read(name: string, bytes: Uint8Array): Promise<unknown> {
    const rows = [];
    try {
      for await (const row of csvRows(file(name, bytes))) rows.push([row.line, Object.values(row.row)]);
    } catch (error) {
      return (error as Error).message.replace(`${emulator.dir}/`, '');
    }
    return rows;
  }

  it('finds a byte that is not UTF-8 past the first chunk, after a character split across two chunks', async () => {
    // createReadStream reads 64 KiB at a time: the first chunk ends after the first byte of "ü".
    const start = `phone,name\n${'+4915100000901,Ada\n'.repeat(3446)}+4915100000901,`;
    const head = `${start}${'A'.repeat(65_535 - start.length)}`;
    const bytes = Buffer.concat([Buffer.from(`${head}ürgen\n+4915100000902,J`), Buffer.from([0xfc, 0x72, 0x0a])]);
    expect(await read('late.csv', bytes)).toBe(
      'late.csv: line 3449 is not valid UTF-8 (byte offset 65558): save the file as UTF-8 (in Excel: "CSV UTF-8")',
    );
  });

  it('refuses a file that ends inside a character, and reads UTF-16BE with its BOM', async () => {
    expect(
      await read('cut.csv', Buffer.concat([Buffer.from('phone,name\r\n+4915100000901,'), Buffer.from([0xe2, 0x82])])),
    ).toBe('cut.csv: line 2 is not valid UTF-8 (byte offset 27): save the file as UTF-8 (in Excel: "CSV UTF-8")');
    const utf16be = Buffer.from(`\uFEFF${rowsOf('+4915100000901')}`, 'utf16le').swap16();
    expect(await read('be.csv', utf16be)).toEqual([[2, ['+4915100000901', 'Jürgen']]]);
  });

  it('refuses a row of 20 million commas by its line: the row is bounded, not only each field', async () => {
    // Found by an outside tester: each of the 20 million fields was empty, so no field was too long,
    // and the row was gathered whole (17 s, 1.3 GB) and read as a row.
    const commas = Buffer.concat([
      Buffer.from('phone,name\n+4915100000901,"Ada\r\nLovelace"\n+4915100000902,'),
      Buffer.alloc(20_000_000, ','),
      Buffer.from('\n+4915100000903,Eve\n'),
    ]);
    expect(await read('commas.csv', commas)).toBe(
      "commas.csv: the row at line 4 is longer than 1 MiB (a phone number and a template's parameters take far less): fix or remove it",
    );
    // A row just under 1 MiB of fields is a row; quotes and line breaks inside them keep it one.
    const wide = `phone,name\n+4915100000901,"a\nb${','.repeat(1_048_000)}"\n+4915100000902,b\r\n`;
    expect(await read('wide.csv', Buffer.from(wide))).toEqual([
      [2, ['+4915100000901', `a\nb${','.repeat(1_048_000)}`]],
      [4, ['+4915100000902', 'b']],
    ]);
  });

  it('numbers rows after a quoted CR LF and after a stray CR LF in an LF file as an editor does', async () => {
    const quoted = 'phone,name,order_id\r\n+4915100000031,"a\r\nb",1\r\n0151,c,3\r\n';
    expect(await read('mlcrlf.csv', Buffer.from(quoted))).toEqual([
      [2, ['+4915100000031', 'a\r\nb', '1']],
      [4, ['0151', 'c', '3']],
    ]);
    const stray = 'phone,name\n+4915112345678,a\r\n+4915112345679,b\n';
    expect(await read('stray.csv', Buffer.from(stray))).toEqual([
      [2, ['+4915112345678', 'a']],
      [3, ['+4915112345679', 'b']],
    ]);
  });

  it('gives each row of any CSV the line an editor shows it on, and its fields', { timeout: 60_000 }, async () => {
    const BREAK = fc.constantFrom('\r\n', '\n', '\r');
    const plain = fc.stringMatching(/^[a-z0-9]{0,4}$/);
    const quoted = fc.array(fc.oneof(fc.stringMatching(/^[a-z"]{1,3}$/), BREAK), { maxLength: 5 }).map((parts) => {
      const value = parts.join('');
      return { value, text: `"${value.replaceAll('"', '""')}"` };
    });
    const field = fc.oneof(
      plain.map((value) => ({ value, text: value })),
      quoted,
    );
    const row = fc.record({
      fields: fc.array(field, { minLength: 2, maxLength: 2 }),
      // Empty lines before the row, and how it ends.
      before: fc.array(BREAK, { maxLength: 2 }),
      end: BREAK,
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 8 }), BREAK, async (rows, headerEnd) => {
        let text = `phone,name${headerEnd}`;
        const expected: [number, string[]][] = [];
        for (const { fields, before, end } of rows) {
          text += before.join('');
          expected.push([editorLine(text), fields.map((f) => f.value)]);
          text += fields.map((f) => f.text).join(',') + end;
        }
        run += 1;
        expect(await read(`property-${run}.csv`, Buffer.from(text))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * The line an editor shows the end of `text` on: one more than its line breaks, a CR followed by
 * an LF being one. (A CR ending a row before an empty line's LF makes one CR LF with it.)
 */
function editorLine(text: string): number {
  let line = 1;
  for (let at = 0; at < text.length; at += 1) {
    if (text[at] === '\r' || (text[at] === '\n' && text[at - 1] !== '\r')) line += 1;
  }
  return line;
}
