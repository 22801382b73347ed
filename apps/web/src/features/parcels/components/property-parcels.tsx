import { useMemo } from 'react';
import { useParcel } from '../api/get-parcel';
import { useParcelsInBox } from '../api/get-parcels-in-box';
import { boxOf, padBox } from '../utils/geometry';
import { AbuttersPanel } from './abutters-panel';
import { ParcelMap } from './parcel-map';

export interface PropertyParcelsProps {
  clientId: number;
  account: string;
  hrefFor: (account: string) => string;
}

/** How far around the parcel its map reaches: the neighbours and the street beyond. */
const SURROUNDINGS_FEET = 500;

/**
 * The record's parcel on a map with its neighbours, and its abutters, on the page of a town with a parcel
 * map (PublicClient.HasParcelMap). Nothing at all when this record has no shape on it (the parcel answers
 * 404); the record's GIS link, in its header, stays either way.
 */
export default function PropertyParcels({ clientId, account, hrefFor }: PropertyParcelsProps) {
  const parcel = useParcel(clientId, account);
  const subject = parcel.data;
  const box = useMemo(() => {
    const b = subject ? boxOf([subject.geometry]) : null;
    return b ? padBox(b, SURROUNDINGS_FEET) : null;
  }, [subject]);
  const around = useParcelsInBox(clientId, box);
  // The subject is drawn on its own, above the others.
  const features = useMemo(
    () => (around.data?.features ?? []).filter((f) => f.properties.Account !== account),
    [around.data, account],
  );
  if (!subject) return null;
  const name = subject.properties.Location || `Map/Lot ${subject.properties.MapLot || account}`;
  return (
    <section className="opp-section opp-parcels" aria-labelledby="parcel-map-heading" id="parcel-map">
      <h2 id="parcel-map-heading" className="opp-section__heading">
        Map and Abutters
      </h2>
      {subject.properties.OnParcel ? (
        <p className="margin-top-0">
          On parcel {subject.properties.OnParcel}: this record’s map/lot has no shape of its own on the town’s
          map, so it is shown on the parcel it sits on.
        </p>
      ) : null}
      <ParcelMap
        features={features}
        subject={subject}
        hrefFor={hrefFor}
        label={`Map of the parcel at ${name} and its neighbours`}
        description="This parcel is filled in red, its neighbours outlined in blue; select a neighbour to open its record. The abutters list below gives the nearby records as text."
      />
      <AbuttersPanel clientId={clientId} account={account} hrefFor={hrefFor} />
    </section>
  );
}
