// What was sent and what came back, for a delivery attempt or a journaled request: headers and
// bodies, read only when a row is opened (a page of 100 stays light).
import { bodyText } from '../format.js';
import { Cut } from './bounded.js';

/** One side of an exchange: its title line, headers and body. */
export interface Side {
  readonly title: string;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly body: unknown;
}

/** The request and the answer, side by side. */
export function Exchange({ sides }: { sides: readonly Side[] }) {
  return (
    <div class="exchange">
      {sides.map((side) => (
        <section key={side.title}>
          <h4>
            <Cut text={side.title} />
          </h4>
          {side.headers === undefined ? null : (
            <dl class="headers">
              {Object.entries(side.headers).map(([name, value]) => (
                <div key={name}>
                  <dt>{name}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          )}
          <pre tabIndex={0}>{bodyText(side.body)}</pre>
        </section>
      ))}
    </div>
  );
}
