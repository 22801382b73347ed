import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { paths } from '@/config/paths';
import { stateAbbreviation, type PublicClient } from '@opp/contracts';
import { useClients } from '../api/get-clients';
import { formatCount, formatDate } from '@/utils/format';
import { ClientCreateModal } from './client-create-modal';

const byCity = (a: PublicClient, b: PublicClient) =>
  a.City.localeCompare(b.City, 'en-US', { sensitivity: 'base' }) ||
  a.StateProvince.localeCompare(b.StateProvince, 'en-US');

function matches(c: PublicClient, q: string) {
  const needle = q.trim().toLowerCase();
  if (!needle) return true;
  return [c.City, c.StateProvince, stateAbbreviation(c.StateProvince) ?? '', String(c.ClientID)].some((s) =>
    s.toLowerCase().includes(needle),
  );
}

/**
 * Spec §2 client list: Client, ID, Parcels, Date Last Updated; sorted by City; Add; filter. Each row's
 * Edit opens the client's own page (issue 48: a page, not a modal).
 */
export function ClientsPanel() {
  const id = useId();
  const clients = useClients();
  const [filter, setFilter] = useState('');
  const [creating, setCreating] = useState(false);

  const all = useMemo(() => [...(clients.data ?? [])].sort(byCity), [clients.data]);
  const shown = useMemo(() => all.filter((c) => matches(c, filter)), [all, filter]);

  return (
    <section aria-labelledby={`${id}-heading`} className="opp-panel">
      <div className="opp-panel__header">
        <h2 id={`${id}-heading`} className="margin-0">
          Clients
        </h2>
        <button
          type="button"
          className="usa-button margin-right-0"
          aria-label="Add a client"
          onClick={() => setCreating(true)}
        >
          Add
        </button>
      </div>
      <div className="usa-form-group margin-top-1">
        <label className="usa-label" htmlFor={`${id}-filter`}>
          Filter clients
        </label>
        <input
          id={`${id}-filter`}
          className="usa-input opp-filter-input"
          type="search"
          value={filter}
          placeholder="City, state or ID"
          onChange={(e) => setFilter(e.target.value)}
        />
      </div>
      <p className="opp-visually-hidden" role="status">
        {clients.data ? `Showing ${shown.length} of ${all.length} clients` : ''}
      </p>
      {clients.isPending ? <p>Loading clients…</p> : null}
      {clients.isError ? (
        <Alert
          type="error"
          role="alert"
          text={<>The clients could not be loaded. {clients.error.message}</>}
        />
      ) : null}
      {clients.data ? (
        <table className="usa-table usa-table--borderless usa-table--stacked width-full">
          <caption className="opp-visually-hidden">Clients, sorted by City</caption>
          <thead>
            <tr>
              <th scope="col" aria-sort="ascending">
                Client
              </th>
              <th scope="col">ID</th>
              <th scope="col">Parcels</th>
              <th scope="col">Date Last Updated</th>
              <th scope="col">
                <span className="opp-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((c) => (
              <tr key={c.ClientID}>
                <th scope="row" data-label="Client">
                  {c.City}, {stateAbbreviation(c.StateProvince) ?? c.StateProvince}
                  {!c.IsActive ? <span className="usa-tag bg-base margin-left-1">Inactive</span> : null}
                  {!c.IsProduction ? (
                    <span className="usa-tag bg-accent-warm-dark margin-left-1">Test</span>
                  ) : null}
                </th>
                <td data-label="ID">{c.ClientID}</td>
                <td data-label="Parcels">{formatCount(c.ParcelCount)}</td>
                <td data-label="Date Last Updated">{formatDate(c.LastUpdated)}</td>
                <td>
                  <Link
                    className="usa-button usa-button--outline usa-button--small"
                    aria-label={`Edit ${c.City}, ${c.StateProvince}`}
                    to={paths.providerClient.getHref(c.ClientID)}
                  >
                    Edit
                  </Link>
                </td>
              </tr>
            ))}
            {shown.length === 0 ? (
              <tr>
                <td colSpan={5}>{all.length === 0 ? 'No clients yet.' : 'No client matches the filter.'}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      ) : null}
      <ClientCreateModal open={creating} onClose={() => setCreating(false)} />
    </section>
  );
}
