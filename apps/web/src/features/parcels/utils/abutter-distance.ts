import {
  ABUTTER_DISTANCE_RULE,
  abutterDistanceFeet,
  MAX_ABUTTER_DISTANCE_FEET,
} from '@opp/contracts/abutter-distance';

/** The distances offered with one tap; any whole number of feet up to the maximum may be typed. */
export const DISTANCE_CHOICES = [100, 200, 300, 500] as const;

export type DistanceCheck = { feet: number; error: null } | { feet: null; error: string };

/** A typed distance checked by the API's own rule, with the problem in words for the page. */
export function checkDistance(text: string): DistanceCheck {
  const t = text.trim();
  if (t === '')
    return { feet: null, error: `Enter a distance in feet, from 0 to ${MAX_ABUTTER_DISTANCE_FEET}.` };
  const feet = abutterDistanceFeet(t);
  return feet === null
    ? { feet: null, error: `The distance ${ABUTTER_DISTANCE_RULE}.` }
    : { feet, error: null };
}
