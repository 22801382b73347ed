import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useCities } from '../api/get-cities';
import { useStates } from '../api/get-states';

/** Spec §9: the region the home page starts with. */
export const DEFAULT_REGION = 'Maine';

export interface FindPropertyFormProps {
  onSearch: (state: string, city: string) => void;
}

/**
 * Spec §2/§4 "Find A Property": Region (defaults to Maine), Community (filled from the region, sorted,
 * disabled until a region is set), Search (disabled until a community is chosen). Enter in Community
 * searches.
 */
export function FindPropertyForm({ onSearch }: FindPropertyFormProps) {
  const [region, setRegion] = useState(DEFAULT_REGION);
  const [community, setCommunity] = useState('');
  const states = useStates();
  const cities = useCities(region);
  const id = useId();
  const statusId = `${id}-status`;

  // A default region with no published town is not offered; the visitor picks one from the list.
  const regions = states.data ?? [];
  const regionValue = states.isSuccess && !regions.includes(region) ? '' : region;
  const communities = regionValue ? (cities.data ?? []) : [];
  const communityValue = communities.includes(community) ? community : '';
  const canSearch = regionValue !== '' && communityValue !== '';

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (canSearch) onSearch(regionValue, communityValue);
  };
  const onCommunityKeyDown = (e: KeyboardEvent<HTMLSelectElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      submit();
    }
  };

  let status = '';
  if (states.isError) status = 'The list of regions could not be loaded. Please reload the page.';
  else if (cities.isError) status = 'The list of communities could not be loaded. Please try again.';
  else if (regionValue && cities.isSuccess && communities.length === 0)
    status = 'No communities in this region yet.';

  return (
    <form className="opp-find" onSubmit={submit} aria-describedby={status ? statusId : undefined}>
      <label className="usa-label" htmlFor={`${id}-region`}>
        Region
      </label>
      <select
        className="usa-select"
        id={`${id}-region`}
        name="region"
        value={regionValue}
        onChange={(e) => {
          setRegion(e.target.value);
          setCommunity('');
        }}
      >
        <option value="">- Select a region -</option>
        {regions.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
        {/* Until the list arrives the default is still shown as selected. */}
        {!states.isSuccess && regionValue ? <option value={regionValue}>{regionValue}</option> : null}
      </select>

      <label className="usa-label" htmlFor={`${id}-community`}>
        Community
      </label>
      <select
        className="usa-select"
        id={`${id}-community`}
        name="community"
        value={communityValue}
        disabled={!regionValue}
        onChange={(e) => setCommunity(e.target.value)}
        onKeyDown={onCommunityKeyDown}
      >
        <option value="">- Select a community -</option>
        {communities.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>

      <p id={statusId} className="opp-find__status" role="status">
        {status}
      </p>

      <button type="submit" className="usa-button opp-find__submit" disabled={!canSearch}>
        Search
      </button>
    </form>
  );
}
