// Drift: where the real service's traffic through the proxy differed from the contract, per
// operation, direction, kind and path, with how often and when; live, newest change first.
import type { ProxyDriftReport } from '../../../traffic/findings.js';
import { control } from '../api.js';
import { timeOf } from '../format.js';
import type { MockView } from '../use-mock.js';
import { useReload } from '../use-reload.js';
import { Cut, Wide } from './bounded.js';

/** The drift view (a proxy's). */
export function DriftView({ mock }: { mock: MockView }) {
  const report = useReload(() => control<ProxyDriftReport>('GET', '/drift'), [mock.tick]);
  const findings = [...(report.value?.findings ?? [])].sort((a, b) => Date.parse(b.lastSeen) - Date.parse(a.lastSeen));
  const now = Date.now();
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        Drift
      </h2>
      <p class="count">
        {report.value === undefined
          ? 'Reading the drift report…'
          : findings.length === 0
            ? 'No difference from the contract so far.'
            : `${findings.length} ${findings.length === 1 ? 'difference' : 'differences'} from the contract, the latest seen first`}
      </p>
      {report.error === undefined ? null : <p class="error">{report.error}</p>}
      {findings.length === 0 ? null : (
        <Wide label="Differences table">
          <table>
            <thead>
              <tr>
                <th scope="col">Operation</th>
                <th scope="col">In</th>
                <th scope="col">Kind</th>
                <th scope="col">Where</th>
                <th scope="col">Expected</th>
                <th scope="col">Received</th>
                <th scope="col">Count</th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {findings.map((finding) => (
                <tr
                  key={`${finding.operation} ${finding.direction} ${finding.kind} ${finding.path ?? ''} ${finding.received ?? ''}`}
                >
                  <td>
                    <Cut text={finding.operation} />
                  </td>
                  <td>{finding.direction}</td>
                  <td>
                    <span class={`badge drift-${finding.kind}`}>{finding.kind}</span>
                  </td>
                  <td>
                    <code>
                      <Cut text={finding.path ?? ''} />
                    </code>
                  </td>
                  <td>
                    <Cut text={finding.expected ?? ''} />
                  </td>
                  <td>
                    <Cut text={finding.received ?? ''} />
                  </td>
                  <td>{finding.count}</td>
                  <td class="time">{timeOf(Date.parse(finding.lastSeen), now)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Wide>
      )}
    </section>
  );
}
