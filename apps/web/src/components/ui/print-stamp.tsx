import { useEffect, useState } from 'react';
import { formatDate } from '@/utils/format';

/**
 * The line a printout ends with (print only): "Printed 03/14/2025 from https://… · Data as of 03/01/2025",
 * so a paper copy says where and when it came from. The date and address are read again as printing
 * starts, in case the page was left open.
 */
export function PrintStamp({ dataAsOf }: { dataAsOf?: string | null }) {
  const read = () => ({ date: formatDate(new Date()), url: window.location.href });
  const [now, setNow] = useState(read);
  useEffect(() => {
    const update = () => setNow(read());
    window.addEventListener('beforeprint', update);
    return () => window.removeEventListener('beforeprint', update);
  }, []);
  const asOf = formatDate(dataAsOf);
  return (
    <p className="opp-print-only opp-print-stamp">
      Printed {now.date} from {now.url}
      {asOf ? ` · Data as of ${asOf}` : ''}
    </p>
  );
}
