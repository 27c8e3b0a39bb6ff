// Campaigns: a table of every campaign with its template, segment, status and progress, searchable
// by name, template or status.
import { timeOf } from '../format.js';
import type { MockView } from '../use-mock.js';
import { Cut, Wide } from './bounded.js';
import { useSearch } from './search.js';

/** The campaigns view. */
export function CampaignsView({ mock }: { mock: MockView }) {
  const { campaigns, now } = mock.snapshot!;
  const today = Date.parse(now);
  const { field, matches } = useSearch('Search campaigns by name, template or status', 'campaign-search');
  const shown = campaigns.filter((c) => matches([c.name, c.template_name, c.status]));
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        Campaigns
      </h2>
      {field}
      <p class="count">
        {shown.length} of {campaigns.length} campaigns
      </p>
      <Wide label="Campaigns table">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Template</th>
              <th scope="col">Segment</th>
              <th scope="col">Status</th>
              <th scope="col">Scheduled</th>
              <th scope="col">Sent</th>
              <th scope="col">Completed</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((campaign) => (
              <tr key={campaign.id}>
                <td>
                  <Cut text={campaign.name} />
                </td>
                <td>
                  <Cut text={campaign.template_name} />
                </td>
                <td>{campaign.segment_id}</td>
                <td>
                  <span class={`badge status-${campaign.status}`}>{campaign.status}</span>
                </td>
                <td class="time">{timeOf(campaign.scheduled_at, today)}</td>
                <td>{campaign.sent_count}</td>
                <td class="time">{campaign.completed_at === undefined ? '' : timeOf(campaign.completed_at, today)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Wide>
    </section>
  );
}
