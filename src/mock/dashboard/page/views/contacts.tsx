// Contacts: a table of every contact, searchable by name, phone, e-mail or tag, each row opening its
// conversation.
import { hrefOf } from '../route.js';
import { timeOf, phoneKey } from '../format.js';
import type { MockView } from '../use-mock.js';
import { Cut, Wide } from './bounded.js';
import { useSearch } from './search.js';

/** The contacts view. */
export function ContactsView({ mock }: { mock: MockView }) {
  const { contacts, now } = mock.snapshot!;
  const { field, matches } = useSearch('Search contacts by name, phone or tag', 'contact-search');
  const shown = contacts.filter((c) => matches([c.name, c.phone, c.email ?? '', ...c.tags]));
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        Contacts
      </h2>
      {field}
      <p class="count">
        {shown.length} of {contacts.length} contacts
      </p>
      <Wide label="Contacts table">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Phone</th>
              <th scope="col">E-mail</th>
              <th scope="col">Tags</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((contact) => (
              <tr key={contact.id}>
                <td>
                  <a href={hrefOf('conversations', phoneKey(contact.phone))}>
                    <Cut text={contact.name} />
                  </a>
                </td>
                <td>{contact.phone}</td>
                <td>
                  <Cut text={contact.email ?? ''} />
                </td>
                <td>
                  {contact.tags.map((tag) => (
                    <span key={tag} class="tag" title={tag}>
                      {tag}
                    </span>
                  ))}
                </td>
                <td class="time">{timeOf(contact.created_at, Date.parse(now))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Wide>
    </section>
  );
}
