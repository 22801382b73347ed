import { rollsRepository } from './rolls.repository.ts';

/*
 * What other features may do with rolls and their import runs (a feature uses another only through its
 * service): roll publishing reads and sweeps runs, deleting a client drops its rolls, the demo checks
 * who published a town's roll, search and the town's pages date a roll's values (fiscal year, valuation date). Importing a roll itself goes through import.service.ts.
 */
export const rollsService = {
  findRun: rollsRepository.findRun.bind(rollsRepository),
  findRunning: rollsRepository.findRunning.bind(rollsRepository),
  listRuns: rollsRepository.listRuns.bind(rollsRepository),
  sweepAbandoned: rollsRepository.sweepAbandoned.bind(rollsRepository),
  dropAbandonedRolls: rollsRepository.dropAbandonedRolls.bind(rollsRepository),
  deleteClientRolls: rollsRepository.deleteClientRolls.bind(rollsRepository),
  hasOwnerWords: rollsRepository.hasOwnerWords.bind(rollsRepository),
  dating: rollsRepository.dating.bind(rollsRepository),
};
