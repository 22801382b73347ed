import unhomoglyph from 'unhomoglyph';
import type { Executor } from '../../db/database.ts';
import { conflict } from '../../errors.ts';
import { cityKey, clientsRepository } from './clients.repository.ts';

/*
 * Town names that only look different are the same name: `Hаrrison` with a Cyrillic а would sit beside
 * Harrison in the state's list and take its visitors. Names are compared by their UTS #39 "skeleton",
 * each character mapped to the one it is confusable with by Unicode's confusables.txt (the `unhomoglyph`
 * package carries that table), with case folded. The table maps capitals to capitals (Cyrillic `В` and
 * Greek `Β` to Latin `B`) and small letters to small ones, so the map is applied on both sides of the
 * case fold: on the name in capitals (every look-alike capital, and every case of the same letter, meet
 * on one Latin capital), then again after lowercasing (look-alike small letters that have no capital of
 * their own). Spaces are folded as cityKey folds them, after NFKC; decomposed (NFD) around each step.
 */
export function townNameSkeleton(city: string): string {
  const capitals = unhomoglyph(city.normalize('NFKC').toUpperCase().normalize('NFD'));
  return unhomoglyph(cityKey(capitals).normalize('NFD')).normalize('NFD');
}

/**
 * Old names are kept (client_city_aliases) so that links to a renamed town still find it, and they are
 * taken: no other town may have them. Unbounded, that let a town's Super Administrator squat any free
 * name of the state by renaming the town to it and back. So:
 * - a name the town took by a rename is kept when it leaves it only if it held it at least
 *   OLD_NAME_MIN_HELD_MS (a day): a name held for minutes had no time to be linked to, and is free again
 *   at once; the name a town was created with is always kept;
 * - a town keeps its MAX_OLD_NAMES most recently left old names; an older one is released;
 * - a town taking back one of its old names drops it from its old names.
 */
export const OLD_NAME_MIN_HELD_MS = 24 * 60 * 60 * 1000;
export const MAX_OLD_NAMES = 3;

/** Whether the name a town is leaving now stays its old name. */
export function keepsOldName(town: { citySince: Date | null }, now: Date): boolean {
  return town.citySince === null || now.getTime() - town.citySince.getTime() >= OLD_NAME_MIN_HELD_MS;
}

/** The one answer for a name that cannot be had: it names neither the town holding it nor whether it is active. */
export const townNameTaken = (city: string, state: string) =>
  conflict(`The name ${city} is not available in ${state}; choose another.`, 'City');

/**
 * Refuses a name that is, or looks like, the current or an old name (client_city_aliases, which keep
 * old public links working) of another town in the state, active or not. A town may take back one of
 * its own old names.
 * @throws 409 townNameTaken.
 */
export async function assertTownNameAvailable(
  db: Executor,
  state: string,
  city: string,
  selfId: number | null,
): Promise<void> {
  const wanted = townNameSkeleton(city);
  for (const taken of await clientsRepository.listNamesInState(db, state))
    if (taken.clientId !== selfId && townNameSkeleton(taken.name) === wanted)
      throw townNameTaken(city, state);
}
