import type { PropertySummary } from '@opp/contracts';
import { HousePlaceholder } from '@/components/ui/icons';
import { buildingPlusLand, formatLocation, formatMoney, formatNumber, formatSaleDate } from '@/utils/format';
import { assetUrl } from '@/utils/links';

/** Spec §2: the first two owners. */
export const ownerNames = (p: PropertySummary) =>
  p.Owners.slice(0, 2)
    .map((o) => o.OwnerName)
    .filter(Boolean);

/** Spec §2: Last Sale Price only when above 0. */
export const salePriceText = (p: PropertySummary) =>
  p.SalePrice !== null && p.SalePrice > 0 ? formatMoney(p.SalePrice) : '';

export const buildingLandText = (p: PropertySummary) =>
  formatMoney(buildingPlusLand(p.TotalBuildingValue, p.LandValue));
export const acresText = (p: PropertySummary) => formatNumber(p.TotalAcres);
export const saleDateText = (p: PropertySummary) => formatSaleDate(p.SaleDate);
export const locationText = (p: PropertySummary) => formatLocation(p);

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
