// Which CSV row each result of the run is about. Each row is keyed as sendBulk keys a recipient (its
// number in E.164), or by its line when its phone is empty or invalid, so that every such row is a
// failed row of its own, never a repeat; the rows read whose result has not come are kept (their
// line and phone cell) until it comes: a few, the sends in flight and the results not yet read.
import { normalizePhone } from '../../shared/phone.js';
import type { BulkResult } from '../types.js';
import type { CsvRow } from '../csv/read-csv.js';

/** A CSV row as sendBulk reads it: its cells, its line, its key. */
export interface KeyedRow extends CsvRow {
  readonly key: string;
}

/** Where a result's row is in the CSV: its line, and its phone cell as written there. */
export interface RowPlace {
  readonly line: number;
  readonly phone: string;
}

/** The rows under way, by key. */
export class RowPlaces {
  readonly #pending = new Map<string, RowPlace[]>();

  /** The rows of `rows` keyed, each kept until its result comes. */
  async *keyed(rows: AsyncIterable<CsvRow>): AsyncGenerator<KeyedRow> {
    for await (const row of rows) {
      const key = keyOf(row);
      const place = { line: row.line, phone: row.row.phone ?? '' };
      const places = this.#pending.get(key);
      if (places === undefined) this.#pending.set(key, [place]);
      else places.push(place);
      yield { ...row, key };
    }
  }

  /** The row `result` is about (then forgotten); undefined for a key not read in this run. */
  placeOf(result: BulkResult): RowPlace | undefined {
    const places = this.#pending.get(result.key);
    if (places === undefined) return undefined;
    // A repeat is skipped while the row it repeats is still under way: it is the later of the two.
    const place = result.status === 'skipped' ? places.pop() : places.shift();
    if (places.length === 0) this.#pending.delete(result.key);
    return place;
  }
}

/** The row's number in E.164 (the key sendBulk would give it), or its line when it has no valid number. */
function keyOf({ line, row }: CsvRow): string {
  try {
    return normalizePhone(row.phone ?? '');
  } catch {
    return `line ${line}`;
  }
}
