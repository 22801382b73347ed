import type { SearchResult } from '@opp/contracts';
import { Link } from 'react-router';
import {
  acresText,
  buildingLandText,
  comparingColumns,
  locationText,
  moreOwnersText,
  ownerNames,
  ResultThumbnail,
  saleDateText,
  salePriceText,
  STYLE_LABEL,
  styleText,
  yearBuiltText,
} from './result-fields';
import { YEAR_BUILT_SORT } from '../utils/search-state';
import { useFirstRowsFirst } from '../hooks/use-first-rows-first';

/**
 * Grid view: one card per result; the whole card is the link's click target. Year Built and Style are
 * on every card where the page's results have them (as in the list), empty on a card without.
 */
export function ResultsGrid({
  results,
  hrefFor,
}: {
  results: SearchResult[];
  hrefFor: (account: string) => string;
}) {
  const cards = useFirstRowsFirst(results);
  const shown = comparingColumns(results);
  return (
    <ul className="opp-grid" aria-label="Search results">
      {cards.map((p) => {
        const location = locationText(p);
        const price = salePriceText(p);
        return (
          <li key={p.Account} className="opp-card">
            <ResultThumbnail property={p} className="opp-card__img" />
            <div className="opp-card__body">
              <h3 className="opp-card__title">
                <Link to={hrefFor(p.Account)} className="opp-card__link">
                  {location || `Account ${p.Account}`}
                </Link>
              </h3>
              <dl className="opp-card__fields">
                <div>
                  <dt>Map/Lot</dt>
                  <dd>{p.MapLot}</dd>
                </div>
                <div>
                  <dt>Name</dt>
                  <dd>
                    {ownerNames(p).map((o, i) => (
                      <span key={i} className="display-block">
                        {o}
                      </span>
                    ))}
                    {moreOwnersText(p) ? (
                      <span className="display-block opp-more">{moreOwnersText(p)}</span>
                    ) : null}
                  </dd>
                </div>
                <div>
                  <dt>Building + Land</dt>
                  <dd>{buildingLandText(p)}</dd>
                </div>
                <div>
                  <dt>Acres</dt>
                  <dd>{acresText(p)}</dd>
                </div>
                <div>
                  <dt>Last Sale Date</dt>
                  <dd>{saleDateText(p)}</dd>
                </div>
                {price ? (
                  <div>
                    <dt>Last Sale Price</dt>
                    <dd>{price}</dd>
                  </div>
                ) : null}
                {shown.yearBuilt ? (
                  <div>
                    <dt>{YEAR_BUILT_SORT.label}</dt>
                    <dd>{yearBuiltText(p)}</dd>
                  </div>
                ) : null}
                {shown.style ? (
                  <div>
                    <dt>{STYLE_LABEL}</dt>
                    <dd>{styleText(p)}</dd>
                  </div>
                ) : null}
              </dl>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
