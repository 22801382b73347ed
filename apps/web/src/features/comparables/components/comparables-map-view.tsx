import type { Comparable, ParcelFeature } from '@opp/contracts';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect } from 'react';
import { MapCanvas, SUBJECT_STYLE, useRecordMap } from '@/features/parcels/components/parcel-map-view';
import { formatDate, formatMoney } from '@/utils/format';

/*
 * The comparables' map, in a chunk of its own that shares Leaflet with the parcel map: the subject's
 * shape, and a numbered circle at each comparable's centroid. SVG, no WebGL.
 */

export interface ComparablesMapViewProps {
  subject: ParcelFeature;
  comparables: Comparable[];
  hrefFor: (account: string) => string;
  tilesUrl: string;
  describedBy: string;
}

/** A comparable's number and words for its marker: text nodes, never HTML (addresses are the town's). */
function labelOf(c: Comparable, rank: number): HTMLElement {
  const tip = document.createElement('span');
  tip.textContent = `${rank}. ${c.Location || `Account ${c.Account}`} · ${formatMoney(c.SalePrice)} on ${formatDate(c.SaleDate)}`;
  return tip;
}

function markerIcon(rank: number): L.DivIcon {
  const html = document.createElement('span');
  html.className = 'opp-comparables__marker';
  html.textContent = String(rank);
  return L.divIcon({ html, className: '', iconSize: [26, 26], iconAnchor: [13, 13] });
}

export default function ComparablesMapView({
  subject,
  comparables,
  hrefFor,
  tilesUrl,
  describedBy,
}: ComparablesMapViewProps) {
  const { containerRef, mapRef, openRecord } = useRecordMap(tilesUrl, hrefFor);

  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    // Leaflet keeps and changes the object it is given: it gets a copy.
    const shape = { ...subject, properties: { ...subject.properties } } as GeoJSON.Feature;
    const own = L.geoJSON(shape, { style: () => SUBJECT_STYLE });
    own.addTo(map);
    // Markers are not in the tab order: the table's links are the keyboard's way to each comparable.
    const markers = comparables.map((c, i) => {
      const marker = L.marker([c.Centroid[1], c.Centroid[0]], {
        icon: markerIcon(i + 1),
        keyboard: false,
        title: '',
      });
      marker.bindTooltip(labelOf(c, i + 1));
      marker.on('click', () => openRecord(c.Account));
      return marker.addTo(map);
    });
    const bounds = own.getBounds();
    for (const c of comparables) bounds.extend([c.Centroid[1], c.Centroid[0]]);
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [32, 32], maxZoom: 18, animate: false });
    return () => {
      own.remove();
      for (const m of markers) m.remove();
    };
  }, [subject, comparables, openRecord, mapRef]);

  return (
    <MapCanvas
      canvasRef={containerRef}
      label="Map of this parcel and its comparable sales"
      describedBy={describedBy}
    />
  );
}
