import type { MailingOwner } from '@opp/contracts';

/** An owner's mailing address as the lines of an envelope (the country only when not the US). */
export function mailingLines(o: MailingOwner): string[] {
  const cityLine = [o.City, [o.State, o.ZipCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const country = o.Country && !/^(us|usa|united states)$/i.test(o.Country) ? o.Country : '';
  return [o.Address1, o.Address2, o.Address3, cityLine, country].filter((l): l is string => Boolean(l));
}
