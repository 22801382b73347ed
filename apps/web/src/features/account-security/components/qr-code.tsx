import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/**
 * The otpauth:// URI as a QR code for an authenticator app to scan. The encoder (imported statically:
 * it lands in the account security route's chunk, which only admins load; a dynamic import here split
 * the bundler's runtime and preload helper out of the public entry into two more requests) draws an SVG,
 * shown as an image (the CSP allows data: images, not inline markup from a string).
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    setSrc(null);
    setFailed(false);
    QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 200 })
      .then((svg) => {
        if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => {
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [text]);

  if (failed)
    return <p className="opp-qr opp-qr--failed">The QR code could not be drawn; use the key below.</p>;
  return src ? (
    <img className="opp-qr" src={src} alt={label} width={200} height={200} />
  ) : (
    <div className="opp-qr opp-qr--loading" role="img" aria-label={`${label} (loading)`} />
  );
}
