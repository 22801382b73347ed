import { rollsRepository } from './rolls.repository.ts';

/*
 * What other features may do with rolls and their import runs (a feature uses another only through its
 * service): roll publishing reads and sweeps runs, deleting a client drops its rolls, the demo checks
 * who published a town's roll, search dates a roll's values by its tax year. Importing a roll itself goes through import.service.ts.
 */
export const rollsService = {
  findRun: rollsRepository.findRun.bind(rollsRepository),
  findRunning: rollsRepository.findRunning.bind(rollsRepository),
  listRuns: rollsRepository.listRuns.bind(rollsRepository),
  sweepAbandoned: rollsRepository.sweepAbandoned.bind(rollsRepository),
  dropAbandonedRolls: rollsRepository.dropAbandonedRolls.bind(rollsRepository),
  deleteClientRolls: rollsRepository.deleteClientRolls.bind(rollsRepository),
  hasOwnerWords: rollsRepository.hasOwnerWords.bind(rollsRepository),
  taxYear: rollsRepository.taxYear.bind(rollsRepository),
};
