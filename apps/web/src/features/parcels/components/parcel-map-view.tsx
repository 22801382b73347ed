import type { ParcelFeature, ParcelGeometry } from '@opp/contracts';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import '../parcels.css';

/*
 * The Leaflet map itself, in a chunk of its own (with Leaflet and its stylesheet): only a page that
 * shows a map downloads it (parcel-map.tsx loads it lazily). SVG paths, no WebGL.
 */

export interface ParcelMapViewProps {
  /** The parcels drawn; a click on one opens its record. */
  features: ParcelFeature[];
  /** The record's own parcel, drawn highlighted above the others; the map is fitted to it. */
  subject?: ParcelFeature;
  /**
   * The parcels to pick out (the subject's abutters), by account or map/lot: drawn outlined, the others
   * faint. Absent: every parcel is drawn alike.
   */
  highlight?: { accounts: ReadonlySet<string>; mapLots: ReadonlySet<string> };
  /** The ground within the abutters' distance of the subject, drawn as a dashed outline. */
  zone?: ParcelGeometry | null;
  /** Where a parcel's record is. */
  hrefFor: (account: string) => string;
  /** Tile address ({z}/{x}/{y}); empty: parcels on a plain background. */
  tilesUrl: string;
  /** The map's accessible name and the id of the text describing it. */
  label: string;
  describedBy: string;
}

const OSM_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/** Attribution for the tile server: OpenStreetMap's own wording for its tiles, else the server's name. */
export function attributionFor(tilesUrl: string): string {
  const host = /^https?:\/\/([^/]+)/.exec(tilesUrl)?.[1] ?? '';
  if (/(^|\.)openstreetmap\.(org|fr|de)$/.test(host.replace(/\{s\}\./, ''))) return OSM_ATTRIBUTION;
  const safe = host.replace(/[^A-Za-z0-9.{}:-]/g, '');
  return `Map tiles: ${safe}`;
}

/**
 * A map as every page draws one: one Tab stop (Leaflet's keyboard handler: arrows pan, + and - zoom), its
 * zoom buttons for the pointer only (what it shows is also a list beside it), and scrolling the page over
 * it scrolls the page (zoom with the buttons, keys or a pinch).
 */
export function newMap(container: HTMLElement): L.Map {
  const map = L.map(container, {
    attributionControl: false,
    zoomSnap: 0.25,
    maxZoom: 20,
    scrollWheelZoom: false,
  });
  map.setView([0, 0], 2);
  map.zoomControl
    .getContainer()
    ?.querySelectorAll('a')
    .forEach((a) => {
      a.tabIndex = -1;
    });
  return map;
}

/** The base map's tiles and their attribution under a map's parcels; none for an empty tile address. */
export function useBaseMap(mapRef: RefObject<L.Map | null>, tilesUrl: string): void {
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !tilesUrl) return;
    const attribution = L.control.attribution({ prefix: false }).addTo(map);
    const tiles = L.tileLayer(tilesUrl, {
      maxZoom: 20,
      maxNativeZoom: 19,
      attribution: attributionFor(tilesUrl),
    });
    tiles.addTo(map);
    return () => {
      tiles.remove();
      attribution.remove();
    };
  }, [mapRef, tilesUrl]);
}

/**
 * What every map view starts from: its element, the Leaflet map made in it for the view's life with the
 * base map under it, and `openRecord`, which a click on a parcel or point calls (it reads the latest
 * `hrefFor`, since Leaflet's handlers outlive a render).
 */
export function useRecordMap(tilesUrl: string, hrefFor: (account: string) => string) {
  const navigate = useNavigate();
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const hrefForRef = useRef(hrefFor);
  useEffect(() => {
    hrefForRef.current = hrefFor;
  }, [hrefFor]);
  useEffect(() => {
    const map = newMap(containerRef.current!);
    mapRef.current = map;
    return () => {
      map.remove();
      mapRef.current = null;
    };
  }, []);
  useBaseMap(mapRef, tilesUrl);
  const openRecord = useCallback((account: string) => void navigate(hrefForRef.current(account)), [navigate]);
  return { containerRef, mapRef, openRecord };
}

/** A map view's element: a region named by `label` and described by the words beside the map. */
export function MapCanvas({
  canvasRef,
  label,
  describedBy,
}: {
  canvasRef: RefObject<HTMLDivElement | null>;
  label: string;
  describedBy: string;
}) {
  return (
    <div
      ref={canvasRef}
      className="opp-parcel-map__canvas"
      role="region"
      aria-label={label}
      aria-describedby={describedBy}
    />
  );
}

export const SUBJECT_STYLE: L.PathOptions = {
  color: '#b50909',
  weight: 3,
  fillColor: '#d83933',
  fillOpacity: 0.45,
};
const PARCEL_STYLE: L.PathOptions = { color: '#1a4480', weight: 1, fillColor: '#73b3e7', fillOpacity: 0.15 };
/** An abutter, when the subject's abutters are picked out: a heavier outline than any other parcel. */
const ABUTTER_STYLE: L.PathOptions = {
  color: '#162e51',
  weight: 2.5,
  fillColor: '#2378c3',
  fillOpacity: 0.3,
};
/** Any other parcel then: there for orientation, faint. */
const OTHER_STYLE: L.PathOptions = { color: '#71767a', weight: 1, fillColor: '#dfe1e2', fillOpacity: 0.1 };
const ZONE_STYLE: L.PathOptions = {
  color: '#1b1b1b',
  weight: 2,
  dashArray: '6 5',
  fill: false,
  interactive: false,
};

/** The printed map's width: parcels.css gives the map this width in print. */
const PRINT_WIDTH = '6.5in';

/** The feature's text for its tooltip: text nodes, never HTML (the names come from the town's data). */
function tooltipOf(f: ParcelFeature): HTMLElement {
  const { Account, MapLot, Location } = f.properties;
  const tip = document.createElement('span');
  tip.textContent = [Location || `Account ${Account}`, MapLot ? `Map/Lot ${MapLot}` : '']
    .filter(Boolean)
    .join(' · ');
  return tip;
}

/** Leaflet keeps and changes the objects it is given; it gets copies. */
const copy = (f: ParcelFeature) => ({ ...f, properties: { ...f.properties } });

export default function ParcelMapView({
  features,
  subject,
  highlight,
  zone,
  hrefFor,
  tilesUrl,
  label,
  describedBy,
}: ParcelMapViewProps) {
  const { containerRef, mapRef, openRecord } = useRecordMap(tilesUrl, hrefFor);
  const fittedRef = useRef<string | null>(null);
  const subjectBoundsRef = useRef<L.LatLngBounds | null>(null);

  useEffect(() => {
    const map = mapRef.current!;
    // A printout centres the subject, on the page's width (print CSS: PRINT_WIDTH), as printing starts.
    const container = containerRef.current!;
    const centre = () => {
      map.invalidateSize({ animate: false, pan: false });
      const bounds = subjectBoundsRef.current;
      if (bounds) map.setView(bounds.getCenter(), map.getZoom(), { animate: false });
    };
    const beforePrint = () => {
      container.style.width = PRINT_WIDTH;
      centre();
    };
    const afterPrint = () => {
      container.style.width = '';
      centre();
    };
    const printing = window.matchMedia('print');
    const printChange = () => (printing.matches ? centre() : afterPrint());
    window.addEventListener('beforeprint', beforePrint);
    window.addEventListener('afterprint', afterPrint);
    printing.addEventListener('change', printChange);
    return () => {
      window.removeEventListener('beforeprint', beforePrint);
      window.removeEventListener('afterprint', afterPrint);
      printing.removeEventListener('change', printChange);
      fittedRef.current = null;
    };
  }, [mapRef, containerRef]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const picked = (f: ParcelFeature) =>
      highlight!.accounts.has(f.properties.Account) ||
      (f.properties.MapLot !== '' && highlight!.mapLots.has(f.properties.MapLot));
    const parcels = L.geoJSON(features.map(copy), {
      style: (f) => (!highlight ? PARCEL_STYLE : picked(f as ParcelFeature) ? ABUTTER_STYLE : OTHER_STYLE),
      onEachFeature: (f: ParcelFeature, path) => {
        path.bindTooltip(tooltipOf(f), { sticky: true });
        path.on('click', () => openRecord(f.properties.Account));
      },
    }).addTo(map);
    const ring = zone ? L.geoJSON(zone, { style: () => ZONE_STYLE, interactive: false }).addTo(map) : null;
    // On top, and taking the clicks on its own shape (which condominium units share).
    const own = subject
      ? L.geoJSON(copy(subject), {
          style: () => SUBJECT_STYLE,
          onEachFeature: (f: ParcelFeature, path) => path.bindTooltip(tooltipOf(f), { sticky: true }),
        }).addTo(map)
      : null;
    subjectBoundsRef.current = own?.getBounds() ?? null;
    // Chromium makes an SVG shape with focus listeners (Leaflet's tooltips add them) a Tab stop of its
    // own: the map is one stop, and its parcels are links in the list beside it.
    for (const group of [parcels, own])
      group?.eachLayer((layer) => (layer as L.Path).getElement()?.setAttribute('tabindex', '-1'));
    // Fitted once per thing to show (the subject with its zone: a new distance is a new thing), not again
    // when neighbours arrive or after the user has moved.
    const fit = subject ? [subject] : features;
    const shown = ring ?? own ?? parcels;
    const key = `${fit.map((f) => f.properties.Account).join('\n')}\n${ring?.getBounds().toBBoxString() ?? ''}`;
    if (fit.length && fittedRef.current !== key) {
      fittedRef.current = key;
      const bounds = shown.getBounds();
      if (bounds.isValid())
        map.fitBounds(bounds, { padding: [32, 32], maxZoom: subject ? 18 : 19, animate: false });
    }
    return () => {
      parcels.remove();
      ring?.remove();
      own?.remove();
    };
  }, [features, subject, highlight, zone, openRecord, mapRef]);

  return <MapCanvas canvasRef={containerRef} label={label} describedBy={describedBy} />;
}
