import type { ResultPoints } from '@opp/contracts';
import L from 'leaflet';
import { useEffect, useMemo } from 'react';
import Supercluster from 'supercluster';
import { formatCount } from '@/utils/format';
import { MapCanvas, useRecordMap } from './parcel-map-view';

/*
 * The results map's drawing, in the lazy chunk with Leaflet: every result as a point at its parcel's
 * centroid, grouped by Supercluster where they crowd together (a circle with the count), one by one
 * from street scale on. Groups and points are drawn again for the part of the map in view after each
 * pan or zoom, so a city's 30,000 results never become 30,000 markers at once.
 */

interface Props {
  points: ResultPoints['Points'];
  hrefFor: (account: string) => string;
  tilesUrl: string;
  label: string;
  describedBy: string;
}

type Result = { account: string; location: string };

/** Groups stop at this zoom (about a street): closer in, every result is its own point. */
const CLUSTER_MAX_ZOOM = 17;
const POINT_STYLE: L.CircleMarkerOptions = {
  radius: 6,
  color: '#ffffff',
  weight: 2,
  fillColor: '#1a4480',
  fillOpacity: 1,
};

/** A group's marker: its count, sized by how many it holds (the number is ours, never the town's text). */
function groupIcon(count: number): L.DivIcon {
  const size = count < 10 ? 30 : count < 100 ? 36 : count < 1000 ? 44 : 52;
  const label = document.createElement('span');
  label.textContent = formatCount(count);
  return L.divIcon({ html: label, className: 'opp-cluster', iconSize: [size, size] });
}

export default function ResultsClusterView({ points, hrefFor, tilesUrl, label, describedBy }: Props) {
  const { containerRef, mapRef, openRecord } = useRecordMap(tilesUrl, hrefFor);

  const index = useMemo(() => {
    const groups = new Supercluster<Result>({ radius: 60, maxZoom: CLUSTER_MAX_ZOOM });
    groups.load(
      points.map(([account, location, lon, lat]) => ({
        type: 'Feature' as const,
        properties: { account, location },
        geometry: { type: 'Point' as const, coordinates: [lon, lat] },
      })),
    );
    return groups;
  }, [points]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map || points.length === 0) return;
    const layer = L.layerGroup().addTo(map);
    const draw = () => {
      layer.clearLayers();
      const b = map.getBounds();
      const bbox: [number, number, number, number] = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()];
      for (const f of index.getClusters(bbox, Math.round(map.getZoom()))) {
        const [lon, lat] = f.geometry.coordinates as [number, number];
        if ('cluster' in f.properties && f.properties.cluster) {
          const id = f.properties.cluster_id;
          // Not a Tab stop of its own: the map is one, and the list below holds the same results.
          L.marker([lat, lon], { icon: groupIcon(f.properties.point_count), keyboard: false })
            .on('click', () =>
              map.setView([lat, lon], Math.min(index.getClusterExpansionZoom(id), CLUSTER_MAX_ZOOM + 1)),
            )
            .addTo(layer);
          continue;
        }
        const { account, location } = f.properties as Result;
        const tip = document.createElement('span');
        tip.textContent = location || `Account ${account}`;
        const point = L.circleMarker([lat, lon], POINT_STYLE)
          .bindTooltip(tip)
          .on('click', () => openRecord(account))
          .addTo(layer);
        point.getElement()?.setAttribute('tabindex', '-1');
      }
    };
    // Fitted to every result once per result set, then drawn for whatever is in view.
    const bounds = L.latLngBounds(points.map(([, , lon, lat]) => [lat, lon] as [number, number]));
    map.fitBounds(bounds, { padding: [32, 32], maxZoom: CLUSTER_MAX_ZOOM + 1, animate: false });
    draw();
    map.on('moveend', draw);
    return () => {
      map.off('moveend', draw);
      layer.remove();
    };
  }, [index, points, openRecord, mapRef]);

  return <MapCanvas canvasRef={containerRef} label={label} describedBy={describedBy} />;
}
