import type { PropertySummary, SearchResult } from '@opp/contracts';
import { HousePlaceholder } from '@/components/ui/icons';
import { buildingPlusLand, formatDate, formatLocation, formatLotArea, formatMoney } from '@/utils/format';
import { assetUrl } from '@/utils/links';

const named = (p: PropertySummary) => p.Owners.filter((o) => o.OwnerName.trim());

/** Spec §2: the first two owners. */
export const ownerNames = (p: PropertySummary) =>
  named(p)
    .slice(0, 2)
    .map((o) => o.OwnerName);

/** "+1 more" when the record lists owners beyond the two shown; '' otherwise. */
export const moreOwnersText = (p: PropertySummary) => {
  const more = named(p).length - 2;
  return more > 0 ? `+${more} more` : '';
};

/** Spec §2: Last Sale Price only when above 0. */
export const salePriceText = (p: PropertySummary) =>
  p.SalePrice !== null && p.SalePrice > 0 ? formatMoney(p.SalePrice) : '';

export const buildingLandText = (p: PropertySummary) =>
  formatMoney(buildingPlusLand(p.TotalBuildingValue, p.LandValue));
export const acresText = (p: PropertySummary) => formatLotArea(p.TotalAcres);
export const saleDateText = (p: PropertySummary) => formatDate(p.SaleDate);
export const locationText = (p: PropertySummary) => formatLocation(p);
export const yearBuiltText = (p: SearchResult) => (p.YearBuilt === null ? '' : String(p.YearBuilt));
export const styleText = (p: SearchResult) => p.BuildingStyles.join(', ');

export const STYLE_LABEL = 'Style';

/**
 * Whether the list and grid show Year Built and Style: only when a result of the page has one, so a
 * town whose roll records neither (or a page of land without buildings) gets no empty columns.
 */
export const comparingColumns = (results: SearchResult[]) => ({
  yearBuilt: results.some((p) => p.YearBuilt !== null),
  style: results.some((p) => p.BuildingStyles.length > 0),
});

/** The result's photo, or the default house image when it has none. */
export function ResultThumbnail({ property, className }: { property: PropertySummary; className?: string }) {
  const location = locationText(property);
  if (!property.ImageURL) return <HousePlaceholder className={className} />;
  return (
    <img
      className={className}
      src={assetUrl(property.ImageURL)}
      alt={location ? `Photo of ${location}` : `Photo of account ${property.Account}`}
      loading="lazy"
      decoding="async"
    />
  );
}
