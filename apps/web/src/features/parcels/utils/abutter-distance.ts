import { AbuttersQuery, MAX_ABUTTER_DISTANCE_FEET } from '@opp/contracts';

/** The distances offered with one tap; any whole number of feet up to the maximum may be typed. */
export const DISTANCE_CHOICES = [100, 200, 300, 500] as const;

export type DistanceCheck = { feet: number; error: null } | { feet: null; error: string };

/** A typed distance checked by the API's own rule, with the problem in words for the page. */
export function checkDistance(text: string): DistanceCheck {
  const t = text.trim();
  if (t === '')
    return { feet: null, error: `Enter a distance in feet, from 0 to ${MAX_ABUTTER_DISTANCE_FEET}.` };
  const parsed = AbuttersQuery.safeParse({ distance: t });
  if (!parsed.success)
    return {
      feet: null,
      error: `The distance ${parsed.error.issues[0]?.message ?? 'is not valid'}.`,
    };
  return { feet: parsed.data.distance, error: null };
}
