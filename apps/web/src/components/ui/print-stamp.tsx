import type { RollDates } from '@opp/contracts';
import { useEffect, useState } from 'react';
import { formatDate } from '@/utils/format';
import { rollDatesText } from '@/utils/roll-dates';

/**
 * The line a printout ends with (print only): "Printed 03/14/2025 from https://… · Values as of
 * 01/01/2013, fiscal year 2014 · published on this site 03/01/2025" (utils/roll-dates.ts), so a paper
 * copy says where and when it came from and what its values date from. The date and address are read
 * again as printing starts, in case the page was left open.
 */
export function PrintStamp({ dates }: { dates?: Partial<RollDates> | null }) {
  const read = () => ({ date: formatDate(new Date()), url: window.location.href });
  const [now, setNow] = useState(read);
  useEffect(() => {
    const update = () => setNow(read());
    window.addEventListener('beforeprint', update);
    return () => window.removeEventListener('beforeprint', update);
  }, []);
  const asOf = rollDatesText(dates);
  return (
    <p className="opp-print-only opp-print-stamp">
      Printed {now.date} from {now.url}
      {asOf ? ` · ${asOf}` : ''}
    </p>
  );
}
