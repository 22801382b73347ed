import { DEFAULT_ABUTTER_DISTANCE_FEET } from '@opp/contracts/abutter-distance';
import { useMemo, useState } from 'react';
import { useAbutters } from '../api/get-abutters';
import { useParcel } from '../api/get-parcel';
import { useParcelsInBox } from '../api/get-parcels-in-box';
import { boxOf, padBox, zoneAround } from '../utils/geometry';
import { AbuttersPanel } from './abutters-panel';
import { ParcelMap } from './parcel-map';

export interface PropertyParcelsProps {
  clientId: number;
  account: string;
  hrefFor: (account: string) => string;
}

/** How far around the parcel its map reaches: the neighbours and the street beyond. */
const SURROUNDINGS_FEET = 500;
/** Past the abutters' distance, the map shows this much more, so the zone's edge is among parcels. */
const BEYOND_ZONE_FEET = 100;

/**
 * The record's parcel on a map with its neighbours, and its abutters, on the page of a town with a parcel
 * map (PublicClient.HasParcelMap). The map draws the abutters' distance around the parcel and outlines
 * the abutters the panel lists (one request: the panel's). Nothing at all when this record has no shape
 * on it (the parcel answers 404); the record's GIS link, in its header, stays either way.
 */
export default function PropertyParcels({ clientId, account, hrefFor }: PropertyParcelsProps) {
  const parcel = useParcel(clientId, account);
  const subject = parcel.data;
  const [feet, setFeet] = useState<number>(DEFAULT_ABUTTER_DISTANCE_FEET);
  // The panel's own query (the same key): its answer for the distance shown.
  const abutters = useAbutters(clientId, account, feet, subject !== undefined).data;
  const reach = Math.max(SURROUNDINGS_FEET, (abutters?.DistanceFeet ?? feet) + BEYOND_ZONE_FEET);
  const box = useMemo(() => {
    const b = subject ? boxOf([subject.geometry]) : null;
    return b ? padBox(b, reach) : null;
  }, [subject, reach]);
  const around = useParcelsInBox(clientId, box);
  // The subject is drawn on its own, above the others.
  const features = useMemo(
    () => (around.data?.features ?? []).filter((f) => f.properties.Account !== account),
    [around.data, account],
  );
  const highlight = useMemo(
    () =>
      abutters && {
        accounts: new Set(abutters.Abutters.map((a) => a.Account)),
        mapLots: new Set(abutters.Abutters.map((a) => a.MapLot).filter(Boolean)),
      },
    [abutters],
  );
  const zone = useMemo(
    () => (subject && abutters ? zoneAround(subject.geometry, abutters.DistanceFeet) : null),
    [subject, abutters],
  );
  if (!subject) return null;
  const name = subject.properties.Location || `Map/Lot ${subject.properties.MapLot || account}`;
  const shown = abutters?.DistanceFeet;
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
        highlight={highlight || undefined}
        zone={zone}
        hrefFor={hrefFor}
        label={`Map of the parcel at ${name} and its neighbours`}
        description={
          shown === undefined
            ? 'This parcel is filled in red, its neighbours outlined in blue; select a neighbour to open its record. The abutters list below gives the nearby records as text.'
            : `This parcel is filled in red; the dashed black line marks ${shown} ft from its boundary, and the abutters within it are outlined in dark blue, other parcels in grey. Select a parcel to open its record; the abutters list below gives them as text. Focus the map to move it with the arrow keys and zoom with + and −.`
        }
      />
      <AbuttersPanel clientId={clientId} account={account} hrefFor={hrefFor} onFeetChange={setFeet} />
    </section>
  );
}
